"""A hardware-style lab end to end through Robot: the simulated board started by hand (as a board on a bench is),
its console shared by a real ser2net 4 over RFC 2217, power through external commands (sim-power, as a PDU), the
address discovered on the console, SSH to it. Nothing of the sim lab's launcher is used."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
import yaml

from seed_releases import seed
from selftest import run_gate

NO_SER2NET = not shutil.which("ser2net")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_SER2NET, reason="ser2net is not installed (Debian ser2net)")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_board_behind_ser2net_with_external_power(tmp_path, monkeypatch):
    monkeypatch.delenv("PERFGATE_BOARD_PASSWORD", raising=False)
    state = tmp_path / "board.json"
    sim = subprocess.Popen([sys.executable, "-m", "perfgate", "sim", "--board", "am62xx_lp_sk", "--state", str(state),
                            "--seed", "3"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={**os.environ, "PERFGATE_RELEASE": seed("am62xx_lp_sk") or ""})  # fmt: skip
    # the board prints the release the gate judges (run_gate pins the seed guide's release; a board started by hand
    # is told by PERFGATE_RELEASE, as the gate tells the boards it starts)
    ser2net = None
    try:
        deadline = time.monotonic() + 20
        while not state.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        board = json.loads(state.read_text())
        port = free_port()
        conf = tmp_path / "ser2net.yaml"
        conf.write_text(
            "%YAML 1.1\n---\nconnection: &bench\n"
            f"  accepter: telnet(rfc2217),tcp,127.0.0.1,{port}\n"
            f"  connector: serialdev,{board['serial']},115200n81,local\n"
        )
        ser2net = subprocess.Popen(["ser2net", "-n", "-d", "-c", str(conf)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
        power = f"{sys.executable} -m perfgate sim-power {state}"
        lab = {
            "name": "bench",
            "kind": "hardware",
            "virtual": True,  # it is the simulated board behind ser2net: the report must not say hardware
            "description": "ser2net (RFC 2217) in front of the simulated board, sim-power as the PDU",
            "serial": {"port": f"rfc2217://127.0.0.1:{port}?ign_set_control", "baud": 115200},
            "power": {"on": f"{power} on", "off": f"{power} off", "cycle": f"{power} cycle"},
            "login": {"user": "root", "password_env": "PERFGATE_BOARD_PASSWORD"},
            "ssh": {"address": "discover", "port": board["ssh_port"]},
            "tester": {"address": "host"},
            "storage": {"uboot_mmcsd": {}},
            "timeouts": {"boot": 60, "autoboot": 30},
        }
        lab_file = tmp_path / "bench.yaml"
        lab_file.write_text(yaml.safe_dump(lab), encoding="utf-8")
        r = run_gate(tmp_path, "am62xx_lp_sk", ["uboot_mmcsd", "uboot_emmc", "dhrystone"], LAB=str(lab_file))
        mmcsd = r["suites"]["Uboot Mmcsd"]
        assert len(mmcsd) == 6
        for name in mmcsd:
            assert r["tests"][name][0] == "PASS", r["tests"][name]
        for name in r["suites"]["Uboot Emmc"]:  # the lab names no uboot_emmc: never written, skipped with why
            status, message = r["tests"][name]
            assert status == "SKIP" and "names no storage.uboot_emmc" in message, message
        for name in r["suites"]["Dhrystone"]:  # over SSH to the discovered address
            assert r["tests"][name][0] == "PASS", r["tests"][name]
        assert "LAB=bench: virtual board (the lab says so), not hardware" in r["stdout"]
        serial = next((r["results"] / "virtual" / "am62xx_lp_sk").glob("*/serial.log")).read_text(errors="replace")
        assert "Hit any key to stop autoboot" in serial and "login:" in serial
    finally:
        if ser2net:
            ser2net.terminate()
            ser2net.wait(5)
        sim.terminate()
        sim.wait(10)
