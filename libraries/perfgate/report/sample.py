"""Synthetic-but-realistic metrics for the report's own tests, benchmark and demos: a board's criteria
(perfgate.criteria or a criteria JSON array) with measured values drawn around the published ones and a few
degraded. Never used by the gate itself: its verdicts come from perfgate.decision.verdict."""

from __future__ import annotations

import random
from pathlib import Path

from perfgate.decision.verdict import FAIL, PASS, RunVerdict, Verdict
from perfgate.report.recorder import RunRecorder


def _verdict(measured: float | None, published: float, direction: str, tol: float) -> tuple[Verdict, float | None]:
    if measured is None:
        return Verdict.NOT_MEASURED, None
    delta = (measured - published) / published * 100 if published else 0.0
    better = delta if direction == "higher" else -delta
    if direction == "match":
        return (Verdict.PASS if abs(delta) <= tol * 100 else Verdict.FAIL), delta
    if better < -tol * 100:
        return Verdict.FAIL, delta
    if better > tol * 100:
        return Verdict.WARN, delta
    return Verdict.PASS, delta


def entries(criteria: list[dict], seed: int = 1, tolerance: float = 0.1, degraded: float = 0.05) -> list[dict]:
    """One judged entry per criterion: ~`degraded` of them 30 % worse, a few better, one not measured per 100."""
    rng = random.Random(seed)
    out = []
    suite_index: dict[str, int] = {}
    test_index: dict[str, int] = {}
    for c in criteria:
        published = float(c["value"])
        direction = str(c.get("direction") or "higher")
        suite = str(c["suite"])
        s = suite_index.setdefault(suite, len(suite_index) + 1)
        t = test_index[suite] = test_index.get(suite, 0) + 1
        roll = rng.random()
        factor = rng.gauss(1.0, 0.03)
        if roll < degraded:
            factor = 0.7 if direction == "higher" else 1.3
        elif roll < degraded * 1.6:
            factor = 1.25 if direction == "higher" else 0.8
        measured = None if roll > 0.99 else round(published * factor, 4)
        verdict, delta = _verdict(measured, published, direction, tolerance)
        messages = {Verdict.FAIL: "worse than published beyond tolerance",
                    Verdict.WARN: "better than published beyond tolerance",
                    Verdict.NOT_MEASURED: "the workload output had no value for this metric"}  # fmt: skip
        out.append({
            **{k: c.get(k) for k in ("id", "name", "board", "suite", "chapter", "table", "row", "metric", "unit",
                                      "min", "max")},
            "measured": measured, "published": published, "direction": direction, "tolerance": tolerance,
            "delta_pct": None if delta is None else round(delta, 2), "verdict": verdict,
            "message": messages.get(verdict, ""), "tool": suite, "evidence": [f"raw/{suite}/{suite}-1.txt"],
            "test": f"s1-s{s}-t{t}", "test_name": f"Suites.{suite}.{c['name']}", "absolute": 0.0,
        })  # fmt: skip
    return out


def record_run(run_dir: Path, criteria: list[dict], meta: dict, seed: int = 1, finish: bool = True) -> RunRecorder:
    """A whole synthetic run in run_dir through the real RunRecorder (and evidence files beside it)."""
    rec = RunRecorder(run_dir, meta)
    for e in entries(criteria, seed):
        raw = run_dir / e["evidence"][0]
        raw.parent.mkdir(parents=True, exist_ok=True)
        if not raw.exists():
            raw.write_text(f"(synthetic output of {e['suite']})\n", encoding="utf-8")
        rec.record(e)
    if finish:
        rec.finish({})
    return rec


# ------------------------------------------------------------------------------------------------ every verdict
# A constructed run with every verdict kind of the decisive verdict (issue 20) in it, for comparison.html's tests and
# screenshots: the noise each verdict used (perfgate.decision.judge.noise_entry's `noise`), inconclusive criteria (the
# message ends "; INCONCLUSIVE: ..."), skipped ones, `limited` criteria held to a wider tolerance (pass and fail; the
# message carries "LIMITED: ..."), and a history of earlier runs beside it. The shapes follow metrics.json as
# perfgate.run.recording.entry() writes it; the values are drawn, not measured.
POOLED = "this run, pooled over {rows} rows of the suite (0.42 x the guide min/max {shape:.1f}%)"
LIMITED_REASON = "its noise needs {runs} runs to decide at ±{tol:.0f}%, its budget allows {budget}"


def _noise(rng: random.Random, suite_rows: int, runs: int) -> dict:
    sd = rng.uniform(0.004, 0.04)
    return {"sd": round(sd, 6), "df": round(runs - 1 + rng.uniform(4, 30), 1), "sd_fail": round(sd * 1.3, 6),
            "source": POOLED.format(rows=suite_rows, shape=sd * 240), "runs": runs}  # fmt: skip


def every_verdict_entries(criteria: list[dict], seed: int = 1) -> list[dict]:
    """entries() with the decisive verdict's fields: samples and noise on every measured criterion, and per suite
    (in the criteria's order) some criteria inconclusive, skipped or limited, so every kind is on the page."""
    rng = random.Random(seed)
    out = entries(criteria, seed)
    rows = {s: sum(1 for e in out if e["suite"] == s) for s in {e["suite"] for e in out}}
    for i, e in enumerate(out):
        if e["measured"] is None:
            continue
        runs = rng.choice((3, 3, 5, 8, 20))
        e["samples"] = [round(e["measured"] * rng.gauss(1.0, 0.01), 4) for _ in range(runs)]
        e["noise"] = _noise(rng, rows[e["suite"]], runs)
        if i % 41 == 7:
            e["noise"]["guide_spread_not_used"] = "its min is another row's min (a paired bw_mem row)"
        if i % 37 == 11 and e["verdict"] in (Verdict.PASS, Verdict.WARN):
            e["verdict"] = Verdict.INCONCLUSIVE
            e["message"] = (f"{e['name']}: within tolerance at the median; INCONCLUSIVE: {runs} runs cannot tell "
                            f"whether it is above or below its threshold at the gate's error rate")  # fmt: skip
        elif i % 53 == 20 and e["verdict"] == Verdict.PASS:
            e.update(verdict=Verdict.SKIP, measured=None, samples=[], message="no storage device (storage.emmc)")
            e.pop("noise")
    for i, verdict in ((4, PASS), (30, FAIL)):  # limited: one holds, one fails the wider tolerance
        e = out[i]
        if e["measured"] is None:
            continue
        tol = float(e["tolerance"])
        worse = -1 if e["direction"] == "higher" else 1
        wider = tol + 0.22
        threshold = e["published"] * (1 + worse * wider)
        measured = e["published"] * (1 + worse * (0.12 if verdict == PASS else 0.45))
        detect = 41.5 if verdict == PASS else 33.0
        reason = LIMITED_REASON.format(runs=64, tol=tol * 100, budget=5)
        e.update(verdict=verdict, measured=round(measured, 4),
                 delta_pct=round((measured - e["published"]) / e["published"] * 100, 2),
                 limited={"threshold": round(threshold, 4), "tolerance_pct": round(wider * 100, 2),
                          "own_tolerance_pct": round(tol * 100, 2), "detectable_pct": detect, "reason": reason},
                 message=f"{e['name']}: measured {measured:.6g}, published {e['published']:.6g}: LIMITED: {reason}: "
                         f"{'holds' if verdict == PASS else 'fails it'}; the smallest regression from published its "
                         f"runs could fail: {detect:.0f}%")  # fmt: skip
    return out


def history_records(criteria: list[dict], board: str, runs: int = 5, virtual: bool = True) -> list[dict]:
    """`runs` earlier passing runs of the board as history.jsonl holds them (perfgate.report.history.record_of's
    shape), one a day before 2026-11-22, each suite drifting a little from run to run."""
    out = []
    for n in range(runs):
        es = entries(criteria, seed=100 + n, degraded=0.0)
        for e in es:  # healthy runs: a criterion the draw left unmeasured reads as published
            if e["verdict"] not in (Verdict.PASS, Verdict.WARN):
                e.update(measured=e["published"], verdict=Verdict.PASS)
        day = 22 - runs + n
        out.append({
            "run": f"202611{day:02d}-080000", "path": f"202611{day:02d}-080000", "board": board, "lab": "sim",
            "virtual": virtual, "started": f"2026-11-{day:02d}T08:00:00+00:00", "status": "finished",
            "verdict": RunVerdict.PASS, "metrics": {e["id"]: {k: e.get(k) for k in ("suite", "name", "unit", "measured",
                                           "published", "direction", "tolerance", "verdict")} for e in es},
        })  # fmt: skip
    return out


def record_every_verdict_run(run_dir: Path, criteria: list[dict], meta: dict, history_runs: int = 5) -> RunRecorder:
    """The constructed run of every_verdict_entries() in run_dir, with `history_runs` earlier runs in the board's
    history beside it (run_dir/../history.jsonl), recorded and finished through the real RunRecorder."""
    import json

    from perfgate.report.history import HISTORY

    run_dir.parent.mkdir(parents=True, exist_ok=True)
    board = str(meta.get("board") or run_dir.parent.name)
    lines = [json.dumps(r, separators=(",", ":")) + "\n" for r in history_records(criteria, board, history_runs)]
    (run_dir.parent / HISTORY).write_text("".join(lines), encoding="utf-8")
    rec = RunRecorder(run_dir, {"started": "2026-11-22T08:00:00+00:00", **meta})
    for e in every_verdict_entries(criteria):
        raw = run_dir / e["evidence"][0]
        raw.parent.mkdir(parents=True, exist_ok=True)
        raw.write_text(f"(synthetic output of {e['suite']})\n", encoding="utf-8")
        rec.record(e)
    rec.finish({"finished": "2026-11-22T09:12:00+00:00"})
    return rec
