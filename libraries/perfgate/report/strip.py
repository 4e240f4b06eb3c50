"""A criterion's samples as a distribution: a small inline SVG strip for comparison.html's rows.

Each sample (one run of the criterion's command in this run) is a dot on one axis that also spans the published
value (a dark line) and the threshold (the published value made worse by the tolerance, a red tick); the judged
value is a short bar. Written by hand (no matplotlib): one per criterion, hundreds in a page. `strip_svg` takes plain
numbers, so any row with samples can use it (a tail-latency criterion's runs alike).
"""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT, PAD = 140, 18, 5


def threshold(published: float, tolerance: float | None, direction: str | None) -> float | None:
    """The value a measurement may not be worse than, in the criterion's direction (None: no tolerance, or `match`)."""
    if tolerance is None or direction not in ("higher", "lower"):
        return None
    return published * (1 - tolerance) if direction == "higher" else published * (1 + tolerance)


def strip_svg(samples: list[float], published: float | None = None, tolerance: float | None = None,
              direction: str | None = None, judged: float | None = None, unit: str = "") -> str:  # fmt: skip
    """The SVG strip of `samples` (empty when fewer than two: a single value is the row's measured value already)."""
    values = [float(v) for v in samples if isinstance(v, int | float)]
    if len(values) < 2:
        return ""
    limit = threshold(published, tolerance, direction) if isinstance(published, int | float) else None
    marks = [v for v in (published, limit, judged) if isinstance(v, int | float)]
    lo, hi = min(values + marks), max(values + marks)
    span = (hi - lo) or abs(hi) or 1.0

    def x(v: float) -> float:
        return round(PAD + (v - lo) / span * (WIDTH - 2 * PAD), 1)

    mid = HEIGHT / 2
    parts = [f'<line x1="{PAD}" y1="{mid}" x2="{WIDTH - PAD}" y2="{mid}" stroke="#cfd8dc"/>']
    if isinstance(published, int | float):
        parts.append(f'<line class="published" x1="{x(published)}" y1="2" x2="{x(published)}" y2="{HEIGHT - 2}" '
                     'stroke="#455a64" stroke-width="1.5"/>')  # fmt: skip
    if limit is not None:
        parts.append(f'<line class="threshold" x1="{x(limit)}" y1="4" x2="{x(limit)}" y2="{HEIGHT - 4}" '
                     'stroke="#c62828" stroke-width="1.5"/>')  # fmt: skip
    for i, v in enumerate(values):
        y = mid + (3 if i % 2 else -3) * (1 if len(values) > 4 else 0)  # two rows when many dots share the line
        parts.append(f'<circle cx="{x(v)}" cy="{y}" r="2.2" fill="#546e7a" fill-opacity="0.75"/>')
    if isinstance(judged, int | float):
        parts.append(f'<line class="judged" x1="{x(judged)}" y1="{mid - 6}" x2="{x(judged)}" y2="{mid + 6}" '
                     'stroke="#1565c0" stroke-width="2"/>')  # fmt: skip
    title = (f"{len(values)} samples {min(values):g} .. {max(values):g} {unit}".strip()
             + (f"; published {published:g}" if isinstance(published, int | float) else "")
             + (f", threshold {limit:.4g}" if limit is not None else ""))  # fmt: skip
    return (f'<svg class="samples" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{escape(title)}"><title>{escape(title)}</title>{"".join(parts)}</svg>')  # fmt: skip
