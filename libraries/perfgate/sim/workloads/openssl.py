"""What the simulated board answers to the commands of perfgate.workloads.openssl: which tool prints the
answer and around which published values (moved from OpenSSL.expected: the judge never asks the sim)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.tools import openssl as tool
from perfgate.workloads.network import published
from perfgate.workloads.openssl import OpenSSL, settings


@expects("perfgate.workloads.openssl.OpenSSL")
def expected(wl: OpenSSL, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    if "openssl" not in command or "speed" not in command:
        return None
    alg = tool.requested(command)
    conf = settings(profile, lab)
    groups, _ = wl.groups(criteria, conf)
    keys = groups.get(alg or "")
    if not keys:
        return None
    return Expected(tool="openssl", values=published(keys, criteria))
