"""The plan: criteria -> suites -> commands. Which criteria each suite judges (the criteria files DataDriver reads),
which tools the selected suites' workloads run, and which criteria REPEAT runs cannot decide at all."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path

from perfgate import criteria, paths, runvars
from perfgate.model import Criterion
from perfgate.run.settings import Settings
from perfgate.workloads.base import Workload


def workload(suite: str) -> Workload:
    """The suite's workload (perfgate.workloads.<suite>.WORKLOAD); ModuleNotFoundError when it has none."""
    return import_module(f"perfgate.workloads.{suite}").WORKLOAD


def has_no_workload(error: ModuleNotFoundError, suite: str) -> bool:
    """True when `error` says the suite has no workload module (not that its workload failed to import one)."""
    return error.name == f"perfgate.workloads.{suite}"


def all_suites() -> list[str]:
    """Every suite that has a robot file, so that a board without a section gets a header-only criteria file."""
    return sorted(p.stem for p in (paths.root() / "suites").rglob("*.robot") if p.stem != "__init__")


def write_criteria(criteria_dir: Path, selection: criteria.Selection) -> None:
    """The run's criteria files, one per suite (header only for a suite the release does not publish)."""
    from robot.api import logger

    chosen = selection.by_suite()
    known = set(all_suites())
    for suite in sorted({*known, *chosen}):
        criteria.write(criteria_dir / f"{suite}.csv", chosen.get(suite, []))
    for suite in sorted(set(chosen) - known):  # never silently unjudged: say what no suite file reads
        logger.warn(f"{len(chosen[suite])} criteria of suite {suite!r} are not judged: no suites/*/{suite}.robot")


def tools(suites: Iterable[str], crits: list[Criterion], profile: dict, lab: dict) -> set[str] | None:
    """The tools the suites' workloads run (their plans), None when one cannot say beforehand (no workload, or one
    that builds its commands while measuring)."""
    out: set[str] = set()
    for suite in suites:
        mine = [c for c in crits if c.suite == suite]
        if not mine:
            continue
        try:
            runs = workload(suite).plan(mine, profile, lab)
        except Exception:  # no workload, or one that cannot plan without the board: cannot tell
            return None
        if not runs:
            return None
        out |= {r.tool for r in runs}
    return out


def averaged_over(suite: str, var: Callable[..., object]) -> int:
    """How many runs each value of the suite's workload is the mean of (boot time: BOOT_CYCLES), 1 if none."""
    try:
        name, default = workload(suite).averaged_over
    except (ImportError, AttributeError):
        return 1
    return runvars.whole(name, var(name), default) if name else 1


def undecidable(crits: list[Criterion], selected: list[str], repeat: int, undecidable_at: Callable[..., bool],
                var: Callable[..., object]) -> dict[str, int]:  # fmt: skip
    """Per selected suite, how many of its criteria `repeat` runs cannot decide even on a board exactly at its
    published value (`undecidable_at(criterion, runs, averaged)`: perfgate.judge.Judge.undecidable)."""
    stuck: dict[str, int] = {}
    averaged: dict[str, int] = {}
    for c in crits:
        if c.suite not in averaged:
            averaged[c.suite] = averaged_over(c.suite, var)
        chosen = c.suite in selected or not selected
        at_value = undecidable_at(c, repeat, averaged[c.suite])
        if chosen and at_value:
            stuck[c.suite] = stuck.get(c.suite, 0) + 1
    return stuck


def warnings(crits: list[Criterion], selected: list[str], settings: Settings, undecidable_at: Callable[..., bool],
             var: Callable[..., object]) -> list[str]:  # fmt: skip
    """What the gate warns of when the run opens: criteria no run can decide, a lenient AGGREGATE."""
    stuck = undecidable(crits, selected, settings.repeat, undecidable_at, var)
    out = [w for w in [undecidable_warning(stuck, settings.repeat, settings.inconclusive)] if w]
    if settings.aggregate == "best":
        from perfgate.report.metrics import BEST_OF, LENIENT_BEST

        out.append(f"perfgate: {BEST_OF}: {LENIENT_BEST}")
    return out


def undecidable_warning(stuck: dict[str, int], repeat: int, inconclusive: str) -> str | None:
    """What the gate says at once of the criteria that will read inconclusive whatever the board does."""
    if not stuck:
        return None
    suites = ", ".join(f"{s} {n}" for s, n in sorted(stuck.items(), key=lambda x: -x[1]))
    return (
        f"perfgate: {sum(stuck.values())} criteria cannot be decided in REPEAT:{repeat} runs even at "
        f"their published value, their noise (the guide's own min/max, else history or variables/noise.yaml) "
        f"being wide against their tolerance ({suites}); they will read inconclusive"
        f"{' and fail the gate' if inconclusive == 'fail' else ''}: raise REPEAT (boot time: "
        f"BOOT_CYCLES), or widen their tolerance in variables/tolerances.yaml, or -v INCONCLUSIVE:pass"
    )
