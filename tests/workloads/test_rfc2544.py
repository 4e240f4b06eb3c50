"""The RFC 2544 26.1 search against a simulated link whose loss threshold is known: it must find the rate within
the stated resolution, never above the threshold, in at most Settings.bound() trials."""

from __future__ import annotations

import pytest

from perfgate.workloads import rfc2544
from perfgate.workloads.rfc2544 import Settings


class Link:
    """A link that carries `capacity` Mbit/s and drops the rest; optionally with netperf's burst quantisation."""

    def __init__(self, capacity: float, datagram: int | None = None) -> None:
        self.capacity = capacity
        self.datagram = datagram
        self.calls: list[float] = []

    def __call__(self, rate: float) -> tuple[float, float, dict]:
        offered = rate
        if self.datagram:  # netperf -b <burst> -w 10 ms: whole datagrams per 10 ms
            burst = max(1, round(rate * 1e6 / 8 / self.datagram / 100))
            offered = burst * self.datagram * 8 * 100 / 1e6
        self.calls.append(offered)
        loss = 0.0 if offered <= self.capacity else (offered - self.capacity) / offered * 100
        return offered, loss, {"throughput": min(offered, self.capacity)}


DEFAULT = Settings(line_rate=1000.0, min_rate=0.1, resolution=0.01, max_trials=16)


def test_bound_is_stated() -> None:
    assert DEFAULT.bound() == 11


@pytest.mark.parametrize("capacity", [1.05, 7.62, 32.39, 146.16, 368.14, 592.23, 956.84, 999.0])
def test_finds_capacity_within_resolution(capacity: float) -> None:
    link = Link(capacity)
    r = rfc2544.search(link, DEFAULT)
    assert r.converged, r.reason
    assert r.rate is not None
    assert capacity / (1 + DEFAULT.resolution) <= r.rate <= capacity
    assert len(r.trials) <= DEFAULT.bound()
    assert r.best is not None and r.best.loss == 0.0 and r.best.result["throughput"] == r.rate


@pytest.mark.parametrize(("capacity", "datagram"), [(32.39, 18), (146.16, 82), (956.84, 1472), (1.05, 18)])
def test_quantised_rates_still_converge(capacity: float, datagram: int) -> None:
    r = rfc2544.search(Link(capacity, datagram), DEFAULT)
    assert r.converged and r.rate is not None
    step = datagram * 8 * 100 / 1e6  # one datagram more per burst
    assert r.rate <= capacity
    assert r.rate >= min(capacity / (1 + DEFAULT.resolution), capacity - step)
    assert len(r.trials) <= DEFAULT.bound() + 1  # one more when a rate step is coarser than the resolution


def test_no_loss_at_line_rate_takes_one_trial() -> None:
    r = rfc2544.search(Link(5000.0), DEFAULT)
    assert (r.rate, len(r.trials), r.converged) == (1000.0, 1, True)


def test_loss_at_every_rate_reports_none() -> None:
    r = rfc2544.search(Link(0.05), DEFAULT)
    assert r.rate is None and r.best is None and r.converged
    assert "loss even at the lowest rate" in r.reason
    assert len(r.trials) <= DEFAULT.bound() + 1


def test_max_trials_stops_and_says_so() -> None:
    s = Settings(line_rate=1000.0, min_rate=0.1, resolution=0.001, max_trials=5)
    r = rfc2544.search(Link(300.0), s)
    assert len(r.trials) == 5 and not r.converged
    assert "stopped after 5 trials" in r.reason
    assert r.rate is None or r.rate <= 300.0


def test_loss_threshold_accepts_small_loss() -> None:
    s = Settings(line_rate=1000.0, loss_threshold=5.0)
    r = rfc2544.search(Link(900.0), s)  # 10 % loss at the line rate, under 5 % from ~947 Mbit/s down
    assert r.rate is not None and r.rate > 900.0


def test_bad_settings() -> None:
    with pytest.raises(ValueError):
        Settings(line_rate=1.0, min_rate=2.0)
    with pytest.raises(ValueError):
        Settings(line_rate=1000.0, resolution=0)
