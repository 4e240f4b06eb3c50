"""A/B on the QEMU board between two real builds (`perfgate ab`): build A the qemu lab as it is (2 CPUs), build B the
same image booted with the kernel command line `maxcpus=1` (another lab file, as a lab would describe another
build). Short: one criterion (openssl sha256, single-threaded), one boot of each, A then B; it checks that the two
builds really are two (B's kernel brought up one CPU, A's two), each brought up by the lab, and that the rule reads
the single-threaded row as not worse. The full comparison (openssl and rt_latency, 3 boots each) and what it showed
are in the README ("Two builds side by side"). Needs the image (`python -m perfgate qemu build`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import criteria, paths
from perfgate.qemu import image

pytestmark = [pytest.mark.slow, pytest.mark.qemu]


def _build_b(tmp: Path) -> Path:
    """The qemu lab file with `maxcpus=1` on the kernel command line, its board process told to read it."""
    text = (paths.labs() / "qemu.yaml").read_text(encoding="utf-8")
    lab = tmp / "qemu-maxcpus1.yaml"
    start = '"{python} -m perfgate qemu serve --board {board} --state {state} --power off"'
    append = "  append: console=ttyAMA0,115200 panic=-1\n"
    assert start in text and append in text, "variables/labs/qemu.yaml changed: update this test's build B"
    text = text.replace(start, start[:-1] + f' --lab {lab}"').replace(append, append[:-1] + " maxcpus=1\n")
    lab.write_text(text.replace("name: qemu\n", "name: qemu-maxcpus1\n"), encoding="utf-8")
    return lab


def test_ab_on_the_qemu_board_between_two_cpus_and_one(tmp_path: Path) -> None:
    try:
        image.current()
    except image.BuildError as e:
        pytest.skip(str(e))
    if not criteria.load("qemu_arm64"):
        pytest.skip("no thresholds for qemu_arm64: run `python -m perfgate baseline --board qemu_arm64 --record 3`")
    out = tmp_path / "ab"
    cmd = [sys.executable, "-m", "perfgate", "ab", str(paths.root() / "suites"), "--board", "qemu_arm64", "--lab",
           "qemu", "--b", f"LAB:{_build_b(tmp_path)}", "--robot-arg=--suite=openssl", "--robot-arg=--test=*sha256*",
           "--min-boots", "1", "--max-boots", "1", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results"), "PERFGATE_NO_COLLECT": "1"}
    run = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    data = json.loads((out / "ab.json").read_text())
    assert data["order"] == ["A", "B"] and data["b"] == [f"LAB:{tmp_path / 'qemu-maxcpus1.yaml'}"]
    (row,) = data["criteria"].values()
    assert row["name"] == "sha256 / 16384" and row["verdict"] != "worse" and row["n_a"] and row["n_b"]
    logs = {b: "".join(p.read_text(errors="replace") for p in (out / f"results-{b}").rglob("serial.log")) for b in "AB"}
    assert "maxcpus=1" in logs["B"] and "Brought up 1 node, 1 CPU" in logs["B"]
    assert "maxcpus=1" not in logs["A"] and "Brought up 1 node, 2 CPUs" in logs["A"]
