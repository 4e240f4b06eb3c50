"""What the simulated board answers to the commands of perfgate.workloads.network: which tool prints the
answer and around which published values (moved from IperfWindows.expected: the judge never asks the sim)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.tools.common import THROUGHPUT
from perfgate.workloads.network import IperfWindows, published, settings


@expects("perfgate.workloads.network.IperfWindows")
def expected(wl: IperfWindows, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    if "iperf" not in command or "iperf3" in command or " -u" in command:
        return None
    conf = settings(wl.suite, profile, lab)
    window = re.search(r"-w\s*(\d+)[kK]", command)
    port = re.search(r"-p\s*(\d+)", command)
    if not window or not port:
        return None
    rows, _ = wl.rows(criteria, conf)
    for (mode, w), ids in rows.items():
        if w == window.group(1) and str(wl.modes(conf)[mode].get("port", "")) == port.group(1):
            return Expected(tool="iperf", values=published({THROUGHPUT: ids}, criteria))
    return None
