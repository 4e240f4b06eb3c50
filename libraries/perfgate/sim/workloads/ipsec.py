"""What the simulated board answers to the commands of perfgate.workloads.ipsec: which tool prints the
answer and around which published values (moved from Ipsec.expected: the judge never asks the sim)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
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
    return Expected(tool="iperf3", values=net.published(keys, criteria))
