"""What the simulated board answers to the commands of perfgate.workloads.fio_storage: which tool prints the
answer and around which published values (moved from FioStorage.expected: the judge never asks the sim)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads.fio_storage import FioStorage, _prefixed
from perfgate.workloads.network import published


@expects("perfgate.workloads.fio_storage.FioStorage")
def expected(wl: FioStorage, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    m = re.search(r"--name=(\S+)-(?:write|read)\b", command)
    if "fio" not in command or not m:
        return None
    conf = wl.conf(profile, lab)
    jobs, _ = wl.jobs(criteria, conf)
    for job, keys in jobs.items():
        if job.name(wl.suite) == m.group(1):
            return Expected(tool="fio", values=published(_prefixed(job, wl.suite, keys), criteria))
    return None
