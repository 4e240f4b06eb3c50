"""Which run is the board's baseline: `-v BASELINE:last-accepted` (the default: the board's last accepted run of the
same release in the same lab, from its history), `-v BASELINE:<run>` (a run directory, `<board>/<run>`, or a run name
of the board), or `none`. Hardware and virtual runs are never mixed: a named run of the other kind is an error.

"Accepted" is a finished run whose verdict was pass, with no fault injected. "The same release" is the release the
run was judged against (run.json `release`: a release line of the guides, e.g. 12.00.00)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.decision.verdict import RunVerdict, Verdict
from perfgate.errors import PerfgateError
from perfgate.report import history, rundir

LAST_ACCEPTED = "last-accepted"
NONE = "none"


@dataclass
class Baseline:
    run: str  # the run's name (its directory's)
    label: str  # [virtual/]<board>/<run>
    release: str
    lab: str
    virtual: bool
    started: str
    how: str  # last-accepted | named
    values: dict[str, list[float]] = field(default_factory=dict)  # criterion key (id without board) -> its values
    # last-accepted: the board's last accepted runs pooled (oldest first, `values` the last); a named run: itself
    pool: list[dict[str, list[float]]] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)  # the names of the pooled runs

    def groups(self, k: str) -> list[list[float]]:
        """A criterion's values in each pooled run that measured it (one boot each), oldest first."""
        return [p[k] for p in (self.pool or [self.values]) if p.get(k)]

    def describe(self) -> dict:
        """run.json's `baseline`."""
        return {"run": self.run, "label": self.label, "release": self.release, "lab": self.lab,
                "virtual": self.virtual, "started": self.started, "how": self.how,
                "criteria": len(self.values), "pooled": self.runs or [self.run]}  # fmt: skip


def key(cid: str, board: str) -> str:
    """A criterion id without its board prefix: runs of two boards of one SoC match row by row."""
    return cid[len(board) + 1 :] if board and cid.startswith(board + ".") else cid


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and v == v


def values_of(metrics: dict[str, dict] | list[dict], board: str) -> dict[str, list[float]]:
    """Each criterion's values in a run (metrics.json entries or a history record's `metrics`): every run of its
    command (`samples`), else its judged value."""
    items = metrics.items() if isinstance(metrics, dict) else ((str(e.get("id", "")), e) for e in metrics)
    out: dict[str, list[float]] = {}
    for cid, m in items:
        if not isinstance(m, dict) or m.get("verdict") in (Verdict.SKIP, Verdict.NOT_MEASURED):
            continue
        vals = [float(v) for v in (m.get("samples") or []) if _number(v)]
        if not vals and _number(m.get("measured")):
            vals = [float(m["measured"])]
        if vals:
            out[key(cid, board)] = vals
    return out


def accepted(rec: dict) -> bool:
    return rec.get("status") in (None, "finished") and rec.get("verdict") == RunVerdict.PASS and not rec.get("faults")


def last_accepted(board: str, virtual: bool, lab: str, release: str, exclude: str = "",
                  pool: int = 1) -> Baseline | None:  # fmt: skip
    """The board's last accepted run of `release` in `lab` (of the same kind), from its history, with up to `pool`
    accepted runs of that release and lab (the last included) pooled: the board's accepted history."""
    found = []
    for rec in reversed(history.read(history.path_for(board, virtual)).runs):
        if rec.get("run") == exclude or bool(rec.get("virtual")) != virtual or not accepted(rec):
            continue
        if str(rec.get("lab") or "") != lab or str(rec.get("release") or "") != release:
            continue
        found.append(rec)
        if len(found) >= pool:
            break
    if not found:
        return None
    rec = found[0]
    label = f"{paths.VIRTUAL + '/' if virtual else ''}{board}/{rec['run']}"
    runs = list(reversed(found))
    return Baseline(str(rec["run"]), label, release, lab, virtual, str(rec.get("started") or ""), LAST_ACCEPTED,
                    values_of(rec["metrics"], board), [values_of(r["metrics"], board) for r in runs],
                    [str(r["run"]) for r in runs])  # fmt: skip


def board_runs(board: str, virtual: bool, lab: str, exclude: str = "") -> dict[str, list[list[float]]]:
    """Each criterion's values in every accepted run of the board in `lab` (of the same kind, any release), one list
    per run, oldest first: the board's own noise, within a run and between runs (perfgate.baseline.noise)."""
    out: dict[str, list[list[float]]] = {}
    for rec in history.read(history.path_for(board, virtual)).runs:
        if rec.get("run") == exclude or bool(rec.get("virtual")) != virtual or not accepted(rec):
            continue
        if str(rec.get("lab") or "") != lab:
            continue
        for k, vals in values_of(rec["metrics"], board).items():
            out.setdefault(k, []).append(vals)
    return out


def named(spec: str, board: str, virtual: bool) -> Baseline:
    """A run named on the command line: a directory, `[virtual/]<board>/<run>`, or one of the board's run names."""
    own = paths.board_results(board, virtual) / spec
    if not own.is_dir() and "/" not in spec and not Path(spec).is_dir():
        runs = [p.name for p in rundir.runs_of(own.parent, virtual=virtual)][-5:]
        raise PerfgateError(f"variable BASELINE: no run {spec!r} of {board} in {own.parent} (its latest: "
                            f"{', '.join(runs) or 'none'}; or last-accepted, none, a run directory)")  # fmt: skip
    path = own if own.is_dir() else rundir.resolve(spec)
    run = rundir.load(Path(path))
    if run.virtual != virtual:
        kind = "virtual" if virtual else "hardware"
        raise PerfgateError(f"variable BASELINE: {run.label} is a {run.kind} run and this run is {kind}: hardware "
                            f"and virtual runs are never compared (-v BASELINE:{spec})")  # fmt: skip
    if run.state != "finished":
        raise PerfgateError(f"variable BASELINE: {run.label} did not finish ({run.state}): never a baseline")
    meta = run.meta
    return Baseline(run.name, run.label, str(meta.get("release") or ""), str(meta.get("lab") or ""), run.virtual,
                    str(meta.get("started") or ""), "named", values_of(run.entries, run.board))  # fmt: skip


def choose(spec: str | None, board: str, virtual: bool, lab: str, release: str, exclude: str = "",
           pool: int = 1) -> tuple[Baseline | None, str]:  # fmt: skip
    """(the baseline, why there is none). PerfgateError for a named run that cannot be one."""
    text = (spec or "").strip()
    if text.lower() in ("", LAST_ACCEPTED, "${none}"):
        found = last_accepted(board, virtual, lab, release, exclude, pool)
        if found is None:
            kind = "virtual" if virtual else "hardware"
            return None, (f"no accepted {kind} run of {board} judged against {release} in lab {lab} yet: this run is "
                          f"compared with the guide only")  # fmt: skip
        return found, ""
    if text.lower() == NONE:
        return None, "BASELINE:none: no comparison with an earlier run"
    return named(text, board, virtual), ""
