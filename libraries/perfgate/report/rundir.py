"""A run directory read back: results/<board>/<run>/{run.json, metrics.json}.

Runs are named on the command line by path, or relative to results/: `<board>/<run>`, `<board>/latest`,
`<board>/previous` (the one before latest), or just `<board>` (its latest run).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError, PerfgateError
from perfgate.report.metrics import METRICS_JSON, RUN_JSON

RUN_NAME = re.compile(r"^\d{8}-\d{6}")


@dataclass
class Run:
    path: Path
    meta: dict = field(default_factory=dict)
    entries: list[dict] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.meta.get("run") or self.path.name)

    @property
    def board(self) -> str:
        if self.meta.get("board"):
            return str(self.meta["board"])
        boards = {e.get("board") for e in self.entries if e.get("board")}
        return boards.pop() if len(boards) == 1 else self.path.parent.name

    @property
    def virtual(self) -> bool:
        return bool(self.meta.get("virtual"))

    @property
    def label(self) -> str:
        return f"{self.board}/{self.name}"


def _read_json(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(f"cannot read: {e.strerror}", path) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"not valid JSON: {e.msg}", path, e.lineno) from None


def load(run_dir: Path) -> Run:
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise PerfgateError("not a run directory", run_dir)
    meta_path, metrics_path = run_dir / RUN_JSON, run_dir / METRICS_JSON
    if not meta_path.exists() and not metrics_path.exists():
        raise PerfgateError(f"not a run directory (no {RUN_JSON} and no {METRICS_JSON})", run_dir)
    meta = _read_json(meta_path) if meta_path.exists() else {}
    if not isinstance(meta, dict):
        raise DataError("run.json must hold an object", meta_path, 1)
    entries = _read_json(metrics_path) if metrics_path.exists() else []
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise DataError("metrics.json must hold an array of objects", metrics_path, 1)
    return Run(run_dir, meta, entries)


def runs_of(board_dir: Path) -> list[Path]:
    """A board's run directories, oldest first (run names sort by time)."""
    if not board_dir.is_dir():
        return []
    return sorted(p for p in board_dir.iterdir() if p.is_dir() and RUN_NAME.match(p.name))


def resolve(name: str) -> Path:
    """A run directory from a path or a `<board>[/<run>|/latest|/previous]` name under results/."""
    p = Path(name)
    if p.is_dir() and ((p / RUN_JSON).exists() or (p / METRICS_JSON).exists()):
        return p
    board, _, which = name.strip("/").partition("/")
    board_dir = paths.results() / board
    runs = runs_of(board_dir)
    if not runs:
        raise PerfgateError(f"no such run directory, and no runs of a board {board!r} under {paths.results()}")
    if which in ("", "latest"):
        return runs[-1]
    if which == "previous":
        if len(runs) < 2:
            raise PerfgateError(f"{board} has only one run ({runs[-1].name})", board_dir)
        return runs[-2]
    candidate = board_dir / which
    if candidate.is_dir():
        return candidate
    raise PerfgateError(f"no run {which!r} of {board}; runs: {', '.join(r.name for r in runs[-5:])}", board_dir)
