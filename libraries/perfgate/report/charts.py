"""The chart of one suite: measured/published ratio per criterion, the tolerance band around 1.0, a colour
per verdict. Rendered by matplotlib (Agg) as an inline SVG string, so comparison.html stays one file."""

from __future__ import annotations

import io
import math

import matplotlib
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend, faster import

matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "perfgate", "font.size": 8})

COLOURS = {"pass": "#2e7d32", "warn": "#e69500", "fail": "#c62828", "not-measured": "#6a1b9a", "skip": "#9e9e9e"}
ARROWS = {"higher": "↑", "lower": "↓", "match": "="}
MAX_LABEL = 52
X_LIMIT = 3.0  # ratios beyond are drawn at the edge with their value


def ratio(entry: dict) -> float | None:
    m, p = entry.get("measured"), entry.get("published")
    if not isinstance(m, int | float) or not isinstance(p, int | float) or p == 0:
        return None
    r = m / p
    return r if math.isfinite(r) else None


def band(entry: dict) -> float:
    """Half the tolerance band as a ratio: max(tolerance, absolute slack / published), as perfgate.verdict allows."""
    tol = entry.get("tolerance")
    rel = float(tol) if isinstance(tol, int | float) else 0.0
    absolute, published = entry.get("absolute"), entry.get("published")
    if isinstance(absolute, int | float) and isinstance(published, int | float) and published:
        rel = max(rel, abs(absolute / published))
    return rel


def _label(entry: dict) -> str:
    name = str(entry.get("name") or entry.get("id"))
    if len(name) > MAX_LABEL:
        name = name[: MAX_LABEL - 1] + "…"
    return f"{name} {ARROWS.get(str(entry.get('direction')), '')}".rstrip()


def suite_chart(entries: list[dict], title: str = "") -> str:
    """An SVG document (without XML prolog) of the suite's ratios; empty string when there is nothing to draw."""
    if not entries:
        return ""
    n = len(entries)
    ratios = [ratio(e) for e in entries]
    tols = [band(e) for e in entries]
    known = [r for r in ratios if r is not None]
    right = max(1.5, *(1 + t for t in tols), *(min(r, X_LIMIT) for r in known)) * 1.08
    left = min(0.5, *(1 - t for t in tols), *known) if known else 0.5
    left = max(0.0, left - 0.05)
    height = 0.75 + 0.19 * n
    fig = Figure(figsize=(8.0, height))
    # fixed margins instead of tight_layout(), which draws the figure twice: labels get 3.1 in on the left
    ax = fig.add_axes((3.1 / 8.0, 0.45 / height, 1 - 3.3 / 8.0, 1 - 0.75 / height))
    rects = [[(1 - t, i - 0.45), (1 + t, i - 0.45), (1 + t, i + 0.45), (1 - t, i + 0.45)] for i, t in enumerate(tols)]
    ax.add_collection(PolyCollection(rects, facecolors="#dfe9f5", edgecolors="none", zorder=1))
    ax.axvline(1.0, color="#455a64", linewidth=0.8, zorder=2)
    xs, cs, ys = [], [], []
    for i, (e, r) in enumerate(zip(entries, ratios, strict=True)):
        colour = COLOURS.get(str(e.get("verdict")), "#000000")
        if r is None:
            ax.text(1.0, i, "  " + str(e.get("verdict")), va="center", ha="left", color=colour, fontsize=7, zorder=3)
            continue
        shown = min(max(r, left), right / 1.08 if r > X_LIMIT else right)
        xs.append(shown)
        ys.append(i)
        cs.append(colour)
        if r > X_LIMIT:
            ax.text(shown, i, f" ×{r:.3g}", va="center", ha="left", color=colour, fontsize=7, zorder=3)
    ax.hlines(ys, 1.0, xs, colors=cs, linewidth=1.2, zorder=3)
    ax.scatter(xs, ys, c=cs, s=14, zorder=4)
    # row labels as plain texts: matplotlib Tick objects cost ~3 ms each, a text a fraction of that
    ax.set_yticks([])
    labels = ax.get_yaxis_transform()
    for i, e in enumerate(entries):
        ax.text(-0.01, i, _label(e), transform=labels, ha="right", va="center", fontsize=8)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(left, right)
    ax.set_xlabel("measured / published (↑ higher is better, ↓ lower is better; band = tolerance)")
    ax.grid(axis="x", color="#eeeeee", zorder=0)
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    return svg[svg.index("<svg") :]
