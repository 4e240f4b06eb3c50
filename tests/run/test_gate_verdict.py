"""The gate's verdict is never green by accident, driven through the real thing: robot runs the gate's own suites on
the simulated board (a real pty and SSH server) and is stopped the ways a user stops it (Ctrl-C: SIGINT to its
process group; SIGTERM), or runs in a lab where nothing can be measured. Then run.json, metrics.json, the history,
comparison.html and the console are read back: never PASS. (A SIGKILLed robot:
tests/report/test_report_killed_robot.py.)
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from perfgate import criteria, paths
from perfgate.report import history, rundir

ROOT = paths.root()
BOARD = "am62xx_sk"
# INCONCLUSIVE:pass: a quiet sim against rows whose guide prints a wide min/max (see tests/selftest.py)
FAST = ["-v", "SIM_SPEED:20", "-v", "BOOT_CYCLES:1", "-v", "DURATION:1", "-v", "INCONCLUSIVE:pass"]


def _robot(tmp: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "robot", "--outputdir", str(tmp / "out"), "--console", "dotted",
            "-v", f"BOARD:{BOARD}", *FAST, *args, str(ROOT / "suites")]  # fmt: skip


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PERFGATE_NO_COLLECT": "1"}


def _run_dir(tmp: Path) -> Path:
    (run,) = sorted((tmp / "results" / "virtual" / BOARD).glob("2*"))  # a simulated run is filed as virtual
    return run


def _judged(tmp: Path) -> int:
    try:
        return len(json.loads((_run_dir(tmp) / "metrics.json").read_text()))
    except (OSError, ValueError):
        return 0


def _history(tmp: Path) -> dict:
    (rec,) = history.read(tmp / "results" / "virtual" / BOARD / "history.jsonl").runs
    return rec


def _verdict_on_page(run: Path) -> str:
    m = re.search(r'id="gate-verdict">(\w+)<', (run / "comparison.html").read_text())
    assert m, "comparison.html shows no gate verdict"
    return m.group(1)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_run_stopped_halfway_is_incomplete_everywhere(tmp_path: Path, how: str) -> None:
    """Ctrl-C (SIGINT to robot's process group) or SIGTERM once 30 criteria are judged: robot runs its teardown, and
    every record of the run says INCOMPLETE, with the criteria that never ran; none says pass."""
    log = (tmp_path / "console.txt").open("w")
    proc = subprocess.Popen(_robot(tmp_path), env=_env(tmp_path), cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while _judged(tmp_path) < 30:
            assert proc.poll() is None, "robot finished before it could be stopped halfway"
            assert time.monotonic() < deadline, "robot judged fewer than 30 criteria in 300 s"
            time.sleep(0.1)
        if how == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        else:
            proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()
    console = (tmp_path / "console.txt").read_text()
    assert rc != 0, console[-2000:]
    run = _run_dir(tmp_path)
    meta = json.loads((run / "run.json").read_text())
    entries = json.loads((run / "metrics.json").read_text())
    total = sum(len(criteria.read(run / "criteria" / f"{suite}.csv")) for suite in meta["suites"])
    judged = [e for e in entries if e["verdict"] in ("pass", "warn", "fail") and not e.get("never_ran")]
    assert 30 <= len(judged) < total
    assert (meta["status"], meta["verdict"], meta["signal"]) == ("interrupted", "incomplete", how)
    assert meta["verdict_reason"].startswith(f"did not finish (interrupted by {how}): {len(judged)} criteria judged")
    never = set(meta["never_ran"])
    assert len(never) == total - len(judged) and not never & {e["id"] for e in judged}
    stopped = [e for e in entries if e.get("never_ran")]
    assert stopped and {e["verdict"] for e in stopped} == {"not-measured"}
    assert {e["id"] for e in stopped} == never  # metrics.json too, even a suite Robot never reached
    assert all(e["message"].startswith(f"never ran: interrupted by {how}") for e in stopped), stopped[0]["message"]
    rec = _history(tmp_path)
    assert (rec["status"], rec["verdict"], rec["never_ran"]) == ("interrupted", "incomplete", len(never))
    page = (run / "comparison.html").read_text()
    assert _verdict_on_page(run) == "INCOMPLETE" and 'id="incomplete"' in page and 'id="never-ran"' in page
    assert f"interrupted by {how}" in page and 'id="virtual-banner"' in page
    assert 'id="unjudged"' not in page  # the tests Robot never ran are the never-ran list, not setup errors
    assert f"perfgate: verdict INCOMPLETE: did not finish (interrupted by {how})" in console
    assert "perfgate: never ran: " in console and "verdict PASS" not in console
    assert rundir.load(run).verdict == "incomplete"


def _bare_lab(tmp: Path) -> Path:
    """The simulated board in a lab that wires up nothing: no peripherals, no storage, no power meter."""
    lab = yaml.safe_load((paths.labs() / "sim.yaml").read_text())
    lab.update(name="bare", has=[], storage={}, power_meter=None)
    path = tmp / "bare.yaml"
    path.write_text(yaml.safe_dump(lab))
    return path


@pytest.mark.slow
def test_a_run_that_measured_nothing_fails(tmp_path: Path) -> None:
    """Every criterion skipped (the storage chapter in a lab that names no storage): the run fails, in Robot's exit
    status (a `Gate Verdict` test), run.json, the history, comparison.html and the console, with the skip reasons
    grouped."""
    p = subprocess.run(_robot(tmp_path, "--suite", "Suites.Storage", "-v", f"LAB:{_bare_lab(tmp_path)}"),
                       env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 1, p.stdout[-3000:]
    run = _run_dir(tmp_path)
    entries = json.loads((run / "metrics.json").read_text())
    assert entries and {e["verdict"] for e in entries} == {"skip"}
    meta = json.loads((run / "run.json").read_text())
    n = len(entries)
    assert (meta["status"], meta["verdict"]) == ("finished", "fail")
    assert meta["verdict_reason"].startswith(f"nothing was measured: {n} of {n} criteria skipped (")
    assert re.search(r"\(\d+ × lab 'bare' names no \w+ or \w+ under storage", meta["verdict_reason"])
    assert meta["robot"] == {"tests": n + 1, "passed": 0, "failed": 1, "skipped": n}
    assert _history(tmp_path)["verdict"] == "fail" and _verdict_on_page(run) == "FAIL"
    assert "nothing was measured" in (run / "comparison.html").read_text()
    assert f"perfgate: verdict FAIL: nothing was measured: {n} of {n} criteria skipped" in p.stdout
    assert re.search(r"FAIL: am62xx_sk\.Gate Verdict\s+nothing was measured", p.stdout), p.stdout[-2000:]


@pytest.mark.slow
def test_a_run_that_measured_something_gets_no_gate_verdict_test(tmp_path: Path) -> None:
    """The `Gate Verdict` test appears only when nothing was judged: a healthy run is exactly its criteria."""
    p = subprocess.run(_robot(tmp_path, "--suite", "Suites.System.Stream"), env=_env(tmp_path), cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stdout[-3000:]
    meta = json.loads((_run_dir(tmp_path) / "run.json").read_text())
    assert (meta["status"], meta["verdict"], meta["robot"]["tests"]) == ("finished", "pass", 4)
    assert "Gate Verdict" not in p.stdout and "perfgate: verdict PASS: 4 criteria judged, none failed" in p.stdout
