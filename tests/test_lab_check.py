"""`perfgate lab check` and `robot --dryrun` check a lab and a board without touching the hardware (issue 23, 1).

Before: `robot --dryrun` exited 0 with LAB:nosuchlab, a misspelled lab key, REPEAT:abc and -v REPAET:5, and
nothing checked a lab file short of a real run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import labcheck, runvars

ROOT = Path(__file__).resolve().parents[1]
DHRYSTONE = ROOT / "suites" / "system" / "dhrystone.robot"

LAB = """\
name: bench
kind: hardware
serial: {port: "SERIAL", baud: 115200}
power:
  on: "POWER on"
  off: "POWER off"
ssh: {address: SSH_HOST, port: 22}
tester: {address: 127.0.0.1}
has: [ethernet, HAS]
"""


def lab(tmp_path: Path, serial: str = "/dev/null", power: str = "true", host: str = "127.0.0.1",
        has: str = "emmc", extra: str = "") -> Path:  # fmt: skip
    p = tmp_path / "bench.yaml"
    text = LAB.replace("SERIAL", serial).replace("POWER", power).replace("SSH_HOST", host).replace("HAS", has)
    p.write_text(text + extra, encoding="utf-8")
    return p


def perfgate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "perfgate", *args], capture_output=True, text=True, timeout=120,
                          check=False, cwd=ROOT)  # fmt: skip


def test_a_good_lab_passes(tmp_path: Path) -> None:
    p = perfgate("lab", "check", str(lab(tmp_path)), "--board", "am62xx_sk")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no problem found" in p.stdout
    assert "note: gfxbench: skipped in LAB=bench: lab 'bench' has no display" in p.stdout  # what the lab lacks


def test_the_shipped_virtual_labs_pass() -> None:
    assert labcheck.check("sim", "am62xx_sk").ok
    assert labcheck.check("qemu", "qemu_arm64").ok


def test_each_problem_is_file_line_key(tmp_path: Path) -> None:
    path = lab(tmp_path, serial="/dev/ttyNOSUCH9", power="no-such-relay-tool", host="no-such-host.invalid",
               has="emmcc")  # fmt: skip
    p = perfgate("lab", "check", str(path), "--board", "am62xx_sk")
    assert p.returncode == 1, p.stdout + p.stderr
    err = p.stderr
    assert f"{path}:3: serial.port: no such serial device '/dev/ttyNOSUCH9' on this host" in err, err
    assert f"{path}:5: power.on: runs 'no-such-relay-tool', which is not on PATH (nor a file) here" in err, err
    assert f"{path}:6: power.off: runs 'no-such-relay-tool'" in err, err
    assert f"{path}:7: ssh.address: host 'no-such-host.invalid' does not resolve here" in err, err
    assert f"{path}:9: has.1: unknown peripheral 'emmcc' (known: " in err, err
    assert "5 problem(s)" in err


def test_a_misspelled_key_and_an_unknown_lab_or_board(tmp_path: Path) -> None:
    path = lab(tmp_path, extra="serail: {port: /dev/null}\n")
    p = perfgate("lab", "check", str(path))
    assert p.returncode == 1 and f"{path}:10: serail: unknown key (known keys: " in p.stderr, p.stderr
    p = perfgate("lab", "check", "nosuchlab")
    assert p.returncode == 1 and "unknown lab 'nosuchlab'; known labs: " in p.stderr, p.stderr
    p = perfgate("lab", "check", "sim", "--board", "am62xx_skk")
    assert p.returncode == 1 and "am62xx_sk" in p.stderr and "am62xx_skk" in p.stderr, p.stderr


def test_a_board_release_the_board_does_not_have() -> None:
    report = labcheck.check("sim", "am62xx_sk", "01.02.03")
    assert not report.ok and "01.02.03" in str(report.problems[0]), report.problems


def test_unknown_command_line_names() -> None:
    assert runvars.unknown_names(["BOARD", "repeat", "REPAET", "USER_MINE", "My Var", "PABOTLASTLEVEL", "CALLER_ID"],
                                 declared=["${MY_VAR}"]) == ["REPAET"]  # fmt: skip
    with pytest.raises(runvars.VariableError, match=r"unknown variable -v REPAET: the gate reads BOARD, LAB, "):
        runvars.check_names(["REPAET"])


def dryrun(tmp_path: Path, *args: str, suite: Path = DHRYSTONE) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "robot", "--dryrun", "--output", "NONE", "--report", "NONE", "--log", "NONE",
            "--console", "dotted", *args, str(suite)]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("-v", "LAB:nosuchlab"), "unknown lab 'nosuchlab'; known labs: "),
        (("-v", "REPEAT:abc"), "variable REPEAT: must be a whole number of 1 or more, not 'abc'"),
        (("-v", "REPAET:5"), "unknown variable -v REPAET: the gate reads BOARD, LAB, RELEASE, REPEAT,"),
        (("-v", "SIM_SPREAD:-1"), "variable SIM_SPREAD: must be a relative spread from 0 up to 10"),
    ],
)
def test_dryrun_fails_on_bad_input(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", *args)
    assert p.returncode != 0, p.stdout + p.stderr
    assert f"[ ERROR ] perfgate: {said}" in p.stdout + p.stderr, p.stdout + p.stderr


def test_dryrun_fails_on_a_misspelled_lab_key(tmp_path: Path) -> None:
    path = lab(tmp_path, extra="serail: {port: /dev/null}\n")
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", "-v", f"LAB:{path}")
    assert p.returncode != 0, p.stdout
    assert f"[ ERROR ] perfgate: {path}:10: serail: unknown key" in p.stdout + p.stderr, p.stdout + p.stderr


def test_dryrun_passes_good_input_and_users_own_variables(tmp_path: Path) -> None:
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", "-v", "REPEAT:2", "-v", "USER_MINE:1", "-v", "OUTPUT_DIR:x")
    assert p.returncode == 0, p.stdout + p.stderr  # USER_ names, and Robot's own variables, are never unknown
    suite = tmp_path / "mine.robot"
    suite.write_text(
        f"*** Settings ***\nResource    {ROOT / 'resources' / 'gate.resource'}\n\n"
        "*** Variables ***\n${MY_SETTING}    1\n\n"
        "*** Test Cases ***\nMine\n    Log    ${MY_SETTING}\n",
        encoding="utf-8",
    )
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", "-v", "MY_SETTING:2", "-v", "USER_X:1", suite=suite)
    assert p.returncode == 0, p.stdout + p.stderr
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", "-v", "REPEAT:2", "-v", "LAB:sim")
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_real_run_stops_on_an_unknown_name_before_the_lab(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "robot", "--output", "NONE", "--report", "NONE", "--log", "NONE",
            "-v", "BOARD:am62xx_sk", "-v", "REPAET:5", str(DHRYSTONE)]  # fmt: skip
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)
    assert p.returncode != 0
    assert "[ ERROR ] perfgate: unknown variable -v REPAET" in p.stdout + p.stderr, p.stdout + p.stderr
    assert "LAB=sim" not in p.stdout  # stopped before the lab was opened


def test_every_problem_of_one_file_not_only_the_first(tmp_path: Path) -> None:
    """The gate's own check stops at the first problem; lab check names each (the same messages and lines)."""
    path = tmp_path / "bad.yaml"
    path.write_text(
        "name: bad\nkind: hardware\nserail: {port: /dev/null}\nserial: {port: /dev/null, baud: fast}\n"
        'power: {on: "true", off: "true"}\ntimeouts: {boot: 90s, login: 30}\nssh: {address: "bad host"}\n'
        "has: [ethernet, emmcc]\n",
        encoding="utf-8",
    )
    problems = [str(p) for p in labcheck.check(str(path), "am62xx_sk").problems]
    assert [p.split(": ", 2)[:2] for p in problems] == [
        [f"{path}:3", "serail"], [f"{path}:4", "serial.baud"], [f"{path}:6", "timeouts.boot"],
        [f"{path}:7", "ssh.address"], [f"{path}:8", "has.1"],
    ], problems  # fmt: skip


def test_a_labgrid_coordinator_that_does_not_resolve(tmp_path: Path) -> None:
    path = tmp_path / "farm.yaml"
    path.write_text(
        "name: farm\nkind: labgrid\nlabgrid: {coordinator: 'no-such-host.invalid:20408'}\n", encoding="utf-8"
    )
    problems = [str(p) for p in labcheck.check(str(path)).problems]
    assert len(problems) == 1 and problems[0].startswith(
        f"{path}:3: labgrid.coordinator: host 'no-such-host.invalid' does not resolve here"
    ), problems
    path.write_text("name: farm\nkind: labgrid\nlabgrid: {coordinator: '127.0.0.1:20408'}\n", encoding="utf-8")
    assert labcheck.check(str(path)).ok
