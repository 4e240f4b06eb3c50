"""How many runs a command may take while its numbers are undecided, and what a gate costs in lab time.

variables/budget.yaml: a command of a few seconds may run up to `max_runs` times, one of minutes `min_runs`; a suite's
reruns together take at most `rerun_share` of one pass of its commands (or `rerun_floor` seconds); REPEAT caps all.
The planned seconds of a command come from the same file, by tool (or by suite for workloads that build their
commands while they measure): the lab time the gate plans and reports is hardware time, whatever board runs it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths, tools
from perfgate.datafile import line_of, load_mapping
from perfgate.errors import DataError

KEYS = (
    "short_seconds",
    "min_runs",
    "max_runs",
    "rerun_share",
    "rerun_floor",
    "default_seconds",
    "max_boots",
    "boot_seconds",
    "seconds",
    "suites",
    "per_table",
)


@dataclass(frozen=True)
class Budget:
    short_seconds: float = 120.0
    min_runs: int = 3
    max_runs: int = 20
    rerun_share: float = 0.5
    rerun_floor: float = 120.0
    default_seconds: float = 60.0
    max_boots: int = 1  # the most boots a suite's runs may be spread over (1: never boot again for a decision)
    boot_seconds: float = 60.0  # planned hardware seconds of one boot to the shell
    seconds: dict[str, float] = field(default_factory=dict)  # tool -> planned seconds of one command
    suites: dict[str, float] = field(default_factory=dict)  # suite -> planned seconds of its one command
    repeat: int | None = None  # REPEAT: the user's cap on every command's runs
    per_table: frozenset[str] = frozenset()  # suites whose one unplanned command prints a whole table

    def planned(self, suite: str, tool: str | None = None) -> float:
        """Planned hardware seconds of one run of one command of the suite (by its tool when it has one)."""
        if tool is not None and tool in self.seconds:
            return self.seconds[tool]
        return self.suites.get(suite, self.seconds.get(suite, self.default_seconds))

    def runs_for(self, seconds: float) -> int:
        """The most runs of a command of `seconds`: short_seconds / seconds, within [min_runs, max_runs], capped by
        REPEAT."""
        runs = math.floor(self.short_seconds / seconds) if seconds > 0 else self.max_runs
        runs = max(self.min_runs, min(self.max_runs, runs))
        return min(runs, self.repeat) if self.repeat is not None else runs

    def rerun_seconds(self, one_pass: float) -> float:
        """How much lab time a suite's reruns may take in all, given one pass of its commands."""
        return max(self.rerun_floor, self.rerun_share * one_pass)


def data_path() -> Path:
    return paths.variables() / "budget.yaml"


def _positive(value: object, key: str, path: Path) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DataError(f"{key}: {value!r} is not a number", path, line_of(path, key.rpartition(".")[2])) from None
    if not number > 0:
        raise DataError(f"{key}: {value!r} must be positive", path, line_of(path, key.rpartition(".")[2]))
    return number


def load(repeat: int | None = None, path: Path | None = None) -> Budget:
    """variables/budget.yaml, with REPEAT's cap (a bad key or value names the file and line)."""
    path = path or data_path()
    data = load_mapping(path, "a mapping with " + ", ".join(KEYS))
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise DataError(f"unknown key {unknown[0]!r} (expected {', '.join(KEYS)})", path, line_of(path, unknown[0]))
    scalars = {k: _positive(data[k], k, path) for k in KEYS[:8] if k in data}
    tables: dict[str, dict[str, float]] = {}
    for key in ("seconds", "suites"):
        table = data.get(key) or {}
        if not isinstance(table, dict):
            raise DataError(f"{key}: must be a mapping of name to seconds", path, line_of(path, key))
        tables[key] = {str(k): _positive(v, f"{key}.{k}", path) for k, v in table.items()}
    known = tools.cards()  # `seconds:` is by tool: a name no tool's card has would silently plan the default
    for name in tables["seconds"]:
        if name not in known:
            raise DataError(f"seconds.{name}: no such tool (tools: {', '.join(known)})", path, line_of(path, name))
    per_table = data.get("per_table") or []
    if not isinstance(per_table, list) or not all(isinstance(s, str) for s in per_table):
        raise DataError("per_table: must be a list of suite names", path, line_of(path, "per_table"))
    b = Budget(**{k: int(v) if k in ("min_runs", "max_runs", "max_boots") else v for k, v in scalars.items()},
               **tables, repeat=repeat, per_table=frozenset(per_table))  # type: ignore[arg-type]  # fmt: skip
    if b.min_runs > b.max_runs:
        raise DataError(f"min_runs {b.min_runs} is more than max_runs {b.max_runs}", path, line_of(path, "min_runs"))
    if b.rerun_share > 10:
        raise DataError(f"rerun_share: {b.rerun_share} is out of range (0 .. 10)", path, line_of(path, "rerun_share"))
    return b
