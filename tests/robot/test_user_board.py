"""A user's own suite on the gate's board (issue 23, 3), from a folder outside the repository: `Use The Gate Board`
(perfgate.robot.userboard) brings the board up when the suite runs alone, takes the gate's when a gate suite file
runs beside it (before or after it: one board, one boot, not closed under the user's suite by the gate suite's
teardown), and robot's exit status agrees with the gate's verdict when a user's suite runs inside a gate run that
measured nothing. Before: `Switch Connection  board` failed run alone ("Non-existing index or alias") or after a
gate suite file, and robot exited 0 while the console said `verdict FAIL: nothing was measured`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from perfgate import criteria

ROOT = Path(__file__).resolve().parents[2]
DHRYSTONE = ROOT / "suites" / "system" / "dhrystone.robot"
UBOOT_MMCSD = ROOT / "suites" / "uboot" / "uboot_mmcsd.robot"
FAST = ("-v", "SIM_SPEED:20", "-v", "BOOT_CYCLES:1", "-v", "INCONCLUSIVE:pass")
MINE = """\
*** Settings ***
Library    perfgate.robot.userboard.UserBoard
Library    SSHLibrary

*** Test Cases ***
Kernel Over SSH
    Use The Gate Board
    ${out}    ${rc}    Execute Command    uname -a    return_rc=True
    Should Be Equal As Integers    ${rc}    0
    Should Contain    ${out}    Linux
"""


def robot(cwd: Path, out: str, *args: str) -> tuple[subprocess.CompletedProcess, dict[str, tuple[str, str]], Path]:
    env = {**os.environ, "PERFGATE_RESULTS": str(cwd / "results"), "PERFGATE_NO_COLLECT": "1"}
    env.pop("ROBOT_OPTIONS", None)
    argv = [sys.executable, "-m", "robot", "--outputdir", str(cwd / out), "--console", "dotted", *args]
    p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    output = cwd / out / "output.xml"
    tests = {t.name: (t.status, t.message) for t in ExecutionResult(str(output)).suite.all_tests}
    return p, tests, output


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    path = tmp_path / "mine.robot"
    path.write_text(MINE, encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_user_suite_alone_brings_the_board_up_itself(tmp_path: Path, mine: Path) -> None:
    p, tests, _ = robot(tmp_path, "alone", "-v", "BOARD:am62xx_sk", "-v", "SIM_SPEED:20", str(mine))
    assert p.returncode == 0 and tests == {"Kernel Over SSH": ("PASS", "")}, p.stdout[-3000:]
    assert "perfgate: am62xx_sk brought up for Mine" in p.stdout


@pytest.mark.slow
@pytest.mark.parametrize("first", ["gate", "user", "uboot"])
def test_a_user_suite_beside_a_gate_suite_file_shares_its_board(tmp_path: Path, mine: Path, first: str) -> None:
    """After the gate suite (its teardown leaves the board up), before it (the gate takes the board up already), and
    after a U-Boot suite (the board is brought back to its shell)."""
    gate = UBOOT_MMCSD if first == "uboot" else DHRYSTONE
    order = [str(mine), str(gate)] if first == "user" else [str(gate), str(mine)]
    p, tests, output = robot(tmp_path, first, "-v", "BOARD:am62xx_sk", *FAST, *order)
    assert p.returncode == 0, f"{tests}\n{p.stdout[-3000:]}"
    published = len(criteria.select("am62xx_sk").by_suite()[gate.stem])
    assert tests["Kernel Over SSH"] == ("PASS", "") and len(tests) == published + 1, tests
    assert output.read_text(encoding="utf-8").count("started the sim board") == 1  # one board, brought up once
    assert "perfgate: verdict PASS" in p.stdout


@pytest.mark.slow
def test_a_user_suite_in_a_gate_run_that_measured_nothing_fails_the_run(tmp_path: Path, mine: Path) -> None:
    tree = tmp_path / "tree"
    for part in ("suites", "resources"):
        shutil.copytree(ROOT / part, tree / part)
    (tree / "suites" / "mine").mkdir()
    shutil.copy(mine, tree / "suites" / "mine" / "mine.robot")
    p, tests, _ = robot(tmp_path, "inside", "-v", "BOARD:am62xx_sk", "-v", "SIM_SPEED:20", "-s", "Mine",
                        str(tree / "suites"))  # fmt: skip
    assert "perfgate: verdict FAIL: nothing was measured" in p.stdout
    assert p.returncode == 1, p.stdout[-3000:]  # robot agrees with the gate's verdict
    assert tests["Kernel Over SSH"][0] == "PASS"  # the user's own test took the gate's board
    status, message = tests["Gate Verdict"]
    assert status == "FAIL" and "nothing was measured" in message
