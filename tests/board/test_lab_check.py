"""`perfgate lab check` and `robot --dryrun` check a lab and a board without touching the hardware (issue 23, 1).

Before: `robot --dryrun` exited 0 with LAB:nosuchlab, a misspelled lab key, REPEAT:abc and -v REPAET:5, and
nothing checked a lab file short of a real run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import labcheck, runvars
from testpaths import ROOT

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
@pytest.mark.integration  # runs robot
def test_dryrun_fails_on_bad_input(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", *args)
    assert p.returncode != 0, p.stdout + p.stderr
    assert f"[ ERROR ] perfgate: {said}" in p.stdout + p.stderr, p.stdout + p.stderr


@pytest.mark.integration  # runs robot
def test_dryrun_fails_on_a_misspelled_lab_key(tmp_path: Path) -> None:
    path = lab(tmp_path, extra="serail: {port: /dev/null}\n")
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", "-v", f"LAB:{path}")
    assert p.returncode != 0, p.stdout
    assert f"[ ERROR ] perfgate: {path}:10: serail: unknown key" in p.stdout + p.stderr, p.stdout + p.stderr


@pytest.mark.integration  # runs robot
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


@pytest.mark.integration  # runs robot
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


# ------------------------------------------------------------------------------ issue 32: the mistakes people make


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_an_unset_password_env_is_a_problem_in_a_hardware_lab(tmp_path: Path, monkeypatch) -> None:
    """Before: an unset `password_env` passed, and the gate typed an empty password at the board's login."""
    path = lab(tmp_path, extra="login: {user: root, password_env: PERFGATE_TEST_NO_SUCH_PASSWORD}\n")
    monkeypatch.delenv("PERFGATE_TEST_NO_SUCH_PASSWORD", raising=False)
    problems = [str(p) for p in labcheck.check(str(path)).problems]
    assert problems == [
        f"{path}:10: login.password_env: the environment variable PERFGATE_TEST_NO_SUCH_PASSWORD is "
        "not set: the gate would type an empty password (export PERFGATE_TEST_NO_SUCH_PASSWORD=..., "
        "or PERFGATE_TEST_NO_SUCH_PASSWORD= for a board without one, or drop password_env)"
    ], problems
    monkeypatch.setenv("PERFGATE_TEST_NO_SUCH_PASSWORD", "")  # set, empty: a board without password, on purpose
    assert labcheck.check(str(path)).ok
    assert labcheck.check("sim").ok  # a virtual lab's boards have no password: its password_env may be unset


def test_a_missing_ssh_key_and_relative_paths_read_from_the_lab_files_folder(tmp_path: Path) -> None:
    """Before: a missing `ssh.key` passed the check, and a relative one was read from the repository root
    (site-packages once installed), not from the lab file's folder as labgrid-env's `file:` is."""
    labs_dir = tmp_path / "labs"
    labs_dir.mkdir()
    text = LAB.replace("SERIAL", "/dev/null").replace("POWER", "true").replace("SSH_HOST", "127.0.0.1")
    text = text.replace("HAS", "emmc").replace("port: 22}", "port: 22, key: keys/id_bench, known_hosts: kh/hosts}")
    path = labs_dir / "bench.yaml"
    path.write_text(text, encoding="utf-8")
    problems = [str(p) for p in labcheck.check(str(path)).problems]
    assert problems == [
        f"{path}:7: ssh.key: no such file '{labs_dir / 'keys' / 'id_bench'}' (the SSH private key; relative: to the "
        "lab file's folder)",
        f"{path}:7: ssh.known_hosts: its folder '{labs_dir / 'kh'}' does not exist",
    ], problems
    (labs_dir / "keys").mkdir()
    (labs_dir / "keys" / "id_bench").write_text("key\n", encoding="utf-8")
    (labs_dir / "kh").mkdir()
    assert labcheck.check(str(path)).ok  # checked from the repository root (the test's cwd), read from labs/

    from perfgate.board.lab import load
    from perfgate.board.ssh import SshDriver

    driver = SshDriver.from_lab(load(str(path), "am62xx_sk"), {}, "root", "", 5.0, log=lambda m: None)
    assert driver.key_file == str(labs_dir / "keys" / "id_bench")  # what the gate itself then uses
    assert driver.host_keys.path == labs_dir / "kh" / "hosts"


def test_a_boards_override_for_an_unknown_board(tmp_path: Path) -> None:
    """Before: `boards: {am62xx_skk: ...}` was silently ignored (no board of that name ever applied it)."""
    path = lab(tmp_path, extra="boards:\n  am62xx_skk:\n    linux: {prompt: '# '}\n")
    problems = [str(p) for p in labcheck.check(str(path), "am62xx_sk").problems]
    assert len(problems) == 1 and problems[0].startswith(
        f"{path}:11: boards.am62xx_skk: no such board: unknown board 'am62xx_skk'; known boards: "
    ), problems
    from perfgate.board.lab import board_profile, load

    path = lab(tmp_path, extra="boards:\n  am62xx-sk:\n    linux: {prompt: 'bench# '}\n")  # an alias: applied
    assert board_profile("am62xx_sk", load(str(path), "am62xx_sk"))["linux"]["prompt"] == "bench# "


def test_a_lava_lab_with_no_token_and_a_server_that_does_not_resolve(tmp_path: Path, monkeypatch) -> None:
    """Before: both passed the check; the run failed at its first job submission."""
    monkeypatch.delenv("PERFGATE_TEST_LAVA_TOKEN", raising=False)
    text = (ROOT / "variables" / "labs" / "example-lava.yaml").read_text(encoding="utf-8")
    text = text.replace("lava.example.org", "lava.no-such-host.invalid")
    text = text.replace("LAVA_TOKEN", "PERFGATE_TEST_LAVA_TOKEN")
    path = tmp_path / "lkft.yaml"
    path.write_text(text, encoding="utf-8")
    problems = [str(p) for p in labcheck.check(str(path)).problems]
    assert problems[0] == (
        f"{path}:{line_of(path, 'token_env:')}: lava.token_env: the environment variable "
        "PERFGATE_TEST_LAVA_TOKEN is not set (it must hold the LAVA API token of lava.user)"
    )
    assert problems[1].startswith(f"{path}:{line_of(path, 'server:')}: lava.server: host 'lava.no-such-host.invalid' "
                                  "does not resolve here"), problems  # fmt: skip
    assert len(problems) == 2, problems
    monkeypatch.setenv("PERFGATE_TEST_LAVA_TOKEN", "secret")
    assert [str(p) for p in labcheck.check(str(path), resolve_hosts=False).problems] == []
    text = text.replace("token_env: PERFGATE_TEST_LAVA_TOKEN", "identity: bench")
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path))  # no lavacli identity file
    problems = [str(p) for p in labcheck.check(str(path), resolve_hosts=False).problems]
    line = line_of(path, "  identity: bench")
    assert problems == [f"{path}:{line}: lava.identity: cannot read lavacli's identity file "
                        f"{tmp_path}/.config/lavacli.yaml: No such file or directory"], problems  # fmt: skip


@pytest.mark.integration  # runs robot
def test_a_dry_run_says_each_lab_problem_once(tmp_path: Path) -> None:
    """Before: every test of the dry run failed repeating every problem (608 tests x 5 problems on a full run)."""
    path = lab(tmp_path, serial="/dev/ttyNOSUCH9", power="no-such-relay-tool")
    p = dryrun(tmp_path, "-v", "BOARD:am62xx_sk", "-v", f"LAB:{path}", suite=ROOT / "suites" / "system")
    out = p.stdout + p.stderr
    assert p.returncode == 1, out  # one failed test: the dry run's own check
    for problem in ("serial.port: no such serial device '/dev/ttyNOSUCH9'", "power.on: runs 'no-such-relay-tool'",
                    "power.off: runs 'no-such-relay-tool'"):  # fmt: skip
        assert out.count(problem) == 1, (problem, out)
    assert out.count("FAIL: ") == 1 and "3 problem(s) with the command line, the board or the lab" in out, out
    assert "181 passed, 1 failed" in out, out  # the suites' own tests dry-run as usual; the check fails once


def test_the_notes_name_the_lab_file_where_it_is(tmp_path: Path) -> None:
    """Before: a lab given by its path was named in the notes as variables/labs/<name>.yaml, where it is not."""
    path = lab(tmp_path)
    notes = labcheck.check(str(path), "am62xx_sk").notes
    assert f"gfxbench: skipped in LAB=bench: lab 'bench' has no display ({path}: has) (needs display, gpu)" in notes
    assert not [n for n in notes if "variables/labs/bench.yaml" in n], notes
