"""The AM64x RT 12.00.00 guide's ICSSG tables run by robot against the simulated board: measured on the ICSSG
port (eth1, the sim lab's peer 192.168.2.1) and passing; in a lab that names no peer on that port (sim-bare), each
fails as not measured, naming the lab key, and never passes. Only the ICSSG criteria run (selected by their tags
through the pre-run modifier), to keep the run short."""

from __future__ import annotations

from pathlib import Path

import pytest
from selftest import ROOT, run_gate

from perfgate import criteria

pytestmark = pytest.mark.slow
BOARD, RELEASE = "am64xx_evm", "12.00.00-RT"
ICSSG = ("--prerunmodifier", "perfgate.robot.expand.Criteria", "--include", f"{BOARD}.ethernet.icssg-*")


def icssg_names() -> set[str]:
    return {c.name for c in criteria.load(BOARD, "ethernet", release=RELEASE) if "ICSSG" in c.table}


def test_icssg_tables_pass_on_the_simulated_icssg_port(tmp_path: Path) -> None:
    r = run_gate(tmp_path, BOARD, ["ethernet"], timeout=300, options=ICSSG, RELEASE=RELEASE)
    names = icssg_names()
    assert len(names) == 34
    tests = {n: v for n, v in r["tests"].items() if "ICSSG" in n}
    assert len(tests) == len(r["tests"]) == 34, r["stdout"][-2000:]
    assert {n.split("Ethernet.", 1)[1] for n in tests} == names
    assert all(status == "PASS" for status, _ in tests.values()), {n: m for n, (s, m) in tests.items() if s != "PASS"}
    assert r["rc"] == 0
    log = (tmp_path / "robot" / "output.xml").read_text(encoding="utf-8")
    assert "the ICSSG port: interface eth1, the board 192.168.2.100, tester 192.168.2.1" in log


def test_a_lab_without_the_icssg_peer_fails_each_icssg_test_by_the_lab_key(tmp_path: Path) -> None:
    lab = str(ROOT / "tests" / "fixtures" / "labs" / "sim-bare.yaml")
    r = run_gate(tmp_path, BOARD, ["ethernet"], timeout=300, options=ICSSG, RELEASE=RELEASE, LAB=lab)
    tests = r["tests"]
    assert len(tests) == 34 and r["rc"] != 0, r["stdout"][-2000:]
    for name, (status, message) in tests.items():
        assert status == "FAIL", name
        assert "not measured on the ICSSG port: lab sim-bare names no peer wired to it" in message, message
        assert "(variables/labs/sim-bare.yaml: workloads.ethernet.ports.icssg.tester)" in message, message
