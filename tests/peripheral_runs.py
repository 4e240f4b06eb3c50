"""Run the gate's peripheral suites with robot against the simulated board (selftest.run_gate: a subprocess, output
in a tmp dir) and key the tests by their own names (the criteria's names: unique per suite, and the peripheral
suites' names do not clash)."""

from __future__ import annotations

from pathlib import Path

from robot.api import ExecutionResult

from selftest import ROOT, run_gate

__all__ = ["ROOT", "run_suites"]


def run_suites(tmp: Path, board: str, suites: list[str], timeout: float = 400, **variables: str) -> dict:
    """run_gate's result, with "tests" as {test name: (status, message)}."""
    run = run_gate(tmp, board, suites, timeout=timeout, **variables)
    tests: dict[str, tuple[str, str]] = {}
    for t in ExecutionResult(str(tmp / "robot" / "output.xml")).suite.all_tests:
        assert t.name not in tests, f"two tests named {t.name!r}"
        tests[t.name] = (t.status, t.message)
    return {**run, "tests": tests}
