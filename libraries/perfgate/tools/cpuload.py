"""The board's CPU load between two readings of /proc/stat's `cpu` line (the aggregate of every CPU):
    cpu  10132153 290696 3084719 46828483 16683 0 25195 0 0 0
    cpu  10132260 290696 3084790 46828601 16683 0 25195 0 0 0
user nice system idle iowait irq softirq steal ... in clock ticks. Load = the busy share of the ticks between the
first and the last reading (idle and iowait are not busy), as perfgate.tools.iperf reads the lines around a run.
Lines that are not `cpu ` lines (a `# <mode>` label, `cpu0` per-CPU lines) are ignored. Metric: `cpu load (%)`.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import CPU

LINE = re.compile(r"^cpu\s+(\d+(?:\s+\d+){3,})\s*$")


def keys_for(command: str | None = None) -> list[str]:
    return [CPU]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    samples = [[int(x) for x in m[1].split()] for ln in text.splitlines() if (m := LINE.match(ln.strip()))]
    of = f" of `{command}`" if command else ""
    if len(samples) < 2:
        raise ParseError(f"{len(samples)} `cpu ` lines of /proc/stat: two readings are needed for a load{of}")
    a, b = samples[0], samples[-1]
    total = sum(b) - sum(a)
    idle = (b[3] - a[3]) + ((b[4] - a[4]) if len(a) > 4 and len(b) > 4 else 0)
    if total <= 0:
        raise ParseError(f"no clock ticks between the two /proc/stat readings{of}")
    return {CPU: round(100.0 * (total - idle) / total, 3)}


CARD = Card("cpuload", parse)
