"""A run directory read back: results/<board>/<run>/{run.json, metrics.json}.

Runs are filed by lab kind: results/<board>/<run>/ for hardware, results/virtual/<board>/<run>/ for a virtual board
(sim, qemu). They are named on the command line by path, or relative to results/: `<board>/<run>`,
`<board>/latest`, `<board>/previous` (the one before latest), or just `<board>` (its latest run) name the board's
hardware runs (its virtual ones when it has no hardware run); `virtual/<board>/...` names its virtual runs.
`latest` and `previous` never cross from one kind to the other.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError, PerfgateError
from perfgate.report.metrics import METRICS_JSON, RUN_JSON, run_state, run_verdict

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
    def kind(self) -> str:
        return "virtual" if self.virtual else "hardware"

    @property
    def label(self) -> str:
        return f"{paths.VIRTUAL + '/' if self.virtual else ''}{self.board}/{self.name}"

    @property
    def state(self) -> str:
        """finished, interrupted, running or killed (see perfgate.report.metrics.run_state)."""
        return run_state(self.meta)

    @property
    def verdict(self) -> str:
        return run_verdict(self.meta, self.entries)

    @property
    def faults(self) -> str:
        return str(self.meta.get("faults") or "")

    def never_ran(self) -> list[str]:
        """The criteria this run selected but never judged: as recorded by an interrupted run, or, for a run that
        was killed, every criterion of its selected suites (run.json `suites`) that has no entry."""
        if self.meta.get("never_ran"):
            return list(self.meta["never_ran"])
        if self.state == "finished":
            return []
        judged = {e.get("id") for e in self.entries if not e.get("never_ran")}
        out = [str(e["id"]) for e in self.entries if e.get("never_ran")]
        from perfgate import criteria

        for suite in self.meta.get("suites") or []:
            f = self.path / "criteria" / f"{suite}.csv"
            if f.exists():
                out += [c.id for c in criteria.read(f) if c.id not in judged and c.id not in out]
        return out


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


def _is_virtual(run_dir: Path) -> bool | None:
    try:
        meta = json.loads((run_dir / RUN_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return bool(meta.get("virtual")) if isinstance(meta, dict) else None


def runs_of(board_dir: Path, virtual: bool | None = None) -> list[Path]:
    """A board's run directories, oldest first (run names sort by time). With `virtual`, only runs of that kind
    (a run filed before runs were filed by kind may sit in the hardware directory: its run.json decides)."""
    if not board_dir.is_dir():
        return []
    runs = sorted(p for p in board_dir.iterdir() if p.is_dir() and RUN_NAME.match(p.name))
    if virtual is None:
        return runs
    return [p for p in runs if _is_virtual(p) in (virtual, None)]


def resolve(name: str) -> Path:
    """A run directory from a path or a `[results/][virtual/]<board>[/<run>|/latest|/previous]` name under
    results/."""
    p = Path(name)
    if p.is_dir() and ((p / RUN_JSON).exists() or (p / METRICS_JSON).exists()):
        return p
    rest = name.strip("/")
    for prefix in (str(paths.results()).strip("/"), "results"):  # results/<board>/latest: the same name, as a path
        if rest.startswith(prefix + "/"):
            rest = rest[len(prefix) + 1 :]
            break
    explicit = rest.startswith(paths.VIRTUAL + "/")
    if explicit:
        rest = rest[len(paths.VIRTUAL) + 1 :]
    board, _, which = rest.partition("/")
    virtual = explicit or not runs_of(paths.board_results(board, False), virtual=False)
    board_dir = paths.board_results(board, virtual)
    runs = runs_of(board_dir, virtual=virtual)
    if not runs:
        raise PerfgateError(f"no such run directory, and no runs of a board {board!r} under {paths.results()}")
    if which in ("", "latest"):
        return runs[-1]
    if which == "previous":
        if len(runs) < 2:
            raise PerfgateError(f"{board} has only one run ({runs[-1].name})", board_dir)
        return runs[-2]
    for candidate in (board_dir / which, paths.board_results(board, not virtual) / which):
        if candidate.is_dir():  # a run named exactly is found whatever its kind
            return candidate
    raise PerfgateError(f"no run {which!r} of {board}; runs: {', '.join(r.name for r in runs[-5:])}", board_dir)
