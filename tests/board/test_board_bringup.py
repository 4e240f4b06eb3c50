"""The bring-up benchmark's path, once: the sim lab from its file, power-on to a logged-in shell plus SSH."""

from __future__ import annotations

import importlib.util

import pytest

from testpaths import ROOT

pytestmark = pytest.mark.slow
BENCH = ROOT / "benchmarks" / "bringup.py"


def test_power_on_to_shell_and_ssh_on_the_simulated_board(tmp_path):
    spec = importlib.util.spec_from_file_location("bringup", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    r = bench.bring_up("am62xx_sk", "sim", tmp_path)
    assert 0 < r["kernel"] < r["login prompt"] < r["power-on to shell+SSH"]
    assert r["power-on to shell+SSH"] < 2 * bench.TARGET  # the benchmark itself reports against 5 s, unloaded
    assert "Starting kernel" in (tmp_path / "serial.log").read_text(errors="replace")


def test_tester_host_is_the_local_address_of_the_ssh_connection(tmp_path, monkeypatch):
    from perfgate import boards
    from perfgate.board.console import Console
    from perfgate.board.lab import load
    from perfgate.board.launcher import Launcher
    from perfgate.board.strategy import Board

    monkeypatch.delenv("PERFGATE_TESTER", raising=False)
    lab = load("sim", "am62xx_sk")
    lab.data["tester"] = {"address": "host"}
    launcher = Launcher(lab, {"board": "am62xx_sk", "lab": "sim"}, log_dir=tmp_path)
    state = launcher.start()
    console = Console(state["serial"], 115200)
    console.open()
    try:
        b = Board("am62xx_sk", boards.profile("am62xx_sk"), lab, console, launcher.context, log=lambda m: None,
                  speed=float(state.get("speed") or 1))  # fmt: skip
        b.transition("shell")
        assert b.network.tester_address() == "127.0.0.1"  # the sim's SSH is on 127.0.0.1: so is this host, seen from it
        lab.data["tester"] = {"address": "192.168.10.1"}
        assert b.network.tester_address() == "192.168.10.1"
    finally:
        console.close()
        launcher.stop()
