"""The plan: criteria -> suites -> commands. Which criteria each suite judges (the criteria files DataDriver reads),
which tools the selected suites' workloads run, which commands measure which criteria and for how long, and which
criteria the runs their budget allows cannot decide at their tolerance."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from perfgate import criteria, paths, runvars
from perfgate.decision.budget import Budget
from perfgate.decision.suite_decision import Command
from perfgate.model import Criterion
from perfgate.run.settings import Settings
from perfgate.workloads.base import Workload

if TYPE_CHECKING:
    from perfgate.decision.judge import Judge


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


def commands(suite: str, crits: list[Criterion], profile: dict, lab: dict, plan_budget: Budget) -> list[Command]:
    """The suite's commands as its workload plans them, each with the criteria its output measures and its planned
    hardware seconds (variables/budget.yaml). A workload that builds its commands while it measures (network,
    storage) runs about one command per table row (a throughput and its CPU load from one run), or per table (the
    budget's `per_table` suites: every rail of a suspend): each counts as one command of its suite's seconds."""
    try:
        runs = workload(suite).plan(crits, profile, lab)
    except Exception:  # no workload, or one that cannot plan without the board
        runs = []
    out: list[Command] = []
    covered: set[str] = set()
    for r in runs:
        ids = tuple(dict.fromkeys(cid for group in r.keys.values() for cid in group if cid not in covered))
        if ids:
            out.append(Command(r.command, plan_budget.planned(suite, r.tool) * r.times, ids))
            covered |= set(ids)
    rows: dict[tuple[str, str], list[str]] = {}  # what no planned command measures: a command per table row
    for c in crits:
        if c.id not in covered:
            rows.setdefault((c.table, "" if suite in plan_budget.per_table else c.row), []).append(c.id)
    out += [Command(f"{suite}: {table}" + (f" / {row}" if row else ""), plan_budget.planned(suite), tuple(ids))
            for (table, row), ids in rows.items()]  # fmt: skip
    return out


def most_runs(cmds: list[Command], plan_budget: Budget) -> dict[str, int]:
    """Criterion id -> the most runs its command may take (its own cap, and what its suite's rerun budget holds)."""
    rerun = plan_budget.rerun_seconds(sum(c.seconds for c in cmds))
    return {cid: min(plan_budget.runs_for(c.seconds), 1 + int(rerun // c.seconds)) for c in cmds for cid in c.ids}


def allocate(judge: Judge, crits: list[Criterion], selected: list[str], settings: Settings, profile: dict, lab: dict,
             var: Callable[..., object]) -> None:  # fmt: skip
    """When the run opens: which criteria the whole gate keeps at their own tolerance
    (perfgate.decision.judge.Judge.allocate), from every selected suite's commands as the runner will plan them."""
    assert settings.budget is not None
    by_suite: dict[str, list[Criterion]] = {}
    for c in crits:
        if c.suite in selected or not selected:
            by_suite.setdefault(c.suite, []).append(c)
    judge.allocate({suite: (mine, commands(suite, mine, profile, lab, settings.budget), averaged_over(suite, var))
                    for suite, mine in by_suite.items()})  # fmt: skip


def undecidable(crits: list[Criterion], selected: list[str], settings: Settings, profile: dict, lab: dict,
                undecidable_at: Callable[..., bool], var: Callable[..., object]
                ) -> dict[str, list[Criterion]]:  # fmt: skip
    """Per selected suite, its criteria that the runs its budget allows cannot decide even on a board exactly at its
    published value (`undecidable_at(criterion, runs, averaged)`: perfgate.decision.judge.Judge.undecidable)."""
    assert settings.budget is not None
    stuck: dict[str, list[Criterion]] = {}
    by_suite: dict[str, list[Criterion]] = {}
    for c in crits:
        if c.suite in selected or not selected:
            by_suite.setdefault(c.suite, []).append(c)
    for suite, mine in by_suite.items():
        runs = most_runs(commands(suite, mine, profile, lab, settings.budget), settings.budget)
        averaged = averaged_over(suite, var)
        for c in mine:
            if undecidable_at(c, runs.get(c.id, settings.budget.min_runs), averaged):
                stuck.setdefault(suite, []).append(c)
    return stuck


def warnings(crits: list[Criterion], selected: list[str], settings: Settings, profile: dict, lab: dict,
             undecidable_at: Callable[..., bool], var: Callable[..., object]) -> list[str]:  # fmt: skip
    """What the gate warns of when the run opens: criteria no run can decide, a lenient AGGREGATE."""
    stuck = undecidable(crits, selected, settings, profile, lab, undecidable_at, var)
    out = [w for w in [undecidable_warning(stuck, settings.repeat, settings.inconclusive)] if w]
    if settings.aggregate == "best":
        from perfgate.report.metrics import BEST_OF, LENIENT_BEST

        out.append(f"perfgate: {BEST_OF}: {LENIENT_BEST}")
    return out


def undecidable_warning(stuck: dict[str, list[Criterion]], repeat: int | None, inconclusive: str) -> str | None:
    """What the gate says at once of the criteria its budget cannot hold to their tolerance, whatever the board does:
    held instead to the tolerance their runs can decide (LIMITED)."""
    if not stuck:
        return None
    crits = [c for cs in stuck.values() for c in cs]
    suites = ", ".join(f"{s} {len(cs)}" for s, cs in sorted(stuck.items(), key=lambda x: -len(x[1])))
    cap = f"REPEAT:{repeat}" if repeat is not None else "variables/budget.yaml"
    return (
        f"perfgate: {len(crits)} criteria cannot be held to their tolerance within the runs and boots {cap} allows, "
        f"even at their published value, with the gate's error rates: their noise before this run shows its own "
        f"(their class in variables/noise.yaml, their guide's published range, or the board's history) is wide "
        f"against their tolerance ({suites}). They are held to the tolerance their runs can decide (LIMITED in their "
        f"test and listed apart in comparison.html, with the smallest regression each can fail). Calibrate the board "
        f'(README, "Calibration": its own noise replaces the class\'s), widen their tolerance in '
        f"variables/tolerances.yaml, or give their commands more runs in variables/budget.yaml"
    )
