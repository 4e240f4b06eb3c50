"""The board keywords inside a real Robot run (suites/__init__.robot) against the simulated board: wrong BOARD or
LAB stop at once with a clear message; an SSH session dropped in the middle of a workload fails that suite with the
reason and the next suite reconnects and passes."""

from __future__ import annotations

import sys

import pytest

from selftest import run_gate

pytestmark = pytest.mark.slow


def test_unknown_board_stops_the_run_at_once_listing_the_known_boards(tmp_path):
    r = run_gate(tmp_path, "am99xx_nope", ["dhrystone"])
    assert r["rc"] != 0 and r["seconds"] < 30
    messages = " ".join(m for _, m in r["tests"].values()) + r["stdout"]
    assert "unknown board 'am99xx_nope'; known boards:" in messages and "j721e_idk_gw" in messages


def test_unknown_lab_fails_every_test_with_the_known_labs(tmp_path):
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB="nolab")
    assert r["tests"] and r["seconds"] < 30
    for status, message in r["tests"].values():
        assert status == "FAIL" and "unknown lab 'nolab'; known labs:" in message and "sim" in message, message


def test_ssh_drop_fails_that_suite_and_the_next_one_reconnects(tmp_path):
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone", "whetstone"], FAULTS="ssh-drop:dhrystone")
    dhry = r["suites"]["Dhrystone"]
    whet = r["suites"]["Whetstone"]
    assert dhry and whet
    for name in dhry:
        status, message = r["tests"][name]
        assert status == "FAIL" and "dropped" in message, message
    for name in whet:
        assert r["tests"][name][0] == "PASS", r["tests"][name]
    assert r["seconds"] < 90


def test_killing_robot_leaves_no_simulated_board_behind(tmp_path):
    import json
    import os
    import signal
    import subprocess
    import time

    from selftest import ROOT

    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "robot"), "-v", "BOARD:am43xx_gpevm",
            "-v", "BOOT_CYCLES:20", "--suite", "boot_time", str(ROOT / "suites")]  # fmt: skip
    robot = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = None
    try:
        deadline = time.monotonic() + 60
        while pid is None and time.monotonic() < deadline:
            for log in (tmp_path / "results").glob("virtual/*/*/sim-board.log"):
                for line in log.read_text(errors="replace").splitlines():
                    if line.startswith("{") and '"pid"' in line:
                        pid = json.loads(line)["pid"]
            time.sleep(0.2)
        assert pid, "the simulated board never started"
        time.sleep(1.0)  # booting: the gate is in the middle of the boot-time suite
        robot.send_signal(signal.SIGKILL)
        robot.wait(10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the simulated board (pid {pid}) outlived the killed robot")
    finally:
        if robot.poll() is None:
            robot.kill()


@pytest.mark.parametrize(("policy", "status"), [("fail", "FAIL"), ("skip", "SKIP")])
def test_missing_tool_fails_or_skips_that_suite_only(tmp_path, policy, status):
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone", "whetstone"], FAULTS="missing-tool:dhrystone",
                 ON_MISSING_TOOL=policy)  # fmt: skip
    for name in r["suites"]["Dhrystone"]:
        got, message = r["tests"][name]
        assert got == status and "not found" in message and "dhrystone" in message, message
    for name in r["suites"]["Whetstone"]:
        assert r["tests"][name][0] == "PASS", r["tests"][name]
