"""The project's own style checks: ruff on the Python package and tests, robocop on the suites and resources."""

from __future__ import annotations

import re
import subprocess
import sys

from testpaths import ROOT


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    p = _run(sys.executable, "-m", "ruff", "check", "libraries", "tests", "benchmarks")
    assert p.returncode == 0, p.stdout + p.stderr


def test_robocop_clean() -> None:
    p = _run(sys.executable, "-m", "robocop", "check", "suites", "resources")
    assert p.returncode == 0, p.stdout + p.stderr


def test_robot_files_formatted() -> None:
    p = _run(sys.executable, "-m", "robocop", "format", "--check", "--diff", "suites", "resources")
    assert p.returncode == 0, p.stdout + p.stderr


def test_ci_runs_the_readme_test_command() -> None:
    """`.ci/run` runs the README's test command, and that command installs what it needs first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme.split("## Two commands", 1)[1].split("\n## ", 1)[0], re.S)
    assert len(blocks) == 2, blocks
    gate, tests = blocks
    assert gate.startswith("./setup.sh") and "robot" in gate
    assert tests.startswith("./setup.sh --tests") and "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci, f".ci/run does not run the README's test command {tests!r}"
