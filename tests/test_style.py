"""The project's own style checks: ruff on the Python package and tests, robocop on the suites and resources."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    p = _run(sys.executable, "-m", "ruff", "check", "libraries", "tests", "benchmarks")
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.skipif(shutil.which("robocop") is None, reason="robocop is not installed (requirements.txt)")
def test_robocop_clean() -> None:
    p = _run("robocop", "check", "suites", "resources")
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.skipif(shutil.which("robocop") is None, reason="robocop is not installed (requirements.txt)")
def test_robot_files_formatted() -> None:
    p = _run("robocop", "format", "--check", "--diff", "suites", "resources")
    assert p.returncode == 0, p.stdout + p.stderr
