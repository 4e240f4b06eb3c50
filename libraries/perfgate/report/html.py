"""comparison.html (one self-contained file per run) and the per-suite table logged into Robot's log.

Failures first: the page opens with the criteria that fail the gate (failed, not measured, then inconclusive), then
the criteria held to a wider tolerance (`limited`), then one section per suite, the suites with the worst
verdicts first and each suite's rows by severity (failed, not measured, inconclusive, passed with warning, passed,
skipped; the run's order within a verdict). Each verdict shows the noise it used; each suite its trend across the
board's history (perfgate.report.trend) when the history holds earlier runs of it.
"""

from __future__ import annotations

import base64
import os
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import jinja2
from markupsafe import Markup

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.decision import validity
from perfgate.decision.verdict import Verdict
from perfgate.report import atomic, history, rundir
from perfgate.report.charts import COLOURS
from perfgate.report.metrics import VERDICTS, counts, evidence_of, robot_test, suite_verdict, verdict_reason
from perfgate.report.strip import strip_svg

COMPARISON_HTML = "comparison.html"
VIRTUAL_BANNER = "VIRTUAL BOARD — simulated, not hardware"
ATTENTION = (Verdict.FAIL, Verdict.NOT_MEASURED, Verdict.INCONCLUSIVE)  # the criteria listed first, in this order
TREND_RUNS = 30  # the runs of the board's history a suite's trend shows (the newest)

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def fmt(value: object) -> str:
    """A number as a person reads it: 7142857 -> 7,142,857; 1263.86 -> 1263.86; 0.0123 -> 0.0123."""
    if value is None or value == "":
        return "—"
    if not isinstance(value, int | float):
        return str(value)
    v = float(value)
    if abs(v) >= 1e5:
        return f"{v:,.0f}"
    if abs(v) >= 100:
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return f"{v:.4g}"


def pct(value: object, signed: bool = True) -> str:
    if not isinstance(value, int | float):
        return "—"
    return f"{value:+.1f} %" if signed else f"±{value * 100:.0f} %"


_env.filters.update(num=fmt, pct=pct)


def chapters() -> list[str]:
    """The chapters in the guides' order: variables/sections.yaml's `chapters` (the suites/ folders)."""
    return [str(c) for c in load_mapping(paths.variables() / "sections.yaml").get("chapters") or {}]


def _chapter_key(chapter: str, order: list[str] | None = None) -> tuple[int, str]:
    order = chapters() if order is None else order
    return (order.index(chapter) if chapter in order else len(order), chapter)


def severity(entry: dict) -> int:
    """0 for a failed criterion, then not measured, inconclusive, passed with warning, passed, skipped (VERDICTS)."""
    v = entry.get("verdict")
    return VERDICTS.index(v) if v in VERDICTS else -1  # a verdict the page does not know: first, never hidden


def by_severity(entries: list[dict]) -> list[dict]:
    """The entries worst first, the run's order within a verdict."""
    return sorted(entries, key=severity)


def noise_text(e: dict) -> tuple[str, str]:
    """(cell, tooltip) of the noise a criterion's verdict used: its relative sd per value and the runs it rests on;
    the tooltip says where the noise came from, its degrees of freedom, the sd a FAIL was held to, and the guide
    spread left out as an artefact."""
    n = e.get("noise")
    if not isinstance(n, dict) or not isinstance(n.get("sd"), int | float):
        return ("", str(n.get("guide_spread_not_used") or "")) if isinstance(n, dict) else ("", "")
    runs = n.get("runs")
    cell = f"±{n['sd'] * 100:.1f} %" + (f" · {runs} run{'s' if runs != 1 else ''}" if runs else "")
    tip = [f"sd {n['sd'] * 100:.2f} % per value", f"{n['df']:g} df" if isinstance(n.get("df"), int | float) else ""]
    if isinstance(n.get("sd_fail"), int | float):
        tip.append(f"a FAIL held to sd {n['sd_fail'] * 100:.2f} %")
    if n.get("source"):
        tip.append(f"from {n['source']}")
    if n.get("guide_spread_not_used"):
        tip.append(f"the guide's min/max not used: {n['guide_spread_not_used']}")
    return cell, "; ".join(t for t in tip if t)


def baseline_text(e: dict) -> dict | None:
    """The criterion against its baseline run (metrics.json `baseline`): its verdict, the change as a cell and the
    interval, the smallest regression it could find and the noise it used as a tooltip. None when it has none."""
    b = e.get("baseline")
    if not isinstance(b, dict) or not b.get("verdict"):
        return None
    change = b.get("change_pct")
    cell = f"{change:+.1f} %" if isinstance(change, int | float) else ""
    tip = [f"against run {b.get('run')}"]
    if isinstance(b.get("low_pct"), int | float) and isinstance(b.get("high_pct"), int | float):
        tip.append(f"{(b.get('level') or 0.9) * 100:.0f} % interval {b['low_pct']:+.1f} % to {b['high_pct']:+.1f} %")
    if isinstance(b.get("tolerance"), int | float):
        tip.append(f"tolerance ±{b['tolerance'] * 100:g} %")
    if isinstance(b.get("detectable_pct"), int | float):
        tip.append(f"the smallest regression it finds: {b['detectable_pct']:.1f} %")
    if b.get("n_a") is not None:
        tip.append(f"{b.get('n_a')} vs {b.get('n_b')} values")
    if b.get("noise_class"):
        tip.append(f"noise: {b['noise_class']}")
    if b.get("reason"):
        tip.append(str(b["reason"]))
    return {"verdict": str(b["verdict"]), "cell": cell, "tip": "; ".join(tip), **b}


def group(entries: list[dict]) -> list[tuple[str, list[tuple[str, list[dict]]]]]:
    """[(chapter, [(suite, entries)])], chapters in the guides' order, suites and entries as recorded."""
    by: dict[str, dict[str, list[dict]]] = defaultdict(dict)
    for e in entries:
        chapter = str(e.get("chapter") or "other")
        by[chapter].setdefault(str(e.get("suite") or "other"), []).append(e)
    order = chapters()
    return [(c, list(by[c].items())) for c in sorted(by, key=lambda c: _chapter_key(c, order))]


def _row(e: dict, run_dir: Path | None) -> dict:
    tid, longname = robot_test(e)
    evidence = []
    for f in evidence_of(e) if run_dir is not None else []:
        p = Path(f) if Path(f).is_absolute() else run_dir / f
        href = os.path.relpath(p, run_dir)
        evidence.append({"href": href, "label": Path(f).name, "exists": p.exists()})
    rng = ""
    if isinstance(e.get("min"), int | float) and isinstance(e.get("max"), int | float):
        rng = f"min {fmt(e['min'])}, max {fmt(e['max'])}"
    noise, noise_tip = noise_text(e)
    limited = e.get("limited") if isinstance(e.get("limited"), dict) else None
    unit = str(e.get("unit") or "")
    samples = strip_svg(e.get("samples") or [], e.get("published"), e.get("tolerance"), e.get("direction"),
                        e.get("measured"), unit)  # fmt: skip
    return {
        "e": e,
        "invalid": len(e.get("invalid") or []),
        "invalid_tip": "; ".join(str(i.get("reason")) for i in e.get("invalid") or [] if isinstance(i, dict)),
        "noise": noise,
        "noise_tip": noise_tip,
        "limited": limited,
        "test_id": tid,
        "longname": longname or e.get("name"),
        "evidence": evidence,
        "range": rng,
        "where": " · ".join(str(e[k]) for k in ("table", "row", "metric") if e.get(k)),
        "samples": Markup(samples),
        "baseline": baseline_text(e),
    }


def _suite_views(entries: list[dict], run_dir: Path | None, charts: bool, trends: dict[str, Markup]) -> list[dict]:
    """One view per suite, the suites with the worst verdict first (chapters in the guides' order within a verdict),
    each suite's rows by severity."""
    if charts:
        from perfgate.report.charts import suite_chart  # matplotlib only when a chart is drawn
    views = []
    for chapter, suites in group(entries):
        for suite, items in suites:
            c = counts(items)
            views.append({
                "chapter": chapter,
                "suite": suite,
                "anchor": f"suite-{suite}",
                "counts": c,
                "verdict": suite_verdict(items),
                "worst": min((severity(e) for e in items), default=len(VERDICTS)),
                "rows": [_row(e, run_dir) for e in by_severity(items)],
                "chart": Markup(suite_chart(items, f"{chapter} / {suite}")) if charts else "",
                "trend": trends.get(suite, ""),
                "histograms": _histograms(run_dir) if charts and run_dir and suite == "rt_latency" else [],
            })  # fmt: skip
    return sorted(views, key=lambda v: v["worst"])  # stable: chapters in order within a verdict


def trend_images(run: rundir.Run, suites: list[str]) -> dict[str, Markup]:
    """{suite: an <img> of its trend (perfgate.report.trend's suite ratio, a PNG inline)} over the newest TREND_RUNS
    runs of the board's history up to this run (the history.jsonl beside the run directory), for each suite the
    history has in at least one run besides this one. Empty when the board has no such history."""
    runs = history.read(run.path.parent / history.HISTORY).runs
    started = str(run.meta.get("started") or "")
    runs = [r for r in runs if r["run"] == run.name or not started or str(r.get("started") or "") <= started]
    if not any(r["run"] == run.name for r in runs):  # this run is not in the history yet (still running)
        runs.append({"run": run.name, "started": started, "virtual": run.virtual, "release": run.meta.get("release"),
                     "metrics": {e["id"]: e for e in run.entries if e.get("id")}})  # fmt: skip
    runs = runs[-TREND_RUNS:]
    from perfgate.baseline import changes, config
    from perfgate.baseline.pair import as_criterion
    from perfgate.report import trend

    cfg = config.load()
    out = {}
    for suite in suites:
        series = trend.suite_series(runs, suite)
        if sum(1 for p in series.points if p.value is not None) < 2:
            continue
        tols = sorted(cfg.of(as_criterion(e)).tolerance for e in run.entries if e.get("suite") == suite)
        began = changes.in_history([(p.run, p.release, p.started, p.value) for p in series.points],
                                   min_magnitude=tols[len(tols) // 2] if tols else 0.0)  # fmt: skip
        marks = [(b.run, f"{b.run}{f' SDK {b.release}' if b.release else ''} {b.point.change_pct:+.1f}%")
                 for b in began]  # fmt: skip
        title = f"{run.board} · {suite}: measured vs published, last {len(series.points)} runs"
        data = base64.b64encode(trend.png([series], title, marks=marks)).decode("ascii")
        alt = f"trend of {suite} over {len(series.points)} runs"
        said = "".join(f'<li data-change-run="{b.run}">a change began at run {b.run}'
                       f"{f' (SDK {b.release})' if b.release else ''}: {b.point.change_pct:+.1f} % "
                       f"(p {b.point.pvalue:.2g})</li>" for b in began)  # fmt: skip
        changes_list = f'<ul class="changes">{said}</ul>' if said else ""
        out[suite] = Markup(f'<img class="trend" alt="{alt}" src="data:image/png;base64,{data}">{changes_list}')
    return out


BASELINE_ORDER = ("worse", "better", "undecided", "same")  # how the section lists the criteria


def baseline_view(run: rundir.Run, entries: list[dict]) -> dict:
    """comparison.html's section "against the last accepted run": which run, or why none; each suite's verdict;
    the criteria worse and better first (then undecided and the same), with their change and interval."""
    meta = run.meta.get("baseline")
    if not isinstance(meta, dict):
        return {"meta": None}
    rows = [_row(e, run.path) for e in entries if baseline_text(e) is not None]
    rows.sort(key=lambda r: BASELINE_ORDER.index(r["baseline"]["verdict"]) if r["baseline"]["verdict"] in
              BASELINE_ORDER else -1)  # fmt: skip
    counts_by = {v: sum(1 for r in rows if r["baseline"]["verdict"] == v) for v in BASELINE_ORDER}
    suites = meta.get("suites") if isinstance(meta.get("suites"), dict) else {}
    return {"meta": meta, "rows": rows, "counts": counts_by, "suites": sorted(suites.items())}


def _histograms(run_dir: Path) -> list[tuple[str, Markup]]:
    """The cyclictest latency histograms kept in the run (one picture per capture with a histogram)."""
    from perfgate.report.histogram import run_histograms

    return [(name, Markup(svg)) for name, svg in run_histograms(run_dir).items()]


def suite_table_html(entries: list[dict]) -> str:
    """The HTML table of one suite's criteria for Robot's log (`logger.info(html, html=True)`): inline styles,
    test names linking to the tests in the same log."""
    return _env.get_template("suite_table.html.j2").render(
        rows=[_row(e, None) for e in by_severity(entries)], counts=counts(entries), verdicts=VERDICTS, colours=COLOURS
    )


def _duration(meta: dict) -> str:
    try:
        s = datetime.fromisoformat(str(meta["started"]))
        f = datetime.fromisoformat(str(meta["finished"]))
        secs = int((f - s).total_seconds())
    except (KeyError, TypeError, ValueError):  # absent, or one naive and one aware timestamp
        return ""
    return f"{secs // 3600}:{secs // 60 % 60:02d}:{secs % 60:02d}"


def robot_failed(meta: dict) -> int:
    robot = meta.get("robot")
    return int(robot.get("failed", 0)) if isinstance(robot, dict) else 0


def log_href(run: rundir.Run) -> str:
    """Where Robot's log is, relative to the run directory: its copy there (perfgate.robot.listener or
    `perfgate report`), else where Robot writes it (at the very end of the run), else where a copy will be."""
    if (run.path / "log.html").exists():
        return "log.html"
    log = run.meta.get("log")
    if log and str(log).upper() != "NONE":
        return os.path.relpath(Path(str(log)).resolve(), run.path.resolve()).replace(os.sep, "/")
    return "log.html"


def never_ran_by_suite(run: rundir.Run, never: list[str]) -> list[tuple[str, int]]:
    """[(suite, how many of its criteria never ran)] in the order the run selected its suites."""
    by_suite: dict[str, int] = {}
    suites = {str(e.get("id")): str(e.get("suite")) for e in run.entries}
    for cid in never:
        suite = suites.get(cid) or cid[len(run.board) + 1 :].split(".", 1)[0]
        by_suite[suite] = by_suite.get(suite, 0) + 1
    return list(by_suite.items())


def unjudged_failures(meta: dict, entries: list[dict], state: str) -> int:
    """Tests Robot failed without judging a criterion (a setup or a data error). A failed or unmeasured criterion
    is a failed test; an inconclusive one is a skipped test, and the `Gate Verdict` test fails for them (unless
    INCONCLUSIVE:pass). A stopped run's are the tests it never ran (said elsewhere on the page)."""
    if state != "finished":
        return 0
    c = counts(entries)
    gate_test = 1 if c[Verdict.INCONCLUSIVE] and meta.get("inconclusive") != "pass" else 0
    return max(0, robot_failed(meta) - c[Verdict.FAIL] - c[Verdict.NOT_MEASURED] - gate_test)


def render(run: rundir.Run, charts: bool = True) -> str:
    entries = run.entries
    never = run.never_ran()
    suites = [s for _, items in group(entries) for s, _ in items]
    trends = trend_images(run, suites) if charts else {}
    attention = by_severity([e for e in entries if e.get("verdict") in ATTENTION])
    return _env.get_template("comparison.html.j2").render(
        run=run,
        meta=run.meta,
        virtual=run.virtual,
        banner=VIRTUAL_BANNER,
        complete=run.state == "finished",
        state=run.state,
        reason=verdict_reason(run.meta, entries, never),
        board_state=validity.describe(run.meta["board_state"]) if isinstance(run.meta.get("board_state"), dict) else "",
        never_ran=never_ran_by_suite(run, never),
        duration=_duration(run.meta),
        counts=counts(entries),
        verdict=run.verdict,
        robot=run.meta.get("robot"),
        unjudged=unjudged_failures(run.meta, entries, run.state),
        verdicts=VERDICTS,
        attention=[_row(e, run.path) for e in attention],
        limited=[_row(e, run.path) for e in by_severity([e for e in entries if isinstance(e.get("limited"), dict)])],
        baseline=baseline_view(run, entries),
        trends=bool(trends),
        suites=_suite_views(entries, run.path, charts, trends),
        log_href=log_href(run),
    )


def build(run_dir: Path, charts: bool = True) -> Path:
    """(Re)build <run_dir>/comparison.html from run.json and metrics.json; returns its path."""
    run = rundir.load(Path(run_dir))
    out = run.path / COMPARISON_HTML
    atomic.write_text(out, render(run, charts))
    return out
