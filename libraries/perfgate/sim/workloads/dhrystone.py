"""What the simulated board answers to perfgate.workloads.dhrystone's commands: its plan's command, and the same
command with another number of runs (the workload lengthens a run of a few timer ticks)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, by_plan, expects
from perfgate.workloads.dhrystone import DhrystoneWorkload

RUNS = re.compile(r"(dhrystone )(\d+)")


@expects("perfgate.workloads.dhrystone.DhrystoneWorkload")
def expected(wl: DhrystoneWorkload, command: str, criteria: list[Criterion], profile: dict,
             lab: dict) -> Expected | None:  # fmt: skip
    found = by_plan(wl, command, criteria, profile, lab)
    if found is not None or not RUNS.search(command):
        return found
    for run in wl.plan(criteria, profile, lab):  # the plan's command with its runs as this one has them
        if RUNS.sub(lambda m: m.group(1) + "0", run.command) == RUNS.sub(lambda m: m.group(1) + "0", command):
            return by_plan(wl, run.command, criteria, profile, lab)
    return None
