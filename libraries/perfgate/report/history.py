"""A board's history: results/<board>/history.jsonl for its hardware runs, results/virtual/<board>/history.jsonl
for its virtual ones (sim, qemu): one JSON line per run (appended by RunRecorder.finish, or by
`python -m perfgate report --history` for a run that was killed). An interrupted or killed run is kept with its
`status` and the verdict `incomplete`.

A line holds the run's metadata, its counts and verdict, and every criterion's measured/published value, so
trends survive the deletion of old run directories. Re-appending a run replaces it (the last line wins).
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.decision.verdict import RunVerdict
from perfgate.report import rundir
from perfgate.report.metrics import RUN_JSON, counts, run_state, run_verdict, update_meta, verdict_reason

HISTORY = "history.jsonl"
KEPT = ("suite", "name", "unit", "measured", "published", "direction", "tolerance", "verdict", "samples")
META = ("board", "lab", "virtual", "guide", "release", "started", "finished", "command")


@dataclass
class History:
    path: Path
    runs: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "file:line: why" for lines that were skipped


def path_for(board: str, virtual: bool = False) -> Path:
    """The history of the board's hardware runs, or (virtual) of its runs on virtual boards."""
    return paths.board_results(board, virtual) / HISTORY


def record_of(run: rundir.Run) -> dict:
    rec = {"run": run.name, "path": run.path.name, **{k: run.meta.get(k) for k in META}}
    rec["board"] = run.board
    rec["virtual"] = run.virtual
    rec["faults"] = run.faults or None
    rec["status"] = run_state(run.meta)
    rec["counts"] = counts(run.entries)
    rec["verdict"] = run_verdict(run.meta, run.entries)
    never = run.never_ran()
    rec["verdict_reason"] = verdict_reason(run.meta, run.entries, never)
    if never:
        rec["never_ran"] = len(never)
    rec["metrics"] = {e["id"]: {k: e.get(k) for k in KEPT} for e in run.entries if e.get("id")}
    return rec


def append(run_dir: Path) -> Path:
    """Append the run in run_dir to the history beside it (run_dir/../history.jsonl)."""
    run = rundir.load(run_dir)
    target = Path(run_dir).resolve().parent / HISTORY
    line = json.dumps(record_of(run), separators=(",", ":"), default=str) + "\n"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)
    return target


def read(path: Path) -> History:
    """The runs of a history file, oldest first, one per run name; broken lines are skipped and reported."""
    h = History(Path(path))
    if not h.path.exists():
        return h
    by_run: dict[str, dict] = {}
    with h.path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                h.problems.append(f"{h.path}:{n}: skipped, not valid JSON ({e.msg})")
                continue
            if not isinstance(rec, dict) or "run" not in rec or not isinstance(rec.get("metrics"), dict):
                h.problems.append(f"{h.path}:{n}: skipped, not a run record")
                continue
            by_run.pop(rec["run"], None)
            by_run[rec["run"]] = rec
    h.runs = sorted(by_run.values(), key=lambda r: (str(r.get("started") or ""), r["run"]))
    return h


def measured_values(path: Path) -> dict[str, list[list[float]]]:
    """Each criterion's single-run values over the board's finished, unfaulted, passing runs in a history file, one
    list per run (a gate run is a boot: its samples are the runs of its command within that boot), or its judged
    value where a record keeps no samples (an older history). The noise a healthy board of the lab has shown within a
    boot and from boot to boot: perfgate.decision.sequential's prior for the criterion in place of its class figures
    (an A/A calibration campaign records exactly this: README, "Calibration")."""
    out: dict[str, list[list[float]]] = {}
    for rec in read(path).runs:
        if rec.get("status") not in (None, "finished") or rec.get("faults") or rec.get("verdict") != RunVerdict.PASS:
            continue
        for cid, m in rec["metrics"].items():
            if not isinstance(m, dict):
                continue
            samples = [v for v in (m.get("samples") or []) if _number(v)]
            value = m.get("measured")
            values = samples or ([value] if _number(value) else [])
            if values:
                out.setdefault(cid, []).append([float(v) for v in values])
    return {cid: runs for cid, runs in out.items() if runs}


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def sweep_killed(board_dir: Path) -> list[Path]:
    """Runs in board_dir whose robot was killed (run.json still says `running`, its process is gone): mark them
    `killed` in run.json and add them to the history as INCOMPLETE, so a killed run is never silently missing.
    The gate calls this when it opens a run; returns the runs it swept."""
    swept = []
    for run_dir in rundir.runs_of(Path(board_dir)):
        try:
            meta = json.loads((run_dir / RUN_JSON).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or meta.get("status") != "running" or run_state(meta) != "killed":
            continue
        update_meta(run_dir, {"status": "killed", "verdict": RunVerdict.INCOMPLETE})
        append(run_dir)
        swept.append(run_dir)
    return swept
