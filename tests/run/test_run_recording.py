"""The recording (perfgate.run.recording) and the `Gate Verdict` test (perfgate.robot.verdict_test): what metrics.json
and run.json say of judged, skipped, stopped and never-reached criteria, the skip reasons in their order, Robot's own
count taken into the verdict. A real run directory (RunRecorder) on the committed am62xx_sk criteria; the suite's
runs are a host `printf` standing in for its workload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfgate.decision.judge import Judge
from perfgate.decision.sequential import RunLength
from perfgate.report.recorder import RunRecorder
from perfgate.robot.verdict_test import VerdictTest
from perfgate.run import plan
from perfgate.run.recording import STOPPED, Recording, outcome, run_length
from perfgate.run.runner import Runner
from perfgate.run.session import Session
from perfgate.workloads.base import Measurements, Workload
from robot import running


class Published(Workload):
    """Measures every criterion at its published value, through one host command kept as evidence."""

    def measure(self, crits, ctx) -> Measurements:
        ctx.run("printf 'ok\\n'", where="host", label="printf")
        return Measurements(values={c.id: c.value for c in crits}, tools=dict.fromkeys((c.id for c in crits), "printf"))


@pytest.fixture
def rec(results: Path, monkeypatch: pytest.MonkeyPatch) -> Recording:
    monkeypatch.setenv("PERFGATE_NO_COLLECT", "1")
    s = Session()
    s.check("am62xx_sk")
    meta = s.start("am62xx_sk", "sim", True)
    s.selected = ["stream", "dhrystone"]
    runner = Runner(s, lambda: None, str)
    r = Recording(s, runner, RunRecorder(s.run_dir, meta))
    r.judge = Judge(s.policy, s.settings.noise, {}, "median")
    monkeypatch.setattr(plan, "workload", lambda suite: Published())
    runner.measure("stream", r.judge)
    return r


def metrics(r: Recording) -> dict[str, dict]:
    return {e["id"]: e for e in json.loads((r.session.run_dir / "metrics.json").read_text(encoding="utf-8"))}


def test_a_judged_criterion_is_recorded_with_its_evidence_samples_and_noise(rec: Recording) -> None:
    result = rec.runner.suites["stream"]
    cid = next(iter(result.criteria))
    o = outcome(result, cid, "fail", {})
    assert o.judgement is not None and not o.skip
    rec.test_ended(cid, o, "PASS", "", "s1-s1-t1", "Suites.Stream.T1")
    e = metrics(rec)[cid]
    runs = len(e["samples"])  # the suite ran until its noisiest criterion was decided, up to REPEAT (3)
    assert e["verdict"] == "pass" and e["measured"] == e["published"] and e["samples"] == [e["published"]] * runs
    assert e["evidence"] == [f"raw/stream/printf-{n}.txt" for n in range(1, runs + 1)]
    assert e["tool"] == "printf" and e["test"] == "s1-s1-t1" and 1 <= runs <= 3
    assert e["noise"]["sd"] > 0 and e["noise"]["source"]


def test_skip_reasons_in_their_order(rec: Recording) -> None:
    result = rec.runner.suites["stream"]
    cid = next(iter(result.criteria))
    result.measured.unavailable[cid] = "`stream` is not on the board"
    assert outcome(result, cid, "fail", {}).skip == ""
    assert outcome(result, cid, "skip", {}).skip.endswith("is not on the board (ON_MISSING_TOOL=skip)")
    waived = outcome(result, cid, "fail", {cid: "board rev A"})
    assert waived.reason == "waived: board rev A" and "variables/waivers.yaml" in waived.skip
    result.measured.skipped[cid] = "needs a display"
    assert outcome(result, cid, "skip", {cid: "x"}).reason == "needs a display"
    result.skip_reason = "no such peripheral"
    assert outcome(result, cid, "skip", {}).reason == "no such peripheral"


def test_an_interrupted_run_records_what_never_ran_and_its_verdict_is_incomplete(rec: Recording) -> None:
    stream = list(rec.runner.suites["stream"].criteria)
    rec.test_ended(stream[0], None, "FAIL", f"{STOPPED[1]}\nSIGTERM", "s1-s1-t1", "Suites.Stream.T1")
    rec.session.signal = "SIGTERM"
    page = rec.finish()
    m = metrics(rec)
    meta = json.loads((rec.session.run_dir / "run.json").read_text(encoding="utf-8"))
    assert meta["status"] == "interrupted" and meta["verdict"] == "incomplete" and Path(page).name == "comparison.html"
    assert stream[0] in meta["never_ran"] and m[stream[0]]["never_ran"] and "never ran" in m[stream[0]]["message"]
    dhry = [c.id for c in rec.session.suite_criteria("dhrystone")]
    assert dhry and all("Robot never reached its suite" in m[cid]["message"] for cid in dhry)


def test_robots_count_changes_the_verdict_after_close(rec: Recording) -> None:
    result = rec.runner.suites["stream"]
    passed = [cid for cid, j in result.judgements.items() if j.verdict == "pass"]  # (some read inconclusive)
    for i, cid in enumerate(passed):
        rec.test_ended(cid, outcome(result, cid, "fail", {}), "PASS", "", f"t{i}", f"T{i}")
    rec.robot_counted({"tests": 1, "passed": 0, "failed": 1, "skipped": 0})  # not closed yet: nothing changes
    assert "robot" not in json.loads((rec.session.run_dir / "run.json").read_text(encoding="utf-8"))
    rec.session.selected = ["stream"]
    rec.finish()
    assert rec.meta["verdict"] == "pass"
    rec.robot_counted({"tests": len(passed) + 1, "passed": len(passed), "failed": 1, "skipped": 0})
    meta = json.loads((rec.session.run_dir / "run.json").read_text(encoding="utf-8"))
    assert meta["robot"]["failed"] == 1 and meta["verdict"] == "fail"


def test_run_length_entry() -> None:
    assert run_length(None) == {}
    entry = run_length(RunLength(ran=60, guide=3600))["run_length"]
    assert entry["short"] and entry["text"] == "ran 60 s of the guide's 3600 s (1 h)"


def test_the_gate_verdict_test_is_there_exactly_while_needed() -> None:
    v = VerdictTest("perfgate.robot.gate.Gate.Something Should Have Been Measured")
    v.sync(True)  # no running top suite yet: nothing to add to
    assert v.test is None
    v.top = running.TestSuite(name="Suites")
    v.sync(True)
    v.sync(True)
    assert [t.name for t in v.top.tests] == ["Gate Verdict"] and v.test.body[0].name == v.keyword
    v.sync(False)
    assert list(v.top.tests) == [] and v.test is None


def test_the_console_says_what_was_checked_tightly_and_what_was_not() -> None:
    """The run ends saying how many criteria were decided at their tolerance, which were held to a wider tolerance
    (LIMITED, with the smallest regression each can detect) and which stayed inconclusive."""
    from perfgate.run.recording import tightness

    entries = [
        {"verdict": "pass", "suite": "stream", "name": "copy"},
        {"verdict": "fail", "suite": "stream", "name": "add"},
        {"verdict": "pass", "suite": "ethernet", "name": "loss 64", "limited": {"detectable_pct": 361.0}},
        {"verdict": "inconclusive", "suite": "ethernet", "name": "udp 1024"},
        {"verdict": "skip", "suite": "display", "name": "fps"},
    ]
    lines = tightness(entries)
    assert lines[0] == "perfgate: checked at their tolerance: 2 of 4 criteria judged"
    assert "LIMITED" in lines[1] and "(ethernet 1)" in lines[1] and "loss 64 361%" in lines[1]
    assert lines[2] == "perfgate: inconclusive (too close to their threshold to tell): 1: udp 1024"
    assert tightness([{"verdict": "skip"}]) == []
    # a LIMITED criterion left inconclusive counts once, never below zero (the count was -1 here before)
    both = [{"verdict": "inconclusive", "suite": "stream", "name": "add", "limited": {"detectable_pct": 46.0}}]
    assert tightness(both)[0] == "perfgate: checked at their tolerance: 0 of 1 criteria judged"
