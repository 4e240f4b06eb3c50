"""RFC 2544 section 26.1 throughput: the highest offered rate at which the device loses no frame.

A binary search over the offered rate. Each trial offers one rate for the trial's duration and reports the loss;
the caller's trial function does the sending (netperf -b/-w, iperf3 -b) and this module decides the next rate.

The search is geometric (it bisects log(rate)), because the rates to find span four decades (1 Mbit/s for 64-byte
frames on a slow board, 957 Mbit/s for 1518-byte frames on gigabit): the first trial is the line rate; when it
loses, the search brackets the answer between `min_rate` (assumed loss-free until tried) and the lowest lossy
rate, and stops when the bracket is narrower than `resolution` (relative: highest lossy / highest loss-free - 1)
or after `max_trials`. Trials needed for a converged search:

    1 + ceil(log2(ln(line_rate / min_rate) / ln(1 + resolution)))      (+1 when the answer is below min_rate)

e.g. 1 + ceil(log2(ln(1000 / 0.1) / ln(1.01))) = 1 + 10 = 11 trials at 1 % between 0.1 and 1000 Mbit/s.
A trial function may offer a slightly different rate than asked (netperf's burst is a whole number of datagrams):
the search keeps the rate actually offered, and stops when quantisation leaves nothing between the bounds (that
costs at most one trial more than the bound, when one rate step is coarser than the resolution: 18-byte datagrams
in 10 ms bursts step by 0.0144 Mbit/s, 1.4 % of a 1 Mbit/s answer).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Settings:
    line_rate: float  # the first (highest) offered rate, Mbit/s
    min_rate: float = 0.1  # the lowest rate the search goes down to, Mbit/s
    resolution: float = 0.01  # relative width of the final bracket
    max_trials: int = 16
    loss_threshold: float = 0.0  # loss (%) that still counts as "no loss"

    def __post_init__(self) -> None:
        if not (0 < self.min_rate < self.line_rate):
            raise ValueError(f"RFC 2544 search needs 0 < min_rate < line_rate (got {self.min_rate}, {self.line_rate})")
        if self.resolution <= 0 or self.max_trials < 1:
            raise ValueError("RFC 2544 search needs resolution > 0 and max_trials >= 1")

    @classmethod
    def from_data(cls, data: dict) -> Settings:
        return cls(
            line_rate=float(data["line_rate"]),
            min_rate=float(data.get("min_rate", 0.1)),
            resolution=float(data.get("resolution", 0.01)),
            max_trials=int(data.get("max_trials", 16)),
            loss_threshold=float(data.get("loss_threshold", 0.0)),
        )

    def bound(self) -> int:
        """Trials a converged search needs at most (without a final trial at min_rate)."""
        return 1 + math.ceil(math.log2(math.log(self.line_rate / self.min_rate) / math.log(1 + self.resolution)))


@dataclass
class Trial:
    asked: float  # rate asked for, Mbit/s
    offered: float  # rate actually offered, Mbit/s
    loss: float  # %
    result: Any = None  # whatever the trial function returned with it (parsed metrics)


@dataclass
class Result:
    rate: float | None  # highest offered rate without loss; None when even min_rate lost
    best: Trial | None  # the trial at that rate
    trials: list[Trial] = field(default_factory=list)
    converged: bool = False
    reason: str = ""


TrialFunction = Callable[[float], tuple[float, float, Any]]  # asked rate -> (offered rate, loss %, result)


def search(trial: TrialFunction, settings: Settings) -> Result:
    """Find the highest loss-free rate; `trial(rate)` runs one trial and returns (offered, loss %, result)."""
    res = Result(rate=None, best=None)
    good: Trial | None = None  # highest loss-free trial so far
    bad_rate: float | None = None  # lowest lossy offered rate so far

    def run(rate: float) -> Trial:
        offered, loss, result = trial(rate)
        t = Trial(rate, float(offered), float(loss), result)
        res.trials.append(t)
        return t

    first = run(settings.line_rate)
    if first.loss <= settings.loss_threshold:
        return _done(res, first, True, f"no loss at the line rate {first.offered:g} Mbit/s")
    bad_rate = first.offered
    while len(res.trials) < settings.max_trials:
        low = good.offered if good else settings.min_rate
        if good and bad_rate / good.offered - 1 <= settings.resolution:
            return _done(
                res, good, True, f"bracket {good.offered:g}..{bad_rate:g} Mbit/s within {settings.resolution:.2%}"
            )
        if not good and bad_rate / settings.min_rate - 1 <= settings.resolution:
            t = run(settings.min_rate)  # the answer is at or below min_rate: check min_rate itself
            if t.loss <= settings.loss_threshold:
                return _done(res, t, True, f"only the lowest rate {t.offered:g} Mbit/s is loss-free")
            return _done(res, None, True, f"loss even at the lowest rate {t.offered:g} Mbit/s")
        t = run(math.sqrt(low * bad_rate))
        if (good and t.offered <= good.offered) or t.offered >= bad_rate:
            # the trial function cannot offer anything between the bounds (quantised rates)
            if t.loss <= settings.loss_threshold and (not good or t.offered > good.offered):
                good = t
            return _done(res, good, True, "the offered rate cannot be set finer between the bounds")
        if t.loss <= settings.loss_threshold:
            good = t
        else:
            bad_rate = t.offered
    if good and bad_rate / good.offered - 1 <= settings.resolution:
        return _done(res, good, True, _within(good, bad_rate, settings))
    bracket = f"{good.offered:g}..{bad_rate:g}" if good else f"<{bad_rate:g}"
    return _done(res, good, False, f"stopped after {settings.max_trials} trials, bracket {bracket} Mbit/s")


def _within(good: Trial, bad_rate: float, settings: Settings) -> str:
    return f"bracket {good.offered:g}..{bad_rate:g} Mbit/s within {settings.resolution:.2%}"


def _done(res: Result, best: Trial | None, converged: bool, reason: str) -> Result:
    res.best = best
    res.rate = best.offered if best else None
    res.converged = converged
    res.reason = reason
    return res
