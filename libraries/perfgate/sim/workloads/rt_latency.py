"""What the simulated board answers to the commands of perfgate.workloads.rt_latency: which tool prints the
answer and around which published values (moved from RtLatency.expected: the judge never asks the sim)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads.base import same_command
from perfgate.workloads.rt_latency import RtLatency

# a run's length (-l loops, -D duration): the board runs cyclictest as long as it is asked, whatever the lab's data
LENGTH = re.compile(r"(?<=\s)-(?:l\s*\d+|D\s*\d+[smhd]?)(?=[\s';]|$)")


def _shape(command: str) -> str:
    return LENGTH.sub("-<length>", re.sub(r"\s+", " ", command.strip()))


@expects("perfgate.workloads.rt_latency.RtLatency")
def expected(wl: RtLatency, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    tester = str(((lab or {}).get("tester") or {}).get("address", "127.0.0.1"))
    by_id = {c.id: c for c in criteria}
    for t in dict.fromkeys([tester, "127.0.0.1"]):
        for run in wl.plan_with_skips(criteria, profile, lab, t)[0]:
            if same_command(run.command, command) or _shape(run.command) == _shape(command):
                return Expected(run.tool, {k: by_id[ids[0]].value for k, ids in run.keys.items() if ids})
    return None
