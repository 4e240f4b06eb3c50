"""The simulated board's IPSec answer: the tunnel's throughput is drawn around the guide's throughput, not capped by
its packets column counted in the workload's datagram size (the cause of aes128's inconclusive rows end to end)."""

from __future__ import annotations

import random

from perfgate import criteria
from perfgate.sim import tools as sim_tools
from perfgate.sim import workloads as sim_workloads
from perfgate.tools import parse
from perfgate.tools.common import KPPS, THROUGHPUT
from perfgate.workloads import ipsec
from perfgate.workloads import network as net

DATAGRAM = int(net.settings(ipsec.SUITE, {}, {})["datagram"])  # variables/workloads/network.yaml: ipsec.datagram


def _answer(board: str, alg: str) -> dict[str, float]:
    """What the real parser reads from the simulated board's answer at its published values (no noise drawn)."""
    crits = [c for c in criteria.select(board, None).criteria if c.suite == ipsec.SUITE]
    command = f"iperf3 -c 10.0.0.1 -p 5205 -u -b 0 -l {DATAGRAM} -t 10 -J -T {ipsec.title(alg, 'sha1')}"
    exp = sim_workloads.expected(ipsec.WORKLOAD, command, crits, {}, {})
    assert exp is not None and exp.tool == "iperf3"
    text = sim_tools.render("iperf3", command, dict(exp.values), random.Random(1))
    return parse("iperf3", text, command)


def test_a_tunnel_at_its_published_values_prints_its_published_throughput() -> None:
    """am62xx_sk's aes128 row: 77.65 Mbit/s at 6.50 kpps (TI's packets column counts ~1490-byte datagrams, rounded
    to whole thousands: min 6, max 7). The workload sends 1400-byte datagrams; a board exactly at its published
    values must print 77.65 Mbit/s (within the renderer's 0.5 %), not 6.5 k x 1400 B x 8 = 72.8 Mbit/s (6 % low,
    and moving with the packets row's wide noise: what left the row INCONCLUSIVE end to end)."""
    crits = {c.id: c for c in criteria.select("am62xx_sk", None).criteria}
    want = crits["am62xx_sk.ipsec.ipsec-software-performance.aes128.throughput-mbps"].value
    got = _answer("am62xx_sk", "aes128")
    assert abs(got[THROUGHPUT] / want - 1) < 0.006, (got, want)
    # the packets it prints are that throughput in the command's datagrams (one measurement, as on a real board)
    assert abs(got[KPPS] - got[THROUGHPUT] * 1e6 / (DATAGRAM * 8) / 1e3) < 0.01, got
