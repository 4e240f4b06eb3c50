"""The chart of one suite: measured/published ratio per criterion, the tolerance band around 1.0, a colour
per verdict, a tooltip per row. Written directly as an inline SVG string, so comparison.html stays one file.

(Drawn by hand rather than with matplotlib: a full am62xx_sk report has ~20 charts and 300+ rows, which
matplotlib needs 2-3 s for, import included; this takes milliseconds and stays crisp at any zoom.
Trend plots, one image per command, use matplotlib.)
"""

from __future__ import annotations

import math
from html import escape

from perfgate.decision.verdict import Verdict

COLOURS = {  # a failure is red or purple; inconclusive (undecided: a SKIP in Robot's reports) is blue, never red
    Verdict.PASS: "#2e7d32",
    Verdict.WARN: "#e69500",
    Verdict.FAIL: "#c62828",
    Verdict.NOT_MEASURED: "#6a1b9a",
    Verdict.INCONCLUSIVE: "#1565c0",
    Verdict.SKIP: "#9e9e9e",
}
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
    """Half the tolerance band as a ratio: max(tolerance, absolute slack / published), as the verdict allows
    (perfgate.decision.verdict)."""
    tol = entry.get("tolerance")
    rel = float(tol) if isinstance(tol, int | float) else 0.0
    absolute, published = entry.get("absolute"), entry.get("published")
    if isinstance(absolute, int | float) and isinstance(published, int | float) and published:
        rel = max(rel, abs(absolute / published))
    return rel


def _label(entry: dict) -> str:
    name = str(entry.get("name") or entry.get("id"))
    table = str(entry.get("table") or "")
    if table and name.startswith(table + " · "):  # the suite's chart is about its tables already
        name = name[len(table) + 3 :]
    if len(name) > MAX_LABEL:
        name = name[: MAX_LABEL - 1] + "…"
    return f"{name} {ARROWS.get(str(entry.get('direction')), '')}".rstrip()


WIDTH, LABEL_W, PLOT_X0, PLOT_X1 = 820, 332, 340, 800
ROW_H, TOP, BOTTOM = 16, 26, 40


def _ticks(left: float, right: float) -> list[float]:
    step = 0.25 if right - left <= 2.2 else 0.5
    while (right - left) / step > 40:  # never thousands of grid lines, whatever the axis spans
        step *= 2
    first = math.ceil(left / step) * step
    return [round(first + i * step, 2) for i in range(int((right - first) / step + 1e-9) + 1)]


def suite_chart(entries: list[dict], title: str = "") -> str:
    """An SVG document (no XML prolog) of the suite's ratios; empty string when there is nothing to draw."""
    if not entries:
        return ""
    n = len(entries)
    ratios = [ratio(e) for e in entries]
    tols = [band(e) for e in entries]
    known = [r for r in ratios if r is not None]
    # a LIMITED criterion's band can be thousands of percent wide (REPEAT:1 holds some to what one run decides): the
    # axis stops at X_LIMIT like the ratios, the band drawn to its edge
    right = max(1.5, *(min(1 + t, X_LIMIT) for t in tols), *(min(r, X_LIMIT) for r in known)) * 1.08
    left = max(0.0, min(0.5, *(1 - t for t in tols), *known) - 0.05) if known else 0.45

    def x(v: float) -> float:
        return round(PLOT_X0 + (min(max(v, left), right) - left) / (right - left) * (PLOT_X1 - PLOT_X0), 1)

    height = TOP + n * ROW_H + BOTTOM
    plot_bottom = TOP + n * ROW_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="11" role="img" '
        f'aria-label="{escape(title or "chart")}: measured / published per criterion">',
        f'<text x="{PLOT_X0}" y="16" font-size="12" font-weight="bold">{escape(title)}</text>',
    ]
    for t in _ticks(left, right):
        out.append(
            f'<line x1="{x(t)}" y1="{TOP}" x2="{x(t)}" y2="{plot_bottom}" stroke="#eeeeee"/>'
            f'<text x="{x(t)}" y="{plot_bottom + 14}" text-anchor="middle" font-size="10">{t:g}</text>'
        )
    out.append(
        f'<rect x="{PLOT_X0}" y="{TOP}" width="{PLOT_X1 - PLOT_X0}" height="{n * ROW_H}" fill="none" stroke="#90a4ae"/>'
    )
    one = x(1.0)
    for i, (e, r, t) in enumerate(zip(entries, ratios, tols, strict=True)):
        y = TOP + i * ROW_H
        mid = y + ROW_H / 2
        verdict = str(e.get("verdict"))
        colour = COLOURS.get(verdict, "#000000")
        tip = (
            f"{e.get('name') or e.get('id')}: measured {e.get('measured')}, published {e.get('published')} "
            f"{e.get('unit') or ''} — {verdict}"
        )
        row = [
            f'<g class="row v-{escape(verdict)}"><title>{escape(tip)}</title>',
            f'<rect x="{x(1 - t)}" y="{y + 1}" width="{round(x(1 + t) - x(1 - t), 1)}" height="{ROW_H - 2}" '
            'fill="#dfe9f5"/>',
            f'<text x="{LABEL_W}" y="{mid + 4}" text-anchor="end">{escape(_label(e))}</text>',
        ]
        if r is None:
            row.append(f'<text x="{one + 4}" y="{mid + 4}" fill="{colour}" font-size="10">{escape(verdict)}</text>')
        else:
            row.append(
                f'<line x1="{one}" y1="{mid}" x2="{x(r)}" y2="{mid}" stroke="{colour}" stroke-width="1.5"/>'
                f'<circle cx="{x(r)}" cy="{mid}" r="3.5" fill="{colour}"/>'
            )
            if r > X_LIMIT:
                row.append(
                    f'<text x="{x(r) - 6}" y="{mid - 3}" text-anchor="end" fill="{colour}" '
                    f'font-size="10">×{r:.3g}</text>'
                )
        row.append("</g>")
        out.append("".join(row))
    out.append(f'<line x1="{one}" y1="{TOP}" x2="{one}" y2="{plot_bottom}" stroke="#455a64" stroke-width="1.2"/>')
    out.append(
        f'<text x="{(PLOT_X0 + PLOT_X1) / 2}" y="{height - 8}" text-anchor="middle" font-size="10">'
        "measured / published (↑ higher is better, ↓ lower is better; band = tolerance)</text>"
    )
    out.append("</svg>")
    return "\n".join(out)
