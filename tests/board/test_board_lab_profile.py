"""One board profile for every part of the gate: the lab's `boards.<board>` overrides (and `ssh: none`) reach the
board control and the gate's planning alike (Gate.open_run used to read the plain profile); a board that prints no
autoboot line skips the U-Boot suites with the reason."""

from __future__ import annotations

import yaml

from perfgate.board.lab import board_profile, load
from perfgate.robot.gate import Gate
from perfgate.workloads.uboot_storage import UbootStorage


def lab_file(tmp_path, **extra):
    lab = {"name": "bench", "kind": "hardware", "serial": {"port": "/dev/ttyUSB0"}, "power": "manual", **extra}
    p = tmp_path / "bench.yaml"
    p.write_text(yaml.safe_dump(lab), encoding="utf-8")
    return p


def gate_with(lab):
    """What suites/__init__.robot does: the board library's Open Lab data handed to the gate by Use Lab."""
    gate = Gate()
    gate.board = "am62xx_sk"
    gate.use_lab({**lab.data, "name": lab.name, "profile_overrides": dict(lab.profile_overrides)})
    return gate


def test_per_board_overrides_reach_the_gate(tmp_path):
    over = {"am62xx_sk": {"cpus": 8, "uboot": {"autoboot": []}, "linux": {"prompt": "root@sk:~# "}}}
    lab = load(str(lab_file(tmp_path, boards=over)), "am62xx_sk")
    gate = gate_with(lab)
    assert gate.profile == board_profile("am62xx_sk", lab)
    assert gate.profile["cpus"] == 8 and gate.profile["linux"]["prompt"] == "root@sk:~# "
    assert "profile_overrides" not in gate.lab
    reason = UbootStorage("emmc").applicable([], gate.profile, {"name": "bench", "storage": {"uboot_emmc": {}}})
    assert reason and "prints no U-Boot autoboot line" in reason and "Falcon" in reason


def test_console_only_lab_has_no_network_anywhere(tmp_path):
    lab = load(str(lab_file(tmp_path, ssh="none")), "am62xx_sk")
    assert lab.console_only
    assert board_profile("am62xx_sk", lab)["network"] is False
    assert gate_with(lab).profile["network"] is False
