"""RunRecorder: run.json at once, metrics.json and summary.csv after every criterion, valid after a SIGKILL."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perfgate.errors import DataError
from perfgate.report import history, sample
from perfgate.report.metrics import FIELDS, robot_test, summary_csv
from perfgate.report.recorder import RunRecorder
from testpaths import FIXTURES

CRITERIA = FIXTURES / "report" / "am62xx_sk-criteria.json"
META = {"board": "am62xx_sk", "lab": "sim", "virtual": True, "guide": "linux-10.00-am62x.rst", "release": "10.00"}


@pytest.fixture(scope="module")
def criteria() -> list[dict]:
    return json.loads(CRITERIA.read_text(encoding="utf-8"))


def _entry(i: int, verdict: str = "pass", measured: float | None = 10.0) -> dict:
    return {
        "id": f"am62xx_sk.stream.t.row{i}.m", "name": f"row{i}", "board": "am62xx_sk", "suite": "stream",
        "chapter": "system", "unit": "MB/s", "measured": measured, "published": 10.0, "direction": "higher",
        "tolerance": 0.1, "delta_pct": 0.0, "verdict": verdict, "test": f"s1-s1-t{i}", "evidence": ["raw/x.txt"],
    }  # fmt: skip


def test_run_json_is_written_at_once(tmp_path: Path) -> None:
    RunRecorder(tmp_path / "run", META)
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["board"] == "am62xx_sk" and meta["virtual"] is True
    assert meta["started"] and meta["finished"] is None and meta["run"] == "run"
    assert not (tmp_path / "run" / "metrics.json").exists()


def test_each_record_rewrites_metrics_and_summary(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    for i in range(3):
        rec.record(_entry(i))
        entries = json.loads((tmp_path / "metrics.json").read_text())
        assert [e["id"] for e in entries] == [f"am62xx_sk.stream.t.row{j}.m" for j in range(i + 1)]
        rows = list(csv.DictReader((tmp_path / "summary.csv").open()))
        assert len(rows) == i + 1
    assert list(entries[0])[: len(FIELDS)] == FIELDS
    assert rows[0]["verdict"] == "pass" and rows[0]["measured"] == "10.0"
    assert not list(tmp_path.glob(".*.tmp")), "temporary files left behind"


def test_a_rerecorded_criterion_replaces_the_first(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    rec.record(_entry(1, "fail", 5.0))
    rec.record(_entry(2))
    rec.record(_entry(1, "pass", 10.0))
    entries = json.loads((tmp_path / "metrics.json").read_text())
    assert [(e["name"], e["verdict"]) for e in entries] == [("row1", "pass"), ("row2", "pass")]


def test_bad_entries_are_refused(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    with pytest.raises(DataError, match="verdict 'passed'"):
        rec.record(_entry(1, "passed"))
    with pytest.raises(DataError, match="needs an id"):
        rec.record({"verdict": "pass"})


def test_non_finite_numbers_become_null(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    rec.record(_entry(1, "not-measured", math.nan))
    text = (tmp_path / "metrics.json").read_text()
    assert "NaN" not in text and json.loads(text)[0]["measured"] is None


def test_test_reference_forms() -> None:
    assert robot_test({"test": "s1-s2-t3", "test_name": "Suites.Stream.Copy"}) == ("s1-s2-t3", "Suites.Stream.Copy")
    assert robot_test({"test": {"id": "s1-t1", "longname": "A.B"}}) == ("s1-t1", "A.B")
    assert robot_test({"test": "Suites.X"}) == (None, "Suites.X")
    assert robot_test({}) == (None, None)


def test_summary_csv_flattens_lists() -> None:
    text = summary_csv([{**_entry(1), "name": 'a "quoted", name'}])
    row = next(csv.DictReader(text.splitlines()))
    assert row["name"] == 'a "quoted", name' and row["test"] == "s1-s1-t1"


def test_finish_completes_run_json_builds_the_page_and_history(tmp_path: Path, criteria: list[dict]) -> None:
    run_dir = tmp_path / "am62xx_sk" / "20261122-080000"
    rec = sample.record_run(run_dir, criteria[:40], META, finish=False)
    page = rec.finish({"note": "x"})
    meta = json.loads((run_dir / "run.json").read_text())
    assert meta["finished"] and meta["note"] == "x"
    assert sum(meta["counts"].values()) == 40
    assert meta["verdict"] == ("fail" if meta["counts"]["fail"] + meta["counts"]["not-measured"] else "pass")
    assert page == run_dir / "comparison.html" and page.stat().st_size > 10_000
    h = history.read(tmp_path / "am62xx_sk" / "history.jsonl")
    assert [r["run"] for r in h.runs] == ["20261122-080000"] and len(h.runs[0]["metrics"]) == 40


WRITER = r"""
import json, sys
from pathlib import Path
from perfgate.report import sample
from perfgate.report.recorder import RunRecorder
criteria = json.loads(Path(sys.argv[2]).read_text())
rec = RunRecorder(Path(sys.argv[1]), {"board": "am62xx_sk", "lab": "sim", "virtual": True})
for i, e in enumerate(sample.entries(criteria * 20)):
    e["id"] = f"{e['id']}.{i}"
    rec.record(e)
    print(i, flush=True)
"""


@pytest.mark.parametrize("after", [5, 60, 200])
def test_a_run_killed_at_any_moment_leaves_valid_files(tmp_path: Path, after: int) -> None:
    """A real writer process, SIGKILLed while it records as fast as it can: both files parse and agree."""
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), str(CRITERIA)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    done = -1
    while done < after and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        done = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert done >= after, "the writer did not get far enough"
    entries = json.loads((tmp_path / "metrics.json").read_text())
    rows = list(csv.DictReader((tmp_path / "summary.csv").open()))
    assert len(entries) >= done + 1, "a criterion reported as recorded is missing"
    assert abs(len(rows) - len(entries)) <= 1  # the kill may fall between the two files' replacement
    assert all(e["verdict"] for e in entries)
    assert json.loads((tmp_path / "run.json").read_text())["finished"] is None


@pytest.mark.parametrize(
    ("verdicts", "robot_failed", "state", "expected"),
    [
        ([], 0, "finished", "fail"),  # nothing recorded
        (["skip", "skip"], 0, "finished", "fail"),  # nothing measured
        (["pass", "skip"], 0, "finished", "pass"),
        (["warn"], 0, "finished", "pass"),
        (["pass", "not-measured"], 0, "finished", "fail"),
        (["pass", "fail", "skip"], 0, "finished", "fail"),
        (["pass", "inconclusive"], 0, "finished", "fail"),  # a verdict the gate does not know never passes
        (["pass"], 1, "finished", "fail"),  # Robot failed a test that judged no criterion
        (["pass", "pass"], 0, "interrupted", "incomplete"),
        (["pass"], 0, "killed", "incomplete"),
        ([], 0, "running", "incomplete"),
    ],
)
def test_gate_verdict_is_never_green_by_accident(verdicts, robot_failed, state, expected) -> None:
    from perfgate.report.metrics import gate_verdict

    assert gate_verdict([{"verdict": v} for v in verdicts], robot_failed, state) == expected


def test_run_state_read_back() -> None:
    import socket

    from perfgate.procs import start_time
    from perfgate.report.metrics import run_state, run_verdict

    me = {
        "status": "running",
        "pid": os.getpid(),
        "pid_started": start_time(os.getpid()),
        "host": socket.gethostname(),
    }
    assert run_state(me) == "running"
    assert run_state({**me, "pid_started": "1"}) == "killed"  # the pid now belongs to another process
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert run_state({**me, "pid": int(gone.stdout), "pid_started": None}) == "killed"
    assert run_state({**me, "host": "another-machine"}) == "running"  # cannot tell: incomplete either way
    assert run_state({"finished": "2026-01-01T00:00:00+00:00"}) == "finished"  # written before run.json had status
    assert run_state({}) == "killed"
    assert run_state({"status": "interrupted"}) == "interrupted"
    assert run_verdict({"status": "interrupted"}, [{"verdict": "pass"}]) == "incomplete"
    assert run_verdict({"status": "finished", "robot": {"failed": 2}}, [{"verdict": "pass"}]) == "fail"
