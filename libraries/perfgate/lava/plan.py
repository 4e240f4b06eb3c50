"""The commands the selected suites will ask for, from their workloads' `plan()`: what the first LAVA job runs.

A suite the board or lab cannot run (its workload's `applicable()` gives a reason), one without a workload, and a
workload that builds its commands while measuring (an empty plan: the network suites) contribute nothing here:
their commands go into follow-up jobs when asked. Only Linux commands (`where: shell | console`) go into a job.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from perfgate import criteria
from perfgate.lava.session import Planned

IN_JOB = ("shell", "console")


def planned(suites: list[str], criteria_dir: Path, profile: dict, lab: dict) -> tuple[list[Planned], list[str]]:
    """(the planned commands in suite order, notes on suites that plan nothing ahead)."""
    out: list[Planned] = []
    notes: list[str] = []
    for suite in suites:
        f = Path(criteria_dir) / f"{suite}.csv"
        crits = criteria.read(f) if f.exists() else []
        if not crits:
            continue
        try:
            workload = import_module(f"perfgate.workloads.{suite}").WORKLOAD
        except ModuleNotFoundError:
            continue
        try:
            if workload.applicable(crits, profile, lab):
                continue
            runs = workload.plan(crits, profile, lab)
        except Exception as e:  # a workload that cannot plan without the board: its commands come when asked
            notes.append(f"{suite}: plans nothing ahead ({type(e).__name__}: {e})")
            continue
        mine = [Planned(suite, r.command, float(r.timeout)) for r in runs if r.where in IN_JOB]
        if not mine:
            notes.append(f"{suite}: builds its commands while measuring: each goes into a job when asked")
        out += mine
    return out, notes
