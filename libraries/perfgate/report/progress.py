"""Progress lines for the console: which suite of how many, how long the rest of the run should take, what runs,
for how long it is expected to run, and how it ended.

A workload can run for hours on hardware (the ethernet suite alone is about two) inside a suite setup, where
Robot prints nothing. The expected times come from data the gate already keeps: the elapsed time of every command
in the board's earlier runs (raw/<suite>/index.tsv of each run directory). A command's expected time is the median
of its newest KEEP recorded durations, from whichever earlier runs ran it (a `-i system` run does not hide the
network suite's times of the full run before it); a suite's, the median of its commands' total per earlier run
that ran it (reruns included); the whole run's, the sum over the suites still to come. Without any, the command's
timeout is the bound and the suite is said to be untimed.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path

MAX_COMMAND = 90
MAX_REASON = 160
KEEP = 5  # recorded durations per command (and per suite) that the expected time is the median of
MAX_RUNS = 200  # earlier run directories read, newest first


@dataclass
class Timings:
    """The board's recorded durations, newest first: per command (suite, where, command) and per suite."""

    commands: dict[tuple[str, str, str], list[float]] = field(default_factory=dict)
    suites: dict[str, list[float]] = field(default_factory=dict)

    def command(self, suite: str, where: str, command: str) -> tuple[float, int] | None:
        """(the expected seconds, how many earlier runs it is the median of); None when never recorded."""
        found = self.commands.get((suite, where, command))
        return (statistics.median(found), len(found)) if found else None

    def suite(self, suite: str) -> float | None:
        found = self.suites.get(suite)
        return statistics.median(found) if found else None


def read_index(index: Path) -> list[tuple[str, str, float]]:
    """(where, command, seconds) of each command a run's raw/<suite>/index.tsv recorded."""
    out = []
    for line in index.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split("\t", 3)
        if len(parts) == 4:
            try:
                out.append((parts[1], parts[3], float(parts[2])))
            except ValueError:
                continue
    return out


def timings(run_dir: Path) -> Timings:
    """The durations recorded by the board's runs before `run_dir` (its siblings), newest first, up to KEEP each."""
    board_dir = run_dir.parent
    t = Timings()
    if not board_dir.is_dir():
        return t
    earlier = sorted((p for p in board_dir.iterdir() if p.is_dir() and p.name < run_dir.name), reverse=True)
    for run in earlier[:MAX_RUNS]:
        for index in sorted(run.glob("raw/*/index.tsv")):
            suite, rows = index.parent.name, read_index(index)
            if not rows:
                continue
            seen: set[tuple[str, str, str]] = set()
            for where, command, seconds in rows:
                key = (suite, where, command)
                found = t.commands.setdefault(key, [])
                if key not in seen and len(found) < KEEP:  # one value per run: its first run of the command
                    found.append(seconds)
                seen.add(key)
            totals = t.suites.setdefault(suite, [])
            if len(totals) < KEEP:
                totals.append(sum(seconds for _, _, seconds in rows))
    return t


def previous_durations(run_dir: Path) -> dict[tuple[str, str, str], float]:
    """(suite, where, command) -> expected seconds, from the board's earlier runs (see `timings`)."""
    t = timings(run_dir)
    return {k: statistics.median(v) for k, v in t.commands.items() if v}


def _short(command: str) -> str:
    command = " ".join(command.split())
    return command if len(command) <= MAX_COMMAND else command[: MAX_COMMAND - 3] + "..."


def _seconds(value: float) -> str:
    if value >= 120:
        return f"{value / 60:.0f} min"
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


def starting(suite: str, where: str, command: str, timeout: float, previous: tuple[float, int] | None) -> str:
    """`previous`: the expected seconds and how many earlier runs they are the median of."""
    place = {"uboot": "U-Boot", "host": "host"}.get(where, "board")
    if previous is not None:
        seconds, runs = previous
        said = "as in the one earlier run that ran it" if runs == 1 else f"median of {runs} earlier runs"
        expected = f"expected ~{_seconds(seconds)} ({said}), at most {_seconds(timeout)}"
    else:
        expected = f"no earlier run to time it by, at most {_seconds(timeout)}"
    return f"perfgate: {suite}: {place}$ {_short(command)}  [{expected}]"


def finished(suite: str, elapsed: float, error: BaseException | None = None) -> str:
    if error is None:
        return f"perfgate: {suite}: done in {_seconds(elapsed)}"
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if len(first) > MAX_REASON:  # the whole reason is in the log and in every criterion's message
        first = first[: MAX_REASON - 3] + "..."
    return f"perfgate: {suite}: FAILED after {_seconds(elapsed)}: {first}"


def suite_line(suite: str, order: list[str], criteria: int, t: Timings) -> str:
    """`suite N of M` and how long this suite and the ones after it should take, by the board's history."""
    n = order.index(suite) + 1 if suite in order else 0
    where = f"suite {n} of {len(order)}" if n else "suite"
    rest = order[n - 1 :] if n else [suite]
    known = [x for x in (t.suite(s) for s in rest) if x is not None]
    untimed = len(rest) - len(known)
    if not known:
        left = "no earlier run of the board to time the rest by"
    else:
        left = f"~{_seconds(sum(known))} to the end of the run by the board's earlier runs"
        if untimed:
            left += f" ({untimed} of the {len(rest)} suites never timed)"
    return f"perfgate: {where}: {suite} ({criteria} criteria); {left}"
