"""The judge (perfgate.decision.judge): a whole suite's state in, the criteria whose commands run again or the final
judgement of each out. Criteria are constructed, value 100 with a guide spread (min 98, max 102: about a 2 % sd,
class memory-bandwidth), their tolerance the committed variables/tolerances.yaml default (10 %); a fresh judge per
test (a suite's decisions are kept, final, across its rounds)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from perfgate.decision import budget, sequential
from perfgate.decision.judge import Judge, SuiteState
from perfgate.decision.suite_decision import Command
from perfgate.decision.tolerance import Policy
from perfgate.decision.verdict import FAIL, NOT_MEASURED, PASS, WARN
from perfgate.model import Criterion
from perfgate.workloads.base import Measurements


def crit(row: str, direction: str = "higher", spread: float = 2.0, suite: str = "stream", metric: str = "m",
         value: float = 100.0) -> Criterion:  # fmt: skip
    return Criterion(
        id=f"b.{suite}.t.{row}.m", name=row, board="b", guide="g.rst", release="1", chapter="system", suite=suite,
        table="t", row=row, metric=metric, unit="MB/s", value=value, min=value - spread, max=value + spread,
        direction=direction,
    )  # fmt: skip


@pytest.fixture
def judge() -> Judge:
    return Judge(Policy.load(), sequential.load(), {}, "median", budget.load(), judged=600)


def state(samples: dict[str, list[float]], *crits: Criterion, more: bool, measured: Measurements | None = None,
          commands: list[Command] | None = None) -> SuiteState:  # fmt: skip
    return SuiteState({c.id: c for c in crits}, samples, measured or Measurements(), more, commands or [])


def test_a_clear_pass_is_decided_after_one_run_a_fail_needs_the_boards_noise(judge: Judge) -> None:
    """101 against a threshold of 90 passes on the first run (the class prior decides it); 50 is far on the failing
    side, but a FAIL rests on noise the board showed, so its command runs once more before it fails."""
    good, bad = crit("good"), crit("bad")
    d = judge.decide(state({good.id: [101.0], bad.id: [50.0]}, good, bad, more=True))
    assert not d.final and bad.id in d.undecided
    assert judge.final(good.id) is not None and judge.final(good.id).decision.verdict == PASS
    d = judge.decide(state({good.id: [101.0, 100.0], bad.id: [50.0, 51.0]}, good, bad, more=True))
    assert d.final and d.undecided == []
    assert d.judgements[good.id].verdict == PASS and d.judgements[bad.id].verdict == FAIL
    assert d.measured is not None and d.measured.values == {good.id: 100.5, bad.id: 50.5}


def test_only_the_undecided_criteria_command_runs_again(judge: Judge) -> None:
    a, b, edge = crit("a"), crit("b"), crit("edge")
    cmds = [Command("one", 10.0, (a.id, b.id)), Command("two", 10.0, (edge.id,))]
    d = judge.decide(state({a.id: [101.0], b.id: [99.0], edge.id: [91.0]}, a, b, edge, more=True, commands=cmds))
    assert d.undecided == [edge.id]


def test_a_value_at_its_threshold_runs_again_then_is_inconclusive(judge: Judge) -> None:
    """90 is exactly the 10 % threshold of 100: while runs may follow it is undecided (and nothing is judged yet);
    when no run may follow it is inconclusive, the reason saying so."""
    edge, good = crit("edge"), crit("good")
    samples = {edge.id: [90.0], good.id: [101.0]}
    d = judge.decide(state(samples, edge, good, more=True))
    assert edge.id in d.undecided and not d.final and d.judgements == {} and d.measured is None
    last = judge.decide(state(samples, edge, good, more=False))
    assert last.final and last.judgements[edge.id].verdict == sequential.INCONCLUSIVE
    assert "INCONCLUSIVE: undecided after 1 run" in last.judgements[edge.id].message
    assert last.judgements[good.id].verdict == PASS


def test_a_lost_run_is_not_repeated_and_its_criteria_are_not_measured(judge: Judge) -> None:
    edge, lost = crit("edge"), crit("lost")
    m = Measurements(missing={lost.id: "run 1: the board stopped answering"})
    d = judge.decide(state({edge.id: [90.0]}, edge, lost, more=True, measured=m))
    assert d.final
    assert d.judgements[lost.id].verdict == NOT_MEASURED
    assert "run 1: the board stopped answering" in d.judgements[lost.id].message
    nothing = judge.decide(state({}, crit("quiet"), more=False))
    assert "the workload produced no value for it" in nothing.judgements[crit("quiet").id].message


def test_the_samples_aggregate_into_the_judged_value_and_the_state_is_left_as_the_runs_left_it() -> None:
    up, match = crit("up"), crit("clock", direction="match")
    m = Measurements(unavailable={up.id: "`stream` is not on the board"}, missing={up.id: "run 1: lost"})
    samples = {up.id: [95.0, 130.0, 101.0], match.id: [99.0, 100.0, 120.0]}
    both = state(samples, up, match, more=False, measured=m)
    median = Judge(Policy.load(), sequential.load(), {}, "median").decide(both)
    best = Judge(Policy.load(), sequential.load(), {}, "best").decide(both)
    assert median.measured is not None and best.measured is not None
    assert median.measured.values == {up.id: 101.0, match.id: 100.0}
    assert best.measured.values == {up.id: 130.0, match.id: 100.0}  # a matched value is the median even then
    assert best.judgements[up.id].verdict == WARN  # 30 % better than published
    assert up.id not in median.measured.missing and up.id not in median.measured.unavailable
    assert m.values == {} and up.id in m.missing and up.id in m.unavailable


def test_a_short_tail_run_on_the_passing_side_is_not_run_again_and_cannot_pass(judge: Judge) -> None:
    rt = crit("max", direction="lower")
    short = Measurements(lengths={rt.id: sequential.RunLength(ran=60, guide=3600)})
    d = judge.decide(state({rt.id: [109.0]}, rt, more=True, measured=short))  # near its 110 threshold
    assert d.final and d.judgements[rt.id].verdict == sequential.INCONCLUSIVE
    assert "ran 60 s of the guide's 3600 s (1 h)" in d.judgements[rt.id].message
    full = Measurements(lengths={rt.id: sequential.RunLength(ran=3600, guide=3600)})
    assert Judge(Policy.load(), sequential.load()).decide(state({rt.id: [109.0]}, rt, more=True,
                                                                measured=full)).undecided == [rt.id]  # fmt: skip


def test_priors_and_what_the_budget_cannot_decide(judge: Judge) -> None:
    """The guide's spread, read as the range of its runs (range / d2(N), 4 runs assumed where its cells do not tell),
    is the prior's shape and, where the suite cannot pool, its fallback; a packet loss (its class: 35 % of noise, 30 %
    of it between boots, against a 25 % tolerance) cannot be decided even in 20 runs over the budget's boots; the
    metrics.json entry says the noise a decision used."""
    narrow = crit("narrow")
    p = judge.prior(narrow)
    assert p.shape == pytest.approx(4 / (2.059 * 100)) and p.source == "guide min/max (4 runs assumed)"
    assert p.fallback == pytest.approx(p.shape) and p.between == pytest.approx(0.9)  # class memory-bandwidth
    assert judge.prior(narrow, 4).fallback == pytest.approx(p.shape / 2)  # each value the mean of 4 runs
    loss = replace(crit("loss", direction="lower", metric="packet loss"), min=None, max=None)
    assert judge.undecidable(loss, 3) and judge.undecidable(loss, 20)
    assert not judge.undecidable(narrow, 3)
    judge.decide(state({narrow.id: [101.0]}, narrow, more=False))
    entry = judge.noise_entry(narrow.id)
    assert entry["noise"]["source"].startswith("guide min/max (4 runs assumed)") and entry["noise"]["runs"] == 1


def test_a_suite_measured_again_starts_afresh(judge: Judge) -> None:
    """A decision is final within a suite's measurement; a second `Measure Suite` of the same suite in one run starts
    from nothing (its earlier PASS does not hide a value now at the threshold)."""
    c = crit("again")
    assert judge.decide(state({c.id: [101.0]}, c, more=True)).judgements[c.id].verdict == PASS
    judge.begin({c.id: c})
    d = judge.decide(state({c.id: [90.0]}, c, more=True))
    assert not d.final and c.id in d.undecided
