"""What the simulated board answers to the commands of perfgate.workloads.ipsec: which tool prints the
answer and around which published values (moved from Ipsec.expected: the judge never asks the sim)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.tools.common import KPPS
from perfgate.workloads import network as net
from perfgate.workloads.ipsec import SUITE, Ipsec, rows


@expects("perfgate.workloads.ipsec.Ipsec")
def expected(wl: Ipsec, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    m = re.search(r"-T\s+ipsec-(\w+)-(\w+)", command)
    if "iperf3" not in command or not m:
        return None
    conf = net.settings(SUITE, profile, lab)
    groups, _ = rows(criteria, conf)
    keys = groups.get((m.group(1), m.group(2)))
    if not keys:
        return None
    # The guide's packets column is its throughput counted in TI's own datagrams (am62x aes128: 77.65 Mbit/s at
    # 6.50 k/s, ~1490 bytes each, rounded to whole thousands), not a second limit: drawn apart and read as a cap
    # on the workload's 1400-byte datagrams it held the throughput 6 % low with the packets row's wide noise
    # (aes128 INCONCLUSIVE end to end). The tunnel carries its throughput and the packets follow from it; the
    # packets cap it only when -v FAULTS degrades them (Expected.limits).
    values = net.published(keys, criteria)
    limits = {KPPS: keys[KPPS][0]} if KPPS in keys and net.THROUGHPUT in values else {}
    return Expected(tool="iperf3", values=values, limits=limits, criteria={k: keys[k][0] for k in values})
