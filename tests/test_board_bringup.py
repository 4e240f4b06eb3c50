"""The bring-up benchmark's path, once: the sim lab from its file, power-on to a logged-in shell plus SSH."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bringup.py"


def test_power_on_to_shell_and_ssh_on_the_simulated_board(tmp_path):
    spec = importlib.util.spec_from_file_location("bringup", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    r = bench.bring_up("am62xx_sk", "sim", tmp_path)
    assert 0 < r["kernel"] < r["login prompt"] < r["power-on to shell+SSH"]
    assert r["power-on to shell+SSH"] < 2 * bench.TARGET  # the benchmark itself reports against 5 s, unloaded
    assert "Starting kernel" in (tmp_path / "serial.log").read_text(errors="replace")
