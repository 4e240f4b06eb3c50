"""The AM64x RT 12.00.00 guide's ICSSG tables run by robot against the simulated board: measured on the ICSSG
port (eth1, the sim lab's peer 192.168.2.1) and passing, one degraded on the board failing alone; in a lab that
names no peer on that port (sim-bare), each fails as not measured, naming the lab key, and never passes. Only the
ICSSG criteria run (selected by their tags through the pre-run modifier), once (REPEAT:1), to keep the run short."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfgate import criteria
from selftest import ROOT, run_gate

pytestmark = pytest.mark.slow
BOARD, RELEASE = "am64xx_evm", "12.00.00-RT"
ICSSG = ("--prerunmodifier", "perfgate.robot.expand.Criteria", "--include", f"{BOARD}.ethernet.icssg-*")
# The 20 UDP rows are RFC 2544 searches of 11 runs each: one board second per run (DURATION:1, the sim lab's
# default is 2) on a board 30x faster than real time (SIM_SPEED:30) keeps each run's wait short; the values the
# simulated netperf prints do not depend on either
FAST = {"DURATION": "1", "SIM_SPEED": "30"}


def test_icssg_tables_pass_on_the_simulated_icssg_port(tmp_path: Path) -> None:
    """All 34 measured on the ICSSG port; one ICSSG number degraded 50 % on the board (-v FAULTS) fails exactly its
    own test, so the ICSSG verdicts come from the ICSSG runs (not from the CPSW port's numbers).

    50 %, not 30 %: in one run the gate fails a number only 3 standard errors (network noise 5 %) beyond its 15 %
    tolerance, i.e. below 0.85 x exp(-0.15) = 73 % of published. At 30 % the sim's 2 % spread put the value above
    that about once in 70 runs (a CI run read 799.6 of 1073.37: inconclusive, passed by INCONCLUSIVE:pass); at 50 %
    the value would have to stray 19 standard deviations."""
    crits = [c for c in criteria.load(BOARD, "ethernet", release=RELEASE) if "ICSSG" in c.table]
    target = next(c for c in crits if c.table == "ICSSG TCP Bidirectional Throughput" and "THROUGHPUT" in c.metric)
    r = run_gate(tmp_path, BOARD, ["ethernet"], timeout=300, options=ICSSG, RELEASE=RELEASE, REPEAT="1",
                 FAULTS=f"degrade:{target.id}:50", **FAST)  # fmt: skip
    names = {c.name for c in crits}
    assert len(names) == 34
    tests = {n.split("Ethernet.", 1)[1]: v for n, v in r["tests"].items()}
    assert set(tests) == names and len(r["tests"]) == 34, r["stdout"][-2000:]
    failed = {n for n, (status, _) in tests.items() if status != "PASS"}
    assert failed == {target.name}, {n: tests[n][1] for n in failed}
    assert "published 1073.37" in tests[target.name][1] and "not measured" not in tests[target.name][1]
    log = (tmp_path / "robot" / "output.xml").read_text(encoding="utf-8")
    assert "the ICSSG port: interface eth1, the board 192.168.2.100, tester 192.168.2.1" in log


def test_a_lab_without_the_icssg_peer_fails_each_icssg_test_by_the_lab_key(tmp_path: Path) -> None:
    lab = str(ROOT / "tests" / "fixtures" / "labs" / "sim-bare.yaml")
    r = run_gate(tmp_path, BOARD, ["ethernet"], timeout=300, options=ICSSG, RELEASE=RELEASE, REPEAT="1", LAB=lab,
                 **FAST)  # fmt: skip
    tests = r["tests"]
    assert len(tests) == 34 and r["rc"] != 0, r["stdout"][-2000:]
    for name, (status, message) in tests.items():
        assert status == "FAIL", name
        assert "not measured on the ICSSG port: lab sim-bare names no peer wired to it" in message, message
        assert "tests/fixtures/labs/sim-bare.yaml: workloads.ethernet.ports.icssg.tester)" in message, message
