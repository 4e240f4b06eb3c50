"""A metric, or a suite's ratio, across a board's runs (from results/<board>/history.jsonl).

- metric: the measured value per run, with the published value and its tolerance band.
- suite: per run, the geometric mean over the suite's measured criteria of the *goodness* ratio
  (measured/published where higher is better, published/measured where lower is better): 1.0 = as published.
- neither: the goodness of every suite, one line each.
"""

from __future__ import annotations

import fnmatch
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from perfgate.decision.verdict import Verdict
from perfgate.errors import PerfgateError

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass
class Point:
    run: str
    started: str
    value: float | None
    published: float | None = None
    tolerance: float | None = None
    verdict: str | None = None
    virtual: bool = False
    release: str = ""
    samples: list[float] = field(default_factory=list)  # the run's single values (each run of its command)


@dataclass
class Series:
    label: str  # a criterion id or a suite name
    name: str
    unit: str
    kind: str  # metric | suite
    points: list[Point] = field(default_factory=list)


def goodness(m: dict) -> float | None:
    meas, pub = m.get("measured"), m.get("published")
    if not isinstance(meas, int | float) or not isinstance(pub, int | float) or meas <= 0 or pub <= 0:
        return None
    return pub / meas if m.get("direction") == "lower" else meas / pub


def find_metrics(runs: list[dict], pattern: str) -> list[tuple[str, dict]]:
    """(id, latest entry) of the criteria matching: an exact id or name, else a glob, else a substring
    (case-insensitive, on id and name)."""
    latest: dict[str, dict] = {}
    for r in runs:
        latest.update(r["metrics"])
    p = pattern.lower()
    tests = [
        lambda i, m: i.lower() == p or str(m.get("name", "")).lower() == p,
        lambda i, m: fnmatch.fnmatchcase(i.lower(), p) or fnmatch.fnmatchcase(str(m.get("name", "")).lower(), p),
        lambda i, m: p in i.lower() or p in str(m.get("name", "")).lower(),
    ]
    for test in tests:
        found = [(i, m) for i, m in latest.items() if test(i, m)]
        if found:
            return found
    return []


def metric_series(runs: list[dict], criterion_id: str) -> Series:
    last = next(r["metrics"][criterion_id] for r in reversed(runs) if criterion_id in r["metrics"])
    s = Series(criterion_id, str(last.get("name") or criterion_id), str(last.get("unit") or ""), "metric")
    for r in runs:
        m = r["metrics"].get(criterion_id)
        if m is None:
            continue
        v = m.get("measured")
        s.points.append(
            Point(
                r["run"],
                str(r.get("started") or ""),
                v if isinstance(v, int | float) else None,
                m.get("published"),
                m.get("tolerance"),
                m.get("verdict"),
                bool(r.get("virtual")),
                str(r.get("release") or ""),
                [float(x) for x in m.get("samples") or [] if isinstance(x, int | float)],
            )
        )
    return s


def runs_with_values(series: list[Series]) -> int:
    """How many runs give the plot a value (a run without the criterion, or that did not measure it, gives none)."""
    return len({p.run for s in series for p in s.points if p.value is not None or p.samples})


def suite_series(runs: list[dict], suite: str) -> Series:
    s = Series(suite, f"{suite}: geometric mean of measured vs published", "ratio", "suite")
    for r in runs:
        ms = [m for m in r["metrics"].values() if m.get("suite") == suite]
        if not ms:
            continue
        ratios = [g for g in (goodness(m) for m in ms) if g is not None]
        value = math.exp(sum(math.log(g) for g in ratios) / len(ratios)) if ratios else None
        failing = sum(1 for m in ms if m.get("verdict") in (Verdict.FAIL, Verdict.NOT_MEASURED))
        s.points.append(
            Point(
                r["run"],
                str(r.get("started") or ""),
                value,
                1.0,
                None,
                Verdict.FAIL if failing else Verdict.PASS,
                bool(r.get("virtual")),
                str(r.get("release") or ""),
            )
        )
    return s


def suites_in(runs: list[dict]) -> list[str]:
    seen: dict[str, None] = {}
    for r in runs:
        for m in r["metrics"].values():
            if m.get("suite"):
                seen.setdefault(m["suite"], None)
    return list(seen)


def plot(series: list[Series], out: Path, title: str, samples: bool = False,
         marks: list[tuple[str, str]] | None = None) -> Path:  # fmt: skip
    """A PNG (or SVG, by the file's suffix) of the series, one x position per run (`samples`: the one series'
    samples as a distribution per run); `marks`: (run, label) of the change points to mark, each where its run
    begins."""
    fig = samples_figure(series[0], title) if samples else figure(series, title, marks=marks)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    return out


def png(series: list[Series], title: str, size: tuple[float, float] = (7.5, 3.0),
        marks: list[tuple[str, str]] | None = None) -> bytes:  # fmt: skip
    """The plot of the series as PNG bytes, `size` inches at 96 dpi (comparison.html embeds one per suite)."""
    import io

    buf = io.BytesIO()
    figure(series, title, size, marks).savefig(buf, format="png", dpi=96)
    return buf.getvalue()


def figure(series: list[Series], title: str, size: tuple[float, float] | None = None,
           marks: list[tuple[str, str]] | None = None) -> Figure:  # fmt: skip
    """The matplotlib Figure of the series, one x position per run (a run in the board's history); `marks`: (run,
    label) of change points, a dashed line just before the run where each began."""
    from matplotlib.figure import Figure

    from perfgate.report.charts import COLOURS

    if not series or not any(s.points for s in series):
        raise PerfgateError("nothing to plot: no run has a value for this selection")
    runs = sorted({(p.started, p.run) for s in series for p in s.points})
    x_of = {run: i for i, (_, run) in enumerate(runs)}
    fig = Figure(figsize=size or (max(6.0, 0.5 * len(runs) + 3), 4.2))
    ax = fig.add_subplot()
    single = len(series) == 1 and series[0].kind == "metric"
    for s in series:
        xs = [x_of[p.run] for p in s.points if p.value is not None]
        ys = [p.value for p in s.points if p.value is not None]
        ax.plot(xs, ys, marker="o" if not single else None, linewidth=1.2, label=s.label if not single else s.name)
        if single:
            pub = [(x_of[p.run], p.published, p.tolerance or 0.0) for p in s.points if p.published is not None]
            if pub:
                px, py, pt = zip(*pub, strict=True)
                ax.step(px, py, where="mid", color="#455a64", linestyle="--", linewidth=1, label="published")
                ax.fill_between(
                    px,
                    [v * (1 - t) for v, t in zip(py, pt, strict=True)],
                    [v * (1 + t) for v, t in zip(py, pt, strict=True)],
                    step="mid",
                    color="#dfe9f5",
                    label="tolerance",
                )
            pts = [p for p in s.points if p.value is not None]
            ax.scatter(
                [x_of[p.run] for p in pts],
                [p.value for p in pts],
                c=[COLOURS.get(str(p.verdict), "#000") for p in pts],
                zorder=3,
                s=28,
            )
    if len(series) == 1 and series[0].kind == "suite":  # one suite: each run's point in its verdict's colour
        pts = [p for p in series[0].points if p.value is not None]
        ax.scatter([x_of[p.run] for p in pts], [p.value for p in pts],
                   c=[COLOURS.get(str(p.verdict), "#000") for p in pts], zorder=3, s=28)  # fmt: skip
    for run, label in marks or []:
        if run in x_of:
            ax.axvline(x_of[run] - 0.5, color="#6a1b9a", linestyle="--", linewidth=1.2)
            ax.annotate(label, (x_of[run] - 0.45, 1.0), xycoords=("data", "axes fraction"), va="top", fontsize=7,
                        color="#6a1b9a", rotation=90)  # fmt: skip
    if not single:
        ax.axhline(1.0, color="#455a64", linestyle="--", linewidth=1)
        long = "measured / published\n(1.0 = as published, higher is better)"  # two lines: never cut by the figure
        ax.set_ylabel(long if size is None else "measured / published", fontsize=9 if size is None else 8)
    else:
        ax.set_ylabel(series[0].unit)
    labels = [
        run + (" (virtual)" if any(p.virtual for s in series for p in s.points if p.run == run) else "")
        for _, run in runs
    ]
    ax.set_xticks(range(len(runs)), labels, rotation=30, ha="right", fontsize=7)
    ax.set_title(title, fontsize=9, loc="left")
    ax.legend(fontsize=7, loc="best")
    ax.grid(color="#eeeeee")
    fig.tight_layout()
    return fig


def samples_figure(s: Series, title: str, size: tuple[float, float] | None = None) -> Figure:
    """One criterion's samples as a distribution per run: a box (quartiles, whiskers to 1.5 IQR) over the run's
    single values (a strip of dots), the published value and its tolerance band, the judged value as a diamond in
    its verdict's colour."""
    from matplotlib.figure import Figure

    from perfgate.report.charts import COLOURS

    pts = [p for p in s.points if p.samples or p.value is not None]
    if not pts:
        raise PerfgateError(f"nothing to plot: no run has samples of {s.label}")
    fig = Figure(figsize=size or (max(6.0, 0.6 * len(pts) + 3), 4.2))
    ax = fig.add_subplot()
    xs = list(range(len(pts)))
    boxed = [(x, p.samples) for x, p in zip(xs, pts, strict=True) if len(p.samples) >= 2]
    if boxed:
        ax.boxplot([v for _, v in boxed], positions=[x for x, _ in boxed], widths=0.5, showfliers=False,
                   medianprops={"color": "#37474f"}, boxprops={"color": "#90a4ae"},
                   whiskerprops={"color": "#90a4ae"}, capprops={"color": "#90a4ae"})  # fmt: skip
    for x, p in zip(xs, pts, strict=True):
        n = len(p.samples)
        jitter = [x + 0.18 * ((i / (n - 1)) - 0.5) if n > 1 else x for i in range(n)]
        ax.scatter(jitter, p.samples, s=12, color="#546e7a", alpha=0.7, zorder=3)
        if p.value is not None:
            ax.scatter([x], [p.value], marker="D", s=36, color=COLOURS.get(str(p.verdict), "#000"), zorder=4)
    pub = [(x, p.published, p.tolerance or 0.0) for x, p in zip(xs, pts, strict=True) if p.published is not None]
    if pub:
        px, py, pt = zip(*pub, strict=True)
        ax.step(px, py, where="mid", color="#455a64", linestyle="--", linewidth=1, label="published")
        ax.fill_between(px, [v * (1 - t) for v, t in zip(py, pt, strict=True)],
                        [v * (1 + t) for v, t in zip(py, pt, strict=True)], step="mid", color="#dfe9f5",
                        label="tolerance")  # fmt: skip
        ax.legend(fontsize=7, loc="best")
    labels = [f"{p.run}{' (virtual)' if p.virtual else ''}\nn={len(p.samples)}" for p in pts]
    ax.set_xticks(xs, labels, rotation=30, ha="right", fontsize=7)
    ax.set_xlim(-0.6, len(pts) - 0.4)
    ax.set_ylabel(s.unit or s.name, fontsize=9)
    ax.set_title(title, fontsize=9, loc="left")
    ax.grid(color="#eeeeee")
    fig.tight_layout()
    return fig
