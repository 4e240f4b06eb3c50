"""The runner (perfgate.run.runner): a suite's workload run once, or again while the judge says a criterion is
undecided, up to REPEAT; every command's output kept verbatim in raw/<suite>/ with an index; a missing program on
the shell is ToolMissing; a run that loses the board is not repeated. The commands run on this host's real shell
(`where="host"`); the workloads are small ones defined here, standing in for a suite's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from perfgate import criteria
from perfgate.decision.judge import Judge
from perfgate.decision.verdict import NOT_MEASURED
from perfgate.errors import BoardLost, ToolMissing
from perfgate.run import plan
from perfgate.run.runner import Context, Runner, not_found, safe
from perfgate.run.session import Session
from perfgate.workloads.base import Measurements, Workload


class Printf(Workload):
    """Prints one value per run on the host (each run the next of `values`, as a factor of the published value)
    and reads it back."""

    def __init__(self, values: list[float], lose_board: bool = False, skip: str | None = None) -> None:
        self.values, self.lose_board, self.skip, self.runs = values, lose_board, skip, 0

    def applicable(self, crits, profile, lab) -> str | None:
        return self.skip

    def measure(self, crits, ctx) -> Measurements:
        factor = self.values[self.runs]
        self.runs += 1
        if self.lose_board:
            raise BoardLost("the board stopped answering")
        out = {}
        for c in crits:
            text = ctx.run(f"printf 'value %s\\n' {c.value * factor!r}", where="host", label="printf out")
            out[c.id] = float(text.split()[1])
        return Measurements(values=out, tools=dict.fromkeys(out, "printf"))


@pytest.fixture
def opened(results: Path) -> tuple[Session, Judge]:
    s = Session(var=lambda name, default=None: {"REPEAT": "3"}.get(name, default))
    s.check("am62xx_sk")
    s.start("am62xx_sk", "sim", True)
    one = s.suite_criteria("stream")[0]
    # one criterion, so that each run is one command; its published spread narrow (1 %), so that its budget can hold
    # it to its own tolerance (the guide's 22 % would make it LIMITED: tests/decision/test_noise_realistic.py)
    one = replace(one, min=one.value * 0.99, max=one.value * 1.01)
    criteria.write(s.criteria_dir / "stream.csv", [one])
    return s, s.judge()


def runner(s: Session, monkeypatch: pytest.MonkeyPatch, workload: Workload) -> Runner:
    monkeypatch.setattr(plan, "workload", lambda suite: workload)
    return Runner(s, access=lambda: None, link=lambda path: Path(path).name)


def test_a_clear_value_runs_once_and_its_output_is_kept(opened, monkeypatch) -> None:
    s, judge = opened
    w = Printf([2.0, 2.0, 2.0])
    result = runner(s, monkeypatch, w).measure("stream", judge)
    (cid,) = result.criteria
    assert w.runs == 1 and len(result.samples[cid]) == 1
    assert result.judgements[cid].passed and result.measured.values[cid] == result.samples[cid][0]
    raw = s.run_dir / "raw" / "stream"
    assert (raw / "printf_out-1.txt").read_text() == f"value {result.samples[cid][0]!r}\n"
    name, where, seconds, command = (raw / "index.tsv").read_text().rstrip("\n").split("\t")
    assert (name, where) == ("printf_out-1.txt", "host") and float(seconds) >= 0 and command.startswith("printf")
    assert result.evidence[cid] == [str(raw / "printf_out-1.txt")]


def test_a_value_on_its_threshold_runs_again_up_to_repeat(opened, monkeypatch) -> None:
    """REPEAT:3 caps the runs its budget would give this command (a stream run: 4)."""
    s, judge = opened
    (c,) = s.suite_criteria("stream")
    tol = s.policy.for_criterion(c)
    edge = 1 - tol.relative if c.direction == "higher" else 1 + tol.relative
    w = Printf([edge, edge, edge])
    result = runner(s, monkeypatch, w).measure("stream", judge)
    assert w.runs == 3 and len(result.samples[c.id]) == 3 and len(result.evidence[c.id]) == 3
    assert result.judgements[c.id].verdict == "inconclusive"


def test_a_run_that_loses_the_board_is_not_repeated(opened, monkeypatch) -> None:
    s, judge = opened
    w = Printf([1.0, 1.0, 1.0], lose_board=True)
    result = runner(s, monkeypatch, w).measure("stream", judge)
    (cid,) = result.criteria
    assert w.runs == 1 and result.judgements[cid].verdict == NOT_MEASURED
    assert "run 1: the board stopped answering" in result.judgements[cid].message


def test_a_suite_that_cannot_run_here_is_skipped_and_one_without_workload_is_not_measured(opened, monkeypatch):
    s, judge = opened
    skipped = runner(s, monkeypatch, Printf([1.0], skip="no display")).measure("stream", judge)
    assert skipped.skip_reason == "no display" and skipped.judgements == {}
    (c,) = s.suite_criteria("stream")
    monkeypatch.undo()  # the real workload lookup again
    criteria.write(s.criteria_dir / "nosuch.csv", [replace(c, id="b.nosuch.t.r.m", suite="nosuch")])
    none = Runner(s, lambda: None, str).measure("nosuch", judge)
    (j,) = none.judgements.values()
    assert j.verdict == NOT_MEASURED and "perfgate has no workload for suite 'nosuch'" in j.message
    assert Runner(s, lambda: None, str).measure("glmark2_absent", judge).criteria == {}  # no criteria file


def test_a_program_missing_on_the_shell_is_tool_missing_with_its_output_kept(opened) -> None:
    s, _ = opened
    ctx = Context(Runner(s, lambda: None, str), "stream")
    assert (ctx.board, ctx.repeat, ctx.virtual) == ("am62xx_sk", 3, True)
    with pytest.raises(ToolMissing, match=r"`perfgate-no-such-tool` is not on the board .*not found"):
        ctx.run("perfgate-no-such-tool --version", where="host")
    assert ctx.last_evidence.endswith("output-1.txt") and "not found" in Path(ctx.last_evidence).read_text()


def test_not_found_lines_and_safe_labels() -> None:
    assert not_found("a\nb\nsh: 1: fio: not found\n") == "sh: 1: fio: not found"
    assert not_found("bash: fio: command not found") == "bash: fio: command not found"
    assert not_found("fio-3.33\n") == ""
    assert safe("cyclictest -m /tmp") == "cyclictest_-m__tmp" and safe("") == "output" and len(safe("x" * 99)) == 80
