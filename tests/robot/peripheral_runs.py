"""Run the gate's peripheral suites with robot against the simulated board (a subprocess, output in a tmp dir) and
read back {test name: (status, message)} from output.xml (names are the criteria's names: unique per suite, and
the peripheral suites' names do not clash)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from robot.api import ExecutionResult

ROOT = Path(__file__).resolve().parents[2]


def run_suites(tmp: Path, board: str, suites: list[str], timeout: float = 400, **variables: str) -> dict:
    out = tmp / "robot"
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    argv = [sys.executable, "-m", "robot", "--outputdir", str(out), "--console", "dotted", "-v", f"BOARD:{board}"]
    for k, v in variables.items():
        argv += ["-v", f"{k}:{v}"]
    for s in suites:
        argv += ["--suite", s]
    argv.append(str(ROOT / "suites"))
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    tests: dict[str, tuple[str, str]] = {}

    def walk(suite) -> None:
        for t in suite.tests:
            assert t.name not in tests, f"two tests named {t.name!r}"
            tests[t.name] = (t.status, t.message)
        for s in suite.suites:
            walk(s)

    walk(ExecutionResult(str(out / "output.xml")).suite)
    return {"tests": tests, "rc": p.returncode, "stdout": p.stdout + p.stderr, "results": tmp / "results"}
