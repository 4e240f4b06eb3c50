"""What moved between two runs: two releases on one board, or two boards of one SoC.

Criteria are matched by their id without the board prefix (`<suite>.<table>.<row>.<metric>`), so runs of
am62xx_sk and am62xx_lp_sk compare row by row. A change is a regression when run B is worse than run A, in the
criterion's direction, by more than the tolerance (B's entry, else A's, else the default or --tolerance);
an improvement when it is better by more than that. A criterion measured in A but not in B is a regression too.

A virtual run (sim, qemu) is never compared with a hardware run unless asked (`mix=True`), and then the
comparison says so (`mixed`).

Each criterion both runs measured, and each suite, is also judged by the two-sample rule a run's comparison with its
baseline uses (perfgate.baseline.pair): its change with an interval, and `worse`, `better`, `same` or `undecided`
(no detectable change: with the smallest regression the data could have found). A `worse` is a regression too.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from perfgate.baseline.pair import compare_runs
from perfgate.decision.verdict import Verdict
from perfgate.errors import PerfgateError
from perfgate.report.rundir import Run

DEFAULT_TOLERANCE = 0.05


@dataclass
class Change:
    key: str
    name: str
    suite: str
    unit: str
    direction: str
    a: float | None
    b: float | None
    change_pct: float | None
    tolerance: float
    kind: str  # regressed | improved | unchanged | lost (measured in A, not in B) | gained
    verdict_a: str | None
    verdict_b: str | None
    stat: dict | None = None  # the two-sample rule's change (perfgate.baseline.rule.Change.to_json)


@dataclass
class Comparison:
    a: str
    b: str
    release_a: str = ""  # the SDK release(s) each run was judged against (run.json)
    release_b: str = ""
    changes: list[Change] = field(default_factory=list)
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    mixed: str = ""  # why the two runs are of different kinds (virtual vs hardware), when forced to compare
    notes: list[str] = field(default_factory=list)  # e.g. a run that did not finish
    suites: dict[str, dict] = field(default_factory=dict)  # suite -> the two-sample rule's change of its rows

    def stat(self, *verdicts: str) -> list[Change]:
        return [c for c in self.changes if c.stat and c.stat.get("verdict") in verdicts]

    def of(self, *kinds: str) -> list[Change]:
        return [c for c in self.changes if c.kind in kinds]

    @property
    def regressed(self) -> bool:
        """Something regressed beyond tolerance, is no longer measured, or is worse by the two-sample rule."""
        worse_suite = any(v.get("verdict") == "worse" for v in self.suites.values())
        return bool(self.of("regressed", "lost") or self.stat("worse") or worse_suite)

    def to_json(self) -> dict:
        return {
            "a": self.a,
            "b": self.b,
            "release_a": self.release_a,
            "release_b": self.release_b,
            "mixed": self.mixed or None,
            "notes": self.notes,
            "regressed": [asdict(c) for c in self.of("regressed", "lost")],
            "improved": [asdict(c) for c in self.of("improved", "gained")],
            "unchanged": len(self.of("unchanged")),
            "verdict_changes": [asdict(c) for c in self.changes if c.verdict_a != c.verdict_b],
            "only_a": self.only_a,
            "only_b": self.only_b,
            "two_sample": {
                "worse": [asdict(c) for c in self.stat("worse")],
                "better": [asdict(c) for c in self.stat("better")],
                "same": len(self.stat("same")),
                "undecided": len(self.stat("undecided")),
                "suites": self.suites,
            },
        }


def key(entry: dict, board: str) -> str:
    """The id without its board prefix."""
    i = str(entry.get("id", ""))
    return i[len(board) + 1 :] if board and i.startswith(board + ".") else i


def _num(v: object) -> float | None:
    return float(v) if isinstance(v, int | float) else None


def _classify(a: float | None, b: float | None, direction: str, tol: float) -> tuple[str, float | None]:
    if a is None and b is None:
        return "unchanged", None
    if b is None:
        return "lost", None
    if a is None:
        return "gained", None
    if a == 0:
        return ("unchanged" if b == 0 else "regressed" if direction == "lower" else "improved"), None
    change = (b - a) / abs(a) * 100
    if direction == "match":
        return ("regressed" if abs(change) > tol * 100 else "unchanged"), change
    better = change if direction != "lower" else -change
    if better < -tol * 100:
        return "regressed", change
    if better > tol * 100:
        return "improved", change
    return "unchanged", change


def kinds(run_a: Run, run_b: Run) -> str:
    """Why the two runs must not be compared ("" when they are of one kind)."""
    if run_a.virtual == run_b.virtual:
        return ""
    return (f"{run_a.label} is a {run_a.kind} run (lab {run_a.meta.get('lab', '?')}), {run_b.label} a {run_b.kind} "
            f"run (lab {run_b.meta.get('lab', '?')}): a virtual board says nothing about hardware")  # fmt: skip


def compare(run_a: Run, run_b: Run, tolerance: float | None = None, mix: bool = False) -> Comparison:
    """Compare run B with run A. Runs of different kinds (virtual, hardware) raise PerfgateError unless `mix`."""
    clash = kinds(run_a, run_b)
    if clash and not mix:
        raise PerfgateError(f"will not compare a virtual run with a hardware run: {clash} (--mix to force)")
    ea = {key(e, run_a.board): e for e in run_a.entries}
    eb = {key(e, run_b.board): e for e in run_b.entries}
    result = Comparison(
        run_a.label, run_b.label, str(run_a.meta.get("release") or ""), str(run_b.meta.get("release") or "")
    )
    result.only_a = [k for k in ea if k not in eb]
    result.only_b = [k for k in eb if k not in ea]
    result.mixed = clash
    for run in (run_a, run_b):
        if run.state != "finished":
            result.notes.append(f"{run.label} did not finish ({run.state}): verdict INCOMPLETE, "
                                f"{len(run.never_ran())} criteria never ran")  # fmt: skip
    for k, b in eb.items():
        a = ea.get(k)
        if a is None:
            continue
        if a.get("verdict") == Verdict.SKIP and b.get("verdict") == Verdict.SKIP:
            continue
        tol = tolerance
        if tol is None:
            tol = _num(b.get("tolerance"))
            tol = tol if tol is not None else _num(a.get("tolerance"))
            tol = tol if tol is not None else DEFAULT_TOLERANCE
        direction = str(b.get("direction") or a.get("direction") or "higher")
        va, vb = _num(a.get("measured")), _num(b.get("measured"))
        kind, change = _classify(va, vb, direction, tol)
        result.changes.append(
            Change(
                k,
                str(b.get("name") or k),
                str(b.get("suite") or ""),
                str(b.get("unit") or ""),
                direction,
                va,
                vb,
                change,
                tol,
                kind,
                a.get("verdict"),
                b.get("verdict"),
            )
        )
    pair = compare_runs(run_a, run_b)
    for c in result.changes:
        if c.key in pair.changes:
            c.stat = pair.changes[c.key].to_json()
    result.suites = {s: ch.to_json() for s, ch in sorted(pair.suites.items())}
    result.changes.sort(key=lambda c: (c.suite, -(abs(c.change_pct) if c.change_pct is not None else 1e9)))
    return result
