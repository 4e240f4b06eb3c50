"""What the simulated board answers to the commands of perfgate.workloads.uboot_storage: which tool prints the
answer and around which published values (moved from UbootStorage.expected: the judge never asks the sim)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads.base import same_command
from perfgate.workloads.uboot_storage import UbootStorage


@expects("perfgate.workloads.uboot_storage.UbootStorage")
def expected(wl: UbootStorage, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    by_id = {c.id: c for c in criteria}
    for run in wl.plan(criteria, profile, lab):
        if same_command(run.command, command):
            values = {k: by_id[ids[0]].value for k, ids in run.keys.items() if ids}
            if not values:  # an unmeasured write before a read: about the published read rate's tenth
                values = {k.replace("read", "write"): v / 10 for k, v in wl._rates(run, criteria).items()}
            return Expected(tool="uboot", values=values)
    return None
