"""The cyclictest latency histogram of a run, as an inline SVG (matplotlib, Agg) for comparison.html.

`svg(histogram, title)` draws one step line per thread (samples per microsecond, log scale), the maximum of each
thread, and the overflows beyond the histogram's range. `run_histograms(run_dir)` finds every cyclictest output
kept as evidence under raw/rt_latency/ (or any raw/<suite>/cyclictest-*.txt) and returns {file name: svg}.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from perfgate.tools.cyclictest import Histogram, histogram

plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "perfgate", "font.size": 8})
COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#e69500", "#00838f", "#4e342e", "#455a64"]


def svg(h: Histogram, title: str = "") -> str:
    """An SVG document (without XML prolog) of the histogram; empty when it has no samples."""
    if not h.counts:
        return ""
    threads = max(len(v) for v in h.counts.values())
    maxes = h.summary.get("Max Latencies", [])
    overflows = h.summary.get("Histogram Overflows", [])
    used = [b for b, row in h.counts.items() if any(row)]
    if not used:
        return ""
    right = min(max(max(used), *(maxes or [0])) + 2, max(h.counts) + 1)  # maxima beyond the range: in the legend
    fig, ax = plt.subplots(figsize=(8.0, 2.8))
    buckets = sorted(b for b in h.counts if b <= right)
    for t in range(threads):
        colour = COLOURS[t % len(COLOURS)]
        ys = [h.counts[b][t] if t < len(h.counts[b]) else 0 for b in buckets]
        label = f"thread {t}"
        if t < len(maxes):
            label += f": max {maxes[t]} us"
        if t < len(overflows) and overflows[t]:
            label += f", {overflows[t]} beyond {max(h.counts) + 1} us"
        ax.step(buckets, [y if y > 0 else 0.5 for y in ys], where="mid", color=colour, linewidth=1.0, label=label)
        if t < len(maxes) and maxes[t] <= right:
            ax.axvline(maxes[t], color=colour, linestyle=":", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.8)
    ax.set_xlim(0, right)
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("samples")
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(loc="upper right", fontsize=7, frameon=False)
    ax.grid(True, which="major", axis="y", color="#e0e0e0", linewidth=0.5)
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg") :]


def from_text(text: str, title: str = "") -> str:
    """The SVG of a cyclictest output, empty when it has no histogram (`-h` was not given)."""
    h = histogram(text)
    return svg(h, title) if h is not None else ""


def run_histograms(run_dir: Path) -> dict[str, str]:
    """{evidence file name: SVG} for every cyclictest output with a histogram kept in the run directory."""
    raw = Path(run_dir) / "raw"
    files = sorted(set(raw.glob("rt_latency/*.txt")) | set(raw.glob("*/cyclictest*.txt"))) if raw.is_dir() else []
    out: dict[str, str] = {}
    for f in files:
        picture = from_text(f.read_text(encoding="utf-8", errors="replace"), f"{f.parent.name}/{f.name}")
        if picture:
            out[f"{f.parent.name}/{f.name}"] = picture
    return out
