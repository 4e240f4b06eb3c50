"""Progress lines for the console: what runs, for how long it is expected to run, and how it ended.

A workload can run for hours on hardware (the ethernet suite alone is about two) inside a suite setup, where
Robot prints nothing. The expected time comes from data the gate already keeps: the elapsed time of the same
command in the board's previous run (raw/<suite>/index.tsv); without one, the command's timeout is the bound.
"""

from __future__ import annotations

from pathlib import Path

MAX_COMMAND = 90
MAX_REASON = 160


def previous_durations(run_dir: Path) -> dict[tuple[str, str, str], float]:
    """(suite, where, command) -> seconds, from the newest earlier run of the same board that ran anything."""
    board_dir = run_dir.parent
    earlier = sorted((p for p in board_dir.iterdir() if p.is_dir() and p.name < run_dir.name), reverse=True)
    for run in earlier:
        found: dict[tuple[str, str, str], float] = {}
        for index in sorted(run.glob("raw/*/index.tsv")):
            for line in index.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split("\t", 3)
                if len(parts) == 4:
                    try:
                        found.setdefault((index.parent.name, parts[1], parts[3]), float(parts[2]))
                    except ValueError:
                        continue
        if found:
            return found
    return {}


def _short(command: str) -> str:
    command = " ".join(command.split())
    return command if len(command) <= MAX_COMMAND else command[: MAX_COMMAND - 3] + "..."


def _seconds(value: float) -> str:
    if value >= 120:
        return f"{value / 60:.0f} min"
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


def starting(suite: str, where: str, command: str, timeout: float, previous: float | None) -> str:
    place = {"uboot": "U-Boot", "host": "host"}.get(where, "board")
    if previous is not None:
        expected = f"expected ~{_seconds(previous)} (as in the last run), at most {_seconds(timeout)}"
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
