"""Killing robot (SIGKILL: no teardown runs) halfway through a real simulated run leaves valid metrics.json and
summary.csv with everything judged so far; run.json still says `running` with robot's pid, so every reader sees a
killed run: INCOMPLETE in `perfgate report --history`'s history line and comparison.html, refused by baseline."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perfgate import cli, paths
from perfgate.report import history, rundir

ROOT = paths.root()


def _judged(run_dirs: list[Path]) -> int:
    for d in run_dirs:
        try:
            return len(json.loads((d / "metrics.json").read_text()))
        except (OSError, ValueError):
            return 0
    return 0


@pytest.mark.slow
def test_robot_killed_halfway(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "results"
    env = {**os.environ, "PERFGATE_RESULTS": str(results)}
    fast = [
        "--variable",
        "SIM_SPEED:20",
        "--variable",
        "BOOT_CYCLES:1",
        "--variable",
        "DURATION:1",
        "--variable",
        "INCONCLUSIVE:pass",
    ]  # a quiet sim against wide guide min/max (tests/selftest.py)
    cmd = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--variable", "BOARD:am62xx_sk"]
    cmd += [*fast, str(ROOT / "suites")]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and proc.poll() is None:
            if _judged(sorted((results / "virtual" / "am62xx_sk").glob("2*"))) >= 3:
                break
            time.sleep(0.2)
        assert proc.poll() is None, "robot finished before it could be killed halfway"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    (run,) = sorted((results / "virtual" / "am62xx_sk").glob("2*"))  # a simulated run is filed as virtual
    entries = json.loads((run / "metrics.json").read_text())
    rows = list(csv.DictReader((run / "summary.csv").open()))
    assert len(entries) >= 3 and abs(len(rows) - len(entries)) <= 1
    assert all(e["verdict"] in ("pass", "fail", "warn", "not-measured", "inconclusive", "skip") for e in entries)
    meta = json.loads((run / "run.json").read_text())
    assert meta["finished"] is None and meta["virtual"] is True
    assert (meta["status"], meta["verdict"], meta["pid"]) == ("running", "incomplete", proc.pid)
    assert not (results / "virtual" / "am62xx_sk" / "history.jsonl").exists()
    monkeypatch.setenv("PERFGATE_RESULTS", str(results))
    r = rundir.load(run)
    assert (r.state, r.verdict) == ("killed", "incomplete") and len(r.never_ran()) > 100
    assert cli.main(["report", str(run)]) == 0
    page = (run / "comparison.html").read_text()
    assert 'id="incomplete"' in page and 'id="virtual-banner"' in page and 'id="never-ran"' in page
    assert 'id="gate-verdict">INCOMPLETE<' in page and "killed: its process ended without finishing the run" in page
    assert cli.main(["baseline", str(run), "--board", "am62xx_sk", "--out", str(tmp_path / "b")]) == 2
    assert not (tmp_path / "b").exists()

    # the board's next run files the killed one in the history, as INCOMPLETE (killed)
    nxt = subprocess.run([*cmd[:-1], "--suite", "Suites.System.Stream", cmd[-1]], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert nxt.returncode == 0 and f"an earlier run was killed before it finished: {run}" in nxt.stdout, nxt.stdout
    killed, latest = history.read(results / "virtual" / "am62xx_sk" / "history.jsonl").runs
    assert (killed["run"], killed["status"], killed["verdict"]) == (run.name, "killed", "incomplete")
    assert killed["never_ran"] == len(r.never_ran()) and (latest["status"], latest["verdict"]) == ("finished", "pass")
    assert json.loads((run / "run.json").read_text())["status"] == "killed"
