"""What the simulated board answers to the commands of perfgate.workloads.rt_latency: which tool prints the
answer and around which published values (moved from RtLatency.expected: the judge never asks the sim)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads.base import same_command
from perfgate.workloads.rt_latency import RtLatency


@expects("perfgate.workloads.rt_latency.RtLatency")
def expected(wl: RtLatency, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    tester = str(((lab or {}).get("tester") or {}).get("address", "127.0.0.1"))
    by_id = {c.id: c for c in criteria}
    for t in dict.fromkeys([tester, "127.0.0.1"]):
        for run in wl.plan_with_skips(criteria, profile, lab, t)[0]:
            if same_command(run.command, command):
                return Expected(run.tool, {k: by_id[ids[0]].value for k, ids in run.keys.items() if ids})
    return None
