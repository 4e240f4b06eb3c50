"""What the simulated board answers to the commands of perfgate.workloads.boot_time: which tool prints the
answer and around which published values (moved from BootTime.expected: the judge never asks the sim)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads.boot_time import BootTime


@expects("perfgate.workloads.boot_time.BootTime")
def expected(wl: BootTime, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    return None  # the board boots by itself; nothing is typed at a shell
