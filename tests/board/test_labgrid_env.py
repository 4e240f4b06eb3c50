"""`kind: labgrid-env` (issue 23, 4): a lab that points at the user's labgrid environment file and target. Power
and console go through labgrid's own drivers, activated in this process: here a real environment file whose target
has labgrid's ExternalPowerDriver (a small local command, `touch`, that powers the scripted board up) and a
RawSerialPort on the slave side of a real pty with labgrid's SerialDriver; the board strategy brings the board
from off to U-Boot to its shell over them. Before, `kind: labgrid-env` was an unknown kind."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml
from test_board_strategy import PROFILE, ScriptedBoard

from perfgate import labcheck
from perfgate.board.commands import Commands
from perfgate.board.lab import load
from perfgate.board.labgrid_env import LabgridEnv
from perfgate.board.strategy import Board
from perfgate.errors import DataError


def env_file(path: Path, port: str, switch: Path, power: bool = True) -> Path:
    drivers: dict = {"SerialDriver": {"txdelay": 0.0}}
    if power:
        drivers["ExternalPowerDriver"] = {"cmd_on": f"touch {switch}", "cmd_off": "true", "delay": 0.0}
    env = {"targets": {"main": {"resources": {"RawSerialPort": {"port": port, "speed": 115200}}, "drivers": drivers}}}
    path.write_text(yaml.safe_dump(env), encoding="utf-8")
    return path


def env_line(path: Path, text: str) -> int:
    """The line of a YAML file that holds `text` (the first one)."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def lab_file(tmp_path: Path, env: str = "env.yaml", target: str = "main", extra: dict | None = None) -> Path:
    lab = {
        "name": "bench",
        "kind": "labgrid-env",
        "labgrid_env": {"file": env, "target": target},
        "login": {"user": "root"},
        "ssh": "none",
        "tester": {"address": "127.0.0.1"},
        **(extra or {}),
    }
    path = tmp_path / "bench.yaml"
    path.write_text(yaml.safe_dump(lab), encoding="utf-8")
    return path


@pytest.fixture
def scripted(tmp_path: Path):
    sb = ScriptedBoard()
    switch = tmp_path / "power-switch"
    sb.relay(switch)
    sb.start()
    yield sb, switch
    sb.close()


def test_power_and_console_through_labgrids_drivers(tmp_path: Path, scripted) -> None:
    sb, switch = scripted
    env_file(tmp_path / "env.yaml", sb.path, switch)
    lab = load(str(lab_file(tmp_path)), "am62xx_sk")
    assert lab.kind == "labgrid-env" and not lab.virtual
    env = LabgridEnv.from_lab(lab)
    power = env.power()
    assert power is not None and power.name == "labgrid ExternalPowerDriver"
    console = env.console(115200, tmp_path / "serial.log")
    console.open()
    try:
        board = Board("am62xx_sk", PROFILE, lab, console, {}, log=lambda m: None, power=power)
        board.transition("uboot")  # labgrid's ExternalPowerDriver ran `touch`: the board powered up
        assert sb.cycles == 1 and board.state == "uboot"
        assert "scripted test board" in Commands(board).uboot_command("version")
        board.transition("shell")
        out, status = Commands(board).run("echo hello", 5)
        assert status == 0 and "hello" in out
    finally:
        console.close()
        env.close()
    assert "U-Boot 2024.04" in (tmp_path / "serial.log").read_text()  # serial.log through the labgrid driver


def test_a_target_without_power_falls_back_to_the_lab(tmp_path: Path, scripted) -> None:
    sb, switch = scripted
    env_file(tmp_path / "env.yaml", sb.path, switch, power=False)
    lab = load(str(lab_file(tmp_path)), "am62xx_sk")
    env = LabgridEnv.from_lab(lab)
    assert env.power() is None
    env.close()


def test_lab_check_reads_the_environment_without_activating(tmp_path: Path, scripted) -> None:
    sb, switch = scripted
    env_file(tmp_path / "env.yaml", sb.path, switch)
    assert labcheck.check(str(lab_file(tmp_path)), "am62xx_sk").ok
    assert sb.cycles == 0 and not switch.exists()  # nothing powered

    path = lab_file(tmp_path, env="nosuch.yaml")
    problems = [str(p) for p in labcheck.check(str(path)).problems]
    assert problems == [f"{path}:3: labgrid_env.file: no such labgrid environment file '{tmp_path / 'nosuch.yaml'}'"]

    path = lab_file(tmp_path, target="other")
    problems = [str(p) for p in labcheck.check(str(path)).problems]
    line = env_line(path, "target:")
    assert problems == [f"{path}:{line}: labgrid_env.target: no target 'other' in '{tmp_path / 'env.yaml'}' "
                        "(targets: main)"]  # fmt: skip

    env_file(tmp_path / "env.yaml", "/dev/ttyNOSUCH7", switch)
    problems = [str(p) for p in labcheck.check(str(lab_file(tmp_path))).problems]
    line = env_line(tmp_path / "env.yaml", "port:")
    assert problems == [f"{tmp_path / 'env.yaml'}:{line}: targets.main.resources.RawSerialPort.port: "
                        "'/dev/ttyNOSUCH7' does not exist on this host"]  # fmt: skip


def test_lab_check_finds_an_external_power_command_not_on_path(tmp_path: Path, scripted) -> None:
    """Issue 32: the ExternalPowerDriver's commands run on this host; one that is not on PATH is said, at its line in
    the environment file, before anything is powered. Before, the check passed and the first power-cycle failed."""
    sb, switch = scripted
    env = env_file(tmp_path / "env.yaml", sb.path, switch)
    text = env.read_text(encoding="utf-8").replace("cmd_off: 'true'", "cmd_off: no-such-relay-tool off 3")
    env.write_text(text, encoding="utf-8")
    problems = [str(p) for p in labcheck.check(str(lab_file(tmp_path)), "am62xx_sk").problems]
    assert problems == [f"{env}:{env_line(env, 'cmd_off:')}: targets.main.drivers.ExternalPowerDriver.cmd_off: runs "
                        "'no-such-relay-tool', which is not on PATH (nor a file) here"], problems  # fmt: skip
    assert sb.cycles == 0 and not switch.exists()  # nothing powered


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"labgrid_env": "env.yaml"}, "labgrid_env: must be a mapping {file: "),
        ({"labgrid_env": {"file": "env.yaml", "place": "x"}}, "labgrid_env.place: unknown key (known: file, target)"),
        ({"serial": {"port": "/dev/ttyUSB0"}}, "serial.port: a labgrid-env lab's console is its target's console"),
    ],
)
def test_bad_labgrid_env_keys_name_file_key_and_line(tmp_path: Path, extra: dict, said: str) -> None:
    path = lab_file(tmp_path, extra=extra)
    with pytest.raises(DataError, match=r"^" + re.escape(str(path)) + r":\d+: " + re.escape(said)):
        load(str(path), "am62xx_sk")


def test_only_a_labgrid_env_lab_takes_the_key(tmp_path: Path) -> None:
    path = tmp_path / "hw.yaml"
    path.write_text(yaml.safe_dump({"name": "hw", "kind": "hardware", "serial": {"port": "/dev/null"},
                                    "labgrid_env": {"file": "env.yaml"}}), encoding="utf-8")  # fmt: skip
    with pytest.raises(DataError, match="only a `kind: labgrid-env` lab takes its board from a labgrid environment"):
        load(str(path), "am62xx_sk")


@pytest.mark.integration  # runs robot
def test_the_board_library_takes_a_labgrid_env_lab(tmp_path: Path, scripted) -> None:
    """The gate's board library (what suites/__init__.robot uses) on the labgrid-env lab: U-Boot reached through
    labgrid's power and console drivers, and the target given back at Close Lab."""
    import subprocess

    from robot.api import ExecutionResult

    sb, switch = scripted
    env_file(tmp_path / "env.yaml", sb.path, switch)
    lab = lab_file(tmp_path, extra={"timeouts": {"autoboot": 5, "uboot_command": 5}})
    suite = tmp_path / "bench.robot"
    suite.write_text(
        "*** Settings ***\nLibrary    perfgate.robot.board.Board\n\n*** Test Cases ***\nU-Boot Over Labgrid\n"
        f"    Open Lab    am62xx_sk    {lab}\n    Start Lab\n    Bring Board To U-Boot\n"
        "    ${out}    Run U-Boot Command    version\n    Should Contain    ${out}    scripted test board\n"
        "    [Teardown]    Close Lab\n",
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--console", "dotted", str(suite)]
    p = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    tests = {
        t.name: (t.status, t.message) for t in ExecutionResult(str(tmp_path / "out" / "output.xml")).suite.all_tests
    }
    assert p.returncode == 0, f"{tests}\n{p.stdout[-3000:]}"
    assert sb.cycles == 1  # labgrid's ExternalPowerDriver powered it
