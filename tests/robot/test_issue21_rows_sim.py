"""The numbers that failed as "not measured" for want of a workload (issue 21 items 2-4) pass on the simulated board
under Robot: RPMsg round trips (am64xx_evm), resume latency by the stated method (am62xx_sk, am62axx_sk, named in
metrics.json's tool), ICSSM Switch/HSR forwarding between the sim lab's two peers (am574x_idk)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from selftest import run_gate

pytestmark = pytest.mark.slow

CASES = [  # board, release, suite, what the rows' ids hold, how many, the tool metrics.json names
    ("am64xx_evm", "12.00.00-RT", "rpmsg_latency", ".rpmsg_latency.", 8, "rpmsg"),
    ("am62xx_sk", "12.00.00", "low_power", "resume-latency", 2, "resume (rtc-alarm method)"),
    ("am62axx_sk", "11.01", "low_power", "resume-latency", 3, "resume (rtc-alarm method)"),
    ("am574x_idk", "11.01", "ethernet", "-forwarding.", 4, None),
]


@pytest.mark.parametrize(("board", "release", "suite", "part", "count", "tool"), CASES)
def test_rows_pass_on_the_sim(tmp_path: Path, board: str, release: str, suite: str, part: str, count: int,
                              tool: str | None) -> None:  # fmt: skip
    got = run_gate(tmp_path, board, [suite], RELEASE=release)
    assert got["rc"] == 0, got["stdout"][-3000:]
    entries = [e for p in got["results"].glob("**/metrics.json") for e in json.loads(p.read_text(encoding="utf-8"))]
    rows = [e for e in entries if part in e["id"]]
    assert len(rows) == count
    assert all(e["verdict"] == "pass" and e["measured"] is not None for e in rows), rows
    assert all(e["tool"] == tool for e in rows) if tool else {e["tool"] for e in rows} == {"iperf3", "cpuload"}
