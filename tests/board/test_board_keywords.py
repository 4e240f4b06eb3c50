"""The board keywords in Robot: tests/robot/board_keywords.robot against the simulated board."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from robot.api import ExecutionResult

from testpaths import ROOT

pytestmark = pytest.mark.slow


def test_board_keywords_suite_passes(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "libraries")}
    suite = ROOT / "tests" / "robot" / "board_keywords.robot"
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path), str(suite)]
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    result = ExecutionResult(str(tmp_path / "output.xml"))
    statuses = {t.name: (t.status, t.message) for t in result.suite.tests}
    assert len(statuses) == 4, p.stdout
    for name, (status, message) in statuses.items():
        assert status == "PASS", f"{name}: {message}\n{p.stdout[-2000:]}"
    assert "LAB=sim: simulated board, not hardware" in p.stdout
    assert (tmp_path / "serial.log").exists()
