"""The metrics model: what one judged criterion records (FIELDS), the verdicts and how a run's verdict follows from
its entries, summary.csv's rows, run.json's state. The writers stand on it (recorder.py writes run.json, metrics.json
and summary.csv as the run goes; history.py, html.py, rundir.py read them back); it imports none of them.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from perfgate import procs
from perfgate.decision.verdict import FAILING, JUDGED, PASSING, RunVerdict, Verdict
from perfgate.errors import DataError
from perfgate.report import atomic

FIELDS: list[str] = [
    "id", "name", "board", "suite", "chapter", "table", "row", "metric", "unit", "measured", "published",
    "min", "max", "direction", "tolerance", "delta_pct", "verdict", "message", "tool", "evidence", "test",
]  # fmt: skip
VERDICTS: list[Verdict] = list(Verdict)  # worst first; FAILING, JUDGED, PASSING: perfgate.decision.verdict
SUMMARY_FIELDS: list[str] = [
    "chapter", "suite", "id", "name", "measured", "published", "min", "max", "unit", "direction",
    "tolerance", "delta_pct", "verdict", "message", "tool", "test",
]  # fmt: skip
METRICS_JSON = "metrics.json"
SUMMARY_CSV = "summary.csv"
RUN_JSON = "run.json"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def normalise(entry: dict) -> dict:
    """An entry with every field of FIELDS (missing ones None), in FIELDS order, numbers JSON-safe."""
    if not entry.get("id"):
        raise DataError(f"a metrics entry needs an id: {entry!r}")
    verdict = entry.get("verdict")
    if verdict not in VERDICTS:
        raise DataError(f"{entry['id']}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    out = {f: entry.get(f) for f in FIELDS}
    for k, v in entry.items():  # keep extra keys the gate adds, after the contract's fields
        out.setdefault(k, v)
    for f in ("measured", "published", "min", "max", "tolerance", "delta_pct"):
        v = out[f]
        if isinstance(v, float) and not math.isfinite(v):
            out[f] = None  # JSON has no NaN/inf; a non-finite measurement is no measurement
    return out


def counts(entries: Iterable[dict]) -> dict[Verdict, int]:
    c = Counter(e.get("verdict") for e in entries)
    return {v: c.get(v, 0) for v in VERDICTS}


RUN_STATES = ("running", "finished", "interrupted", "killed")


def gate_verdict(entries: Iterable[dict], robot_failed: int = 0, state: str = "finished") -> RunVerdict:
    """The run's verdict: `incomplete` when the run did not finish (interrupted, killed, or still running);
    `fail` when any criterion failed or was not measured, when no criterion was judged at all (every one skipped,
    or none recorded), or when Robot counted failed tests (a setup that failed before any criterion was judged);
    else `pass` (warnings pass). Never `pass` when nothing was measured or the run did not finish."""
    if state != "finished":
        return RunVerdict.INCOMPLETE
    entries = list(entries)
    if robot_failed or any(e.get("verdict") not in PASSING | {Verdict.SKIP} for e in entries):
        return RunVerdict.FAIL  # any verdict but these (a new one too) fails the run
    if not any(e.get("verdict") in PASSING for e in entries):
        return RunVerdict.FAIL  # nothing was measured: all skipped, or nothing recorded
    return RunVerdict.PASS


def suite_verdict(entries: Iterable[dict]) -> Verdict:
    """One suite's badge: `fail` on any failed or unmeasured criterion, `inconclusive` when its only failing
    criteria are undecided, `skip` when every criterion was skipped, else `pass`."""
    entries = list(entries)
    if any(e.get("verdict") in FAILING - {Verdict.INCONCLUSIVE} for e in entries):
        return Verdict.FAIL
    if any(e.get("verdict") == Verdict.INCONCLUSIVE for e in entries):
        return Verdict.INCONCLUSIVE
    return Verdict.PASS if any(e.get("verdict") in JUDGED for e in entries) else Verdict.SKIP


def nothing_measured(entries: Iterable[dict]) -> bool:
    return not any(e.get("verdict") in JUDGED for e in entries)


def skip_reasons(entries: Iterable[dict], limit: int = 8) -> str:
    """The skipped criteria's reasons, grouped: `40 × no storage device (storage.emmc); 12 × ...`."""
    c = Counter(str(e.get("message") or "no reason given").strip() for e in entries if e.get("verdict") == Verdict.SKIP)
    parts = [f"{n} × {reason}" for reason, n in c.most_common(limit)]
    rest = sum(c.values()) - sum(n for _, n in c.most_common(limit))
    if rest:
        parts.append(f"{rest} more")
    return "; ".join(parts)


def nothing_measured_message(entries: Iterable[dict]) -> str:
    entries = list(entries)
    skipped = sum(1 for e in entries if e.get("verdict") == Verdict.SKIP)
    if not entries:
        return "nothing was measured: no criterion was recorded"
    return f"nothing was measured: {skipped} of {len(entries)} criteria skipped ({skip_reasons(entries)})"


def run_state(meta: dict) -> str:
    """`finished`, `interrupted` (a signal stopped robot; its teardown recorded it), `running` (its process is
    still alive) or `killed` (run.json still says running but its process is gone, or a run.json of a version
    that wrote no status and no finish time)."""
    status = meta.get("status")
    if status in ("finished", "interrupted", "killed"):  # killed: marked by history.sweep_killed
        return status
    if status is None:
        return "finished" if meta.get("finished") else "killed"
    import socket

    if meta.get("host") not in (None, socket.gethostname()):
        return "running"  # another machine's run: cannot tell; it is incomplete either way
    return "running" if procs.alive(meta.get("pid"), meta.get("pid_started")) else "killed"


def run_verdict(meta: dict, entries: Iterable[dict]) -> RunVerdict:
    """The verdict of a recorded run, read back: its state, Robot's failures and its criteria (see gate_verdict)."""
    robot = meta.get("robot")
    failed = int(robot.get("failed", 0)) if isinstance(robot, dict) else 0
    if meta.get("inconclusive") == "pass":  # -v INCONCLUSIVE:pass: an undecided criterion counts as a pass
        entries = [{**e, "verdict": Verdict.PASS} if e.get("verdict") == Verdict.INCONCLUSIVE else e for e in entries]
    return gate_verdict(entries, failed, run_state(meta))


def robot_test(entry: dict) -> tuple[str | None, str | None]:
    """(Robot test id `s1-s2-t3`, long name) of an entry: `test` holds the id (or a dict {id, longname}),
    `test_name` the long name."""
    t = entry.get("test")
    name = entry.get("test_name")
    if isinstance(t, dict):
        return t.get("id"), t.get("longname") or t.get("name") or name
    if isinstance(t, str) and t:
        head, _, rest = t.partition(" ")
        if head.startswith("s") and "-t" in head:
            return head, rest or name
        return None, name or t
    return None, name


def evidence_of(entry: dict) -> list[str]:
    """The entry's evidence files (a list, or one path), relative to the run directory when they are inside it."""
    ev = entry.get("evidence")
    if not ev:
        return []
    return [str(x) for x in ev if x] if isinstance(ev, list | tuple) else [str(ev)]


def summary_csv(entries: Iterable[dict]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(SUMMARY_FIELDS)
    for e in entries:
        row = []
        for f in SUMMARY_FIELDS:
            v = e.get(f)
            if f == "test":
                tid, name = robot_test(e)
                v = name or tid
            elif isinstance(v, list | dict):
                v = json.dumps(v)
            row.append("" if v is None else v)
        w.writerow(row)
    return out.getvalue()


def invalid_samples(entries: Iterable[dict]) -> dict:
    """run.json's count of INVALID runs (set aside: a failed run, a throttled board) and their share of all runs."""
    entries = list(entries)
    bad = sum(len(e.get("invalid") or []) for e in entries)
    runs = bad + sum(len(e.get("samples") or []) for e in entries)
    return {"invalid_samples": bad, "invalid_rate": round(bad / runs, 4) if runs else 0.0}


def verdict_reason(meta: dict, entries: Iterable[dict], never_ran: list[str] | None = None) -> str:
    """Why the run has its verdict, in one line (console, run.json, comparison.html)."""
    entries = list(entries)
    inv = invalid_samples(entries)
    if inv["invalid_samples"] and run_state(meta) == "finished":
        bad = inv["invalid_samples"]
        return f"{_verdict_reason(meta, entries, never_ran)}; {bad} INVALID run{'s' if bad > 1 else ''} set aside " \
               f"({inv['invalid_rate'] * 100:.1f} % of runs)"  # fmt: skip
    return _verdict_reason(meta, entries, never_ran)


def _verdict_reason(meta: dict, entries: list[dict], never_ran: list[str] | None) -> str:
    state = run_state(meta)
    if state != "finished":
        never = meta.get("never_ran") if never_ran is None else never_ran
        judged = sum(1 for e in entries if e.get("verdict") in JUDGED and not e.get("never_ran"))
        how = {
            "interrupted": f"interrupted by {meta['signal']}"
            if meta.get("signal")
            else "Robot stopped it (a fatal error, or --exitonfailure)",
            "running": "still running (or its process is on another machine)",
            "killed": "killed: its process ended without finishing the run",
        }[state]
        return f"did not finish ({how}): {judged} criteria judged, {len(never or [])} never ran"
    c = counts(entries)
    if nothing_measured(entries):
        return nothing_measured_message(entries)
    undecided = c[Verdict.INCONCLUSIVE]
    lenient = meta.get("inconclusive") == "pass"
    failing = c[Verdict.FAIL] + c[Verdict.NOT_MEASURED] + (0 if lenient else undecided)
    robot = meta.get("robot") if isinstance(meta.get("robot"), dict) else {}
    said = f", {undecided} inconclusive" if undecided else ""
    said += " (INCONCLUSIVE:pass: not failing the gate)" if undecided and lenient else ""
    said += f" ({BEST_OF}, not the sequential verdict)" if meta.get("aggregate") == "best" else ""
    if failing:
        return f"{c[Verdict.FAIL]} criteria failed, {c[Verdict.NOT_MEASURED]} not measured{said}"
    if robot.get("failed"):
        return f"Robot failed {robot['failed']} test(s)"
    return f"{c[Verdict.PASS] + c[Verdict.WARN] + undecided} criteria judged, none failed{said}"


BEST_OF = "AGGREGATE:best judges the best of its runs"
LENIENT_BEST = (
    "the best of several runs has no noise model, so nothing reads inconclusive and a board that reaches its number "
    "once passes; the default, AGGREGATE:median, is the sequential verdict"
)


def update_meta(run_dir: Path, updates: dict) -> dict:
    """Merge `updates` into an existing run.json (atomically)."""
    path = Path(run_dir) / RUN_JSON
    meta = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    meta.update(updates)
    atomic.write_text(path, json.dumps(meta, indent=2, default=str) + "\n")
    return meta
