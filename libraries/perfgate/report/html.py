"""comparison.html (one self-contained file per run) and the per-suite table logged into Robot's log."""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import jinja2
from markupsafe import Markup

from perfgate.report import atomic, rundir
from perfgate.report.metrics import FAILING, VERDICTS, counts, evidence_of, robot_test, suite_verdict, verdict_reason

COMPARISON_HTML = "comparison.html"
CHAPTERS = ["system", "boot", "uboot", "network", "storage", "crypto", "rt", "audio", "graphics", "multimedia",
            "power"]  # fmt: skip
VIRTUAL_BANNER = "VIRTUAL BOARD — simulated, not hardware"

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


def _chapter_key(chapter: str) -> tuple[int, str]:
    return (CHAPTERS.index(chapter) if chapter in CHAPTERS else len(CHAPTERS), chapter)


def group(entries: list[dict]) -> list[tuple[str, list[tuple[str, list[dict]]]]]:
    """[(chapter, [(suite, entries)])], chapters in the guides' order, suites and entries as recorded."""
    chapters: dict[str, dict[str, list[dict]]] = defaultdict(dict)
    for e in entries:
        chapter = str(e.get("chapter") or "other")
        chapters[chapter].setdefault(str(e.get("suite") or "other"), []).append(e)
    return [(c, list(chapters[c].items())) for c in sorted(chapters, key=_chapter_key)]


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
    return {
        "e": e,
        "test_id": tid,
        "longname": longname or e.get("name"),
        "evidence": evidence,
        "range": rng,
        "where": " · ".join(str(e[k]) for k in ("table", "row", "metric") if e.get(k)),
    }


def _suite_views(entries: list[dict], run_dir: Path | None, charts: bool) -> list[dict]:
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
                "rows": [_row(e, run_dir) for e in items],
                "chart": Markup(suite_chart(items, f"{chapter} / {suite}")) if charts else "",
                "histograms": _histograms(run_dir) if charts and run_dir and suite == "rt_latency" else [],
            })  # fmt: skip
    return views


def _histograms(run_dir: Path) -> list[tuple[str, Markup]]:
    """The cyclictest latency histograms kept in the run (one picture per capture with a histogram)."""
    from perfgate.report.histogram import run_histograms

    return [(name, Markup(svg)) for name, svg in run_histograms(run_dir).items()]


def suite_table_html(entries: list[dict]) -> str:
    """The HTML table of one suite's criteria for Robot's log (`logger.info(html, html=True)`): inline styles,
    test names linking to the tests in the same log."""
    return _env.get_template("suite_table.html.j2").render(
        rows=[_row(e, None) for e in entries], counts=counts(entries), verdicts=VERDICTS
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


def render(run: rundir.Run, charts: bool = True) -> str:
    entries = run.entries
    never = run.never_ran()
    return _env.get_template("comparison.html.j2").render(
        run=run,
        meta=run.meta,
        virtual=run.virtual,
        banner=VIRTUAL_BANNER,
        complete=run.state == "finished",
        state=run.state,
        reason=verdict_reason(run.meta, entries, never),
        never_ran=never_ran_by_suite(run, never),
        duration=_duration(run.meta),
        counts=counts(entries),
        verdict=run.verdict,
        robot=run.meta.get("robot"),
        # tests Robot failed without judging a criterion; a stopped run's are the tests it never ran (said above)
        unjudged=max(0, robot_failed(run.meta) - sum(1 for e in entries if e.get("verdict") in FAILING))
        if run.state == "finished"
        else 0,
        verdicts=VERDICTS,
        suites=_suite_views(entries, run.path, charts),
        log_href=log_href(run),
    )


def build(run_dir: Path, charts: bool = True) -> Path:
    """(Re)build <run_dir>/comparison.html from run.json and metrics.json; returns its path."""
    run = rundir.load(Path(run_dir))
    out = run.path / COMPARISON_HTML
    atomic.write_text(out, render(run, charts))
    return out
