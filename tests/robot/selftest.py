"""Run the gate's own suites with robot against the simulated board (a subprocess, output in a tmp dir) and read
the per-test statuses and messages back from output.xml."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from robot.api import ExecutionResult

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from seed_releases import seed

ROOT = Path(__file__).resolve().parents[2]
# These self-tests judge a quiet simulated board (values within 2 % of the published ones) against rows whose guide
# prints a min/max wider than their tolerance: the gate, which knows only the guide's noise, cannot decide those in
# REPEAT runs and calls them inconclusive, which is right for it and beside the point here. The sequential verdict
# has its own self-tests (test_sequential_gate.py), with INCONCLUSIVE at its default.
QUIET_SIM = "pass"


def run_gate(tmp: Path, board: str, suites: list[str], timeout: float = 240, options: tuple[str, ...] = (),
             **variables: str) -> dict:  # fmt: skip
    """robot -v BOARD:<board> -s <suite>... suites/ ; returns {"tests": {full name: (status, message)}, "rc",
    "seconds", "stdout", "suites": {suite name: [full test names]}}."""
    out = tmp / "robot"
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    argv = [sys.executable, "-m", "robot", "--outputdir", str(out), "--console", "dotted", "-v", f"BOARD:{board}"]
    if "RELEASE" not in variables and seed(board):  # these self-tests were written for the seed guides' tables
        variables["RELEASE"] = seed(board)
    variables.setdefault("INCONCLUSIVE", QUIET_SIM)
    for k, v in variables.items():
        argv += ["-v", f"{k}:{v}"]
    for s in suites:
        argv += ["--suite", s]
    argv += list(options)
    argv.append(str(ROOT / "suites"))
    started = time.monotonic()
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    seconds = time.monotonic() - started
    result = ExecutionResult(str(out / "output.xml"))
    tests: dict[str, tuple[str, str]] = {}
    by_suite: dict[str, list[str]] = {}

    def walk(suite) -> None:
        for t in suite.tests:
            tests[t.full_name] = (t.status, t.message)
            by_suite.setdefault(suite.name, []).append(t.full_name)
        for s in suite.suites:
            walk(s)

    walk(result.suite)
    return {"tests": tests, "suites": by_suite, "rc": p.returncode, "seconds": seconds,
            "stdout": p.stdout + p.stderr, "results": tmp / "results"}  # fmt: skip
