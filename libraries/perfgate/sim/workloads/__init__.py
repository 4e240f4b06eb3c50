"""What the simulated board answers to a command a workload sends: which tool prints the answer, around which
published values.

A workload's commands come from its `plan()` (perfgate.workloads.<suite>), which the judge uses on real boards too.
Workloads that build commands a plan cannot foresee (per tester address, per algorithm, per job...) have their own
answer in perfgate.sim.workloads.<module>, registered with `@expects("<workload class path>")`. This lives apart from
the workloads so that nothing the gate runs against a real board depends on the simulator (tests/sim/test_sim_wall.py).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field

from perfgate.model import Criterion
from perfgate.workloads.base import Workload, same_command


@dataclass
class Expected:
    tool: str
    values: dict[str, float]  # parser metric name -> the value the board should print around
    # keys of `values` that only cap another (a tunnel's packets column: its throughput counted in the guide's own
    # datagrams), by the criterion each stands for: drawn apart they would bias what they cap, so the board
    # answers them only when -v FAULTS degrades that criterion (a degraded packet rate still shows)
    limits: dict[str, str] = field(default_factory=dict)
    # keys of `values` by the criterion each is drawn as (its spread, its noise class): needed where a value is not
    # the published one (a throughput in datagram bytes); a key without is matched to the criterion of its value
    criteria: dict[str, str] = field(default_factory=dict)


Answer = Callable[[Workload, str, list[Criterion], dict, dict], "Expected | None"]
_BY_CLASS: dict[str, Answer] = {}
_loaded = False


def expects(class_path: str) -> Callable[[Answer], Answer]:
    """Register the sim's answer for the workloads of one class (and its subclasses): `module.Class`."""

    def register(fn: Answer) -> Answer:
        _BY_CLASS[class_path] = fn
        return fn

    return register


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def expected(wl: Workload, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    """Which tool answers `command` for workload `wl`, and around which published values."""
    _load()
    for cls in type(wl).__mro__:
        fn = _BY_CLASS.get(f"{cls.__module__}.{cls.__qualname__}")
        if fn is not None:
            return fn(wl, command, criteria, profile, lab)
    return by_plan(wl, command, criteria, profile, lab)


def by_plan(wl: Workload, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    """The default: the run of the workload's plan whose command this is."""
    by_id = {c.id: c for c in criteria}
    for run in wl.plan(criteria, profile, lab):
        if same_command(run.command, command):
            return Expected(
                tool=run.tool,
                values={k: by_id[ids[0]].value for k, ids in run.keys.items() if ids and ids[0] in by_id},
            )
    return None
