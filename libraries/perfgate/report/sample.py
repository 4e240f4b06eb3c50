"""Synthetic-but-realistic metrics for the report's own tests, benchmark and demos: a board's criteria
(perfgate.criteria or a criteria JSON array) with measured values drawn around the published ones and a few
degraded. Never used by the gate itself: its verdicts come from perfgate.verdict."""

from __future__ import annotations

import random
from pathlib import Path

from perfgate.report.recorder import RunRecorder


def _verdict(measured: float | None, published: float, direction: str, tol: float) -> tuple[str, float | None]:
    if measured is None:
        return "not-measured", None
    delta = (measured - published) / published * 100 if published else 0.0
    better = delta if direction == "higher" else -delta
    if direction == "match":
        return ("pass" if abs(delta) <= tol * 100 else "fail"), delta
    if better < -tol * 100:
        return "fail", delta
    if better > tol * 100:
        return "warn", delta
    return "pass", delta


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
        messages = {"fail": "worse than published beyond tolerance", "warn": "better than published beyond tolerance",
                    "not-measured": "the workload output had no value for this metric"}  # fmt: skip
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
