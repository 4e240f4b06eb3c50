"""Lab files: the shipped labs load; broken ones fail with the file, the key and its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfgate import paths
from perfgate.board.lab import expand, known, load
from perfgate.errors import DataError
from testpaths import ROOT

GOOD = """\
name: bench
kind: hardware
serial: {port: "rfc2217://lab-host:7001?ign_set_control", baud: 115200}
power:
  on: "relay 1 on"
  off: "relay 1 off"
login: {user: root, password_env: BOARD_PW}
ssh: {address: discover, port: 22}
tester: {address: 192.168.10.1}
storage: {uboot_mmcsd: {dev: 1, part: 1, file: perfgate.bin}}
boards:
  am62xx_sk:
    ssh: {address: 192.168.10.21}
    linux: {prompt: "root@bench-1:~# "}
"""


def write(tmp_path: Path, text: str, name: str = "bench") -> Path:
    d = tmp_path / "variables" / "labs"
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"{name}.yaml"
    p.write_text(text, encoding="utf-8")
    if not (d.parent / "boards").exists():  # the boards a lab's `boards:` may name (the gate's own)
        (d.parent / "boards").symlink_to(ROOT / "variables" / "boards")
    return p


def test_shipped_labs_load():
    assert {"sim", "example-ser2net"} <= set(known())
    sim = load("", "am62xx_sk")  # no LAB: the built-in simulated board
    assert sim.name == "sim" and sim.virtual and sim.launched
    assert sim.banner() == "LAB=sim: simulated board, not hardware"
    hw = load("example-ser2net", "am62xx_sk")
    assert not hw.virtual and hw.power_mode == "command"
    assert hw.profile_overrides["linux"]["prompt"] == "root@am62xx-evm:~# "
    assert paths.labs().joinpath("sim.yaml").exists()


def test_unquoted_on_off_and_per_board_overrides(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, GOOD)
    lab = load("bench", "am62xx_sk")
    assert lab.data["power"] == {"on": "relay 1 on", "off": "relay 1 off"}  # YAML 1.1 booleans named back
    assert lab.data["ssh"]["address"] == "192.168.10.21"  # a lab key: overrides the lab
    assert lab.profile_overrides == {"linux": {"prompt": "root@bench-1:~# "}}  # others: the board profile
    assert load("bench", "j721e_idk_gw").data["ssh"]["address"] == "discover"


@pytest.mark.parametrize(
    ("change", "message", "line"),
    [
        (("kind: hardware", "kind: rack"), r"kind: must be one of sim, qemu, hardware, labgrid, labgrid-env, lava", 2),
        (("baud: 115200}", "baud: fast}"), r"serial.baud: must be a positive integer, not 'fast'", 3),
        (('"rfc2217://lab-host:7001?ign_set_control"', '"telnet://x:1"'), r"serial.port: unsupported URL", 3),
        (('  off: "relay 1 off"\n', ""), r"power: needs a `cycle` command, or both `on` and `off`", 4),
        (("password_env: BOARD_PW", "password_env: my password"), r"login.password_env: must name an env", 7),
        (("ssh: {address: discover, port: 22}", "ssh: {address: discover, port: many}"), r"ssh.port: must be", 8),
        (("tester:", "testr:"), r"testr: unknown key", 9),
        (('power:\n  on: "relay 1 on"\n  off: "relay 1 off"\n', "power: sometimes\n"), r"power: must be none, manu", 4),
    ],
)
def test_errors_name_the_file_key_and_line(tmp_path, monkeypatch, change, message, line):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    old, new = change
    assert old in GOOD
    p = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataError, match=message) as e:
        load("bench", "am62xx_sk")
    assert e.value.path == str(p)
    assert e.value.line == line, str(e.value)
    assert str(e.value).startswith(f"{p}:")


def test_unknown_lab_lists_the_known_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, GOOD)
    with pytest.raises(DataError, match=r"unknown lab 'nolab'; known labs: bench"):
        load("nolab", "am62xx_sk")


def test_bad_yaml_names_the_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, "name: x\nkind: [unclosed\n")
    with pytest.raises(DataError, match="not valid YAML") as e:
        load("bench", "am62xx_sk")
    assert e.value.line is not None


def test_a_virtual_lab_cannot_claim_to_be_hardware(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, GOOD.replace("kind: hardware", "kind: sim\nvirtual: false\nstart: x"))
    with pytest.raises(DataError, match="virtual: a sim lab is virtual"):
        load("bench", "am62xx_sk")


@pytest.mark.parametrize(
    ("change", "key", "line"),
    [
        (("kind: hardware", "kind: hardware\nstart: '{python} -m perfgate sim --board {board} --state {state}'"),
         "start", 3),
        (('  off: "relay 1 off"', '  off: "/opt/venv/bin/perfgate sim-power /run/board.json off"'), "power.off", 6),
    ],
)  # fmt: skip
def test_a_hardware_lab_cannot_start_the_simulated_board(tmp_path, monkeypatch, change, key, line):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(DataError, match=f"{key}: a kind: hardware lab cannot start or drive the simulated board") as e:
        load("bench", "am62xx_sk")
    assert (str(e.value.path), e.value.line) == (str(path), line)
    write(tmp_path, GOOD.replace(*change).replace("kind: hardware", "kind: hardware\nvirtual: true"))
    assert load("bench", "am62xx_sk").virtual  # the simulated board behind a bench-style lab, reported as virtual


def test_a_hardware_lab_whose_script_starts_the_simulated_board_is_stopped(tmp_path, monkeypatch):
    """A start script hides the command from the lab check; the simulated board's own state file gives it away:
    the launcher stops it and refuses, naming the lab file."""
    import sys

    from perfgate.board.launcher import Launcher, LaunchError

    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    script = tmp_path / "bench-up.sh"
    repo = ROOT  # the board data the simulated board reads
    script.write_text(
        f'#!/bin/sh\nPERFGATE_ROOT={repo} exec {sys.executable} -m perfgate sim --board "$1" --state "$2"\n'
    )
    script.chmod(0o755)
    lab_text = GOOD.replace("kind: hardware", f"kind: hardware\nstart: '{script} {{board}} {{state}}'")
    path = write(tmp_path, lab_text.replace("rfc2217://lab-host:7001?ign_set_control", "{state.serial}"))
    launcher = Launcher(load("bench", "am62xx_sk"), {"board": "am62xx_sk"}, log_dir=tmp_path)
    with pytest.raises(LaunchError, match=f"started the simulated board .*virtual: true` in {path}"):
        launcher.start()
    assert launcher.process is None and not launcher.alive()


def test_templates_fill_from_the_state_file():
    import sys

    ctx = {"board": "am62xx_sk", "state": "/tmp/s.json", "state_data": {"serial": "/dev/pts/9", "ssh_port": 2222}}
    assert expand("{python} -m perfgate sim-power {state} on", ctx).startswith(sys.executable)
    assert expand("python -m x", ctx).startswith(sys.executable)
    assert expand({"port": "{state.serial}"}, ctx) == {"port": "/dev/pts/9"}
    with pytest.raises(DataError, match="state file has no 'nothing'"):
        expand("{state.nothing}", ctx)


def test_a_board_override_null_clears_the_lab_key_and_nested_null_keeps_the_lab_value(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, GOOD.replace("storage:", "power_meter: read-rails\nstorage:")
          + "  j721e_idk_gw:\n    power_meter: null\n    serial: {baud: null}\n")  # fmt: skip
    assert load("bench", "am62xx_sk").data["power_meter"] == "read-rails"
    lab = load("bench", "j721e_idk_gw")
    assert lab.data["power_meter"] is None  # the board has no meter in this lab
    assert lab.data["serial"]["baud"] == 115200  # datafile.merge: null deeper down keeps the lab's value


def test_a_lab_that_is_not_a_mapping_names_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, "- just\n- a list\n")
    with pytest.raises(DataError, match=r"bench.yaml:1: the file must hold a mapping of keys"):
        load("bench", "am62xx_sk")
    write(tmp_path, "")
    with pytest.raises(DataError, match=r"bench.yaml:1: a lab file must be a mapping of keys"):
        load("bench", "am62xx_sk")


def test_sim_spread_reaches_the_simulated_board() -> None:
    from perfgate.board.launcher import Launcher

    context = {"board": "am62xx_sk", "lab": "sim", "sim_speed": "", "faults": "", "sim_seed": ""}
    argv = Launcher(load("sim", "am62xx_sk"), {**context, "sim_spread": "1"}).command()
    assert argv[argv.index("--spread") + 1] == "1"
    assert "--spread" not in Launcher(load("sim", "am62xx_sk"), {**context, "sim_spread": ""}).command()
