"""Every criterion of the peripheral suites, for every board that publishes it, is measured by its workload
against a simulated board (tests/peripheral_board.py) and lands within 2 % of the published value; a degraded
criterion moves alone."""

from __future__ import annotations

import pytest

from perfgate import boards
from perfgate.model import Criterion
from perfgate.workloads import low_power
from perfgate.workloads.base import Workload
from perfgate.workloads.peripherals import settings
from peripheral_board import SIM_LAB, BoardContext, board_criteria

SUITES = ["rt_latency", "alsa", "glmark2", "gfxbench", "glbenchmark", "decode", "display", "capture", "low_power"]
CASES = [(b, s) for s in SUITES for b in boards.known() if board_criteria(b, s)]


def workload(suite: str) -> Workload:
    return __import__(f"perfgate.workloads.{suite}", fromlist=["WORKLOAD"]).WORKLOAD


def unmeasured(board: str, suite: str, crits: list[Criterion]) -> set[str]:
    """Criteria no command measures, which must fail as not measured: none (the guides' resume latency is measured
    by the gate's stated method since issue 21)."""
    return set()


def test_resume_latency_is_measured_by_the_stated_method() -> None:
    crits = [c for c in board_criteria("am62axx_sk", "low_power") if "resume" in c.table.lower()]
    assert len(crits) == 3
    s = settings("low_power", boards.profile("am62axx_sk"), dict(SIM_LAB))
    assert all(low_power.is_resume_latency(c, s) for c in crits)
    ctx = BoardContext("am62axx_sk", low_power.WORKLOAD, crits, lab=dict(SIM_LAB))
    m = low_power.WORKLOAD.measure(crits, ctx)
    assert not m.missing and not m.skipped
    assert {m.tools[c.id] for c in crits} == {"resume (rtc-alarm method)"}


def test_there_are_cases() -> None:
    assert len(CASES) >= 15


@pytest.mark.parametrize(("board", "suite"), CASES)
def test_every_criterion_measured_near_published(board: str, suite: str) -> None:
    crits = board_criteria(board, suite)
    w = workload(suite)
    ctx = BoardContext(board, w, crits, lab=dict(SIM_LAB))
    assert w.applicable(crits, ctx.profile, ctx.lab) is None
    m = w.measure(crits, ctx)
    none = unmeasured(board, suite, crits)
    assert set(m.missing) == none and not m.unavailable and not m.skipped
    for c in crits:
        if c.id in none:
            continue
        v = m.values[c.id]
        if c.value == 0:
            assert v == 0, c.id
        else:
            assert abs(v - c.value) / c.value < 0.02, (c.id, v, c.value)


@pytest.mark.parametrize(("board", "suite"), CASES)
def test_degraded_criterion_moves_alone(board: str, suite: str) -> None:
    crits = board_criteria(board, suite)
    none = unmeasured(board, suite, crits)
    crits = [c for c in crits if c.id not in none]
    target = next(c for c in crits if c.value != 0)
    w = workload(suite)
    base = w.measure(crits, BoardContext(board, w, crits, seed=3))
    worse = -0.3 if target.direction != "lower" else 0.3
    m = w.measure(crits, BoardContext(board, w, crits, degrade={target.id: worse}, seed=3))
    assert abs(m.values[target.id] - target.value * (1 + worse)) / target.value < 0.03
    moved = [c.id for c in crits if c.value and abs(m.values[c.id] - base.values[c.id]) / c.value > 0.02]
    if suite in ("rt_latency",) or target.id.endswith("total"):
        assert target.id in moved
    else:
        assert moved == [target.id]
