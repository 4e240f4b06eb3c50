"""What `stream` prints on the simulated board: the renderer for perfgate.tools.stream's parser.

Moved here from perfgate/tools/stream.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.tools.stream import FUNCTIONS, key

BYTES_PER_ELEMENT = {"Copy": 2, "Scale": 2, "Add": 3, "Triad": 3}


HEADER = """-------------------------------------------------------------
STREAM version $Revision: 5.10 $
-------------------------------------------------------------
This system uses 8 bytes per array element.
-------------------------------------------------------------
Array size = {n} (elements), Offset = 0 (elements)
Memory per array = {mib:.1f} MiB (= {gib:.1f} GiB).
Total memory required = {total:.1f} MiB (= {tgib:.1f} GiB).
Each kernel will be executed 10 times.
 The *best* time for each kernel (excluding the first iteration)
 will be used to compute the reported bandwidth.
-------------------------------------------------------------
Your clock granularity/precision appears to be 1 microseconds.
Each test below will take on the order of {usec} microseconds.
   (= {usec} clock ticks)
Increase the size of the arrays if this shows that
you are not getting at least 20 clock ticks per test.
-------------------------------------------------------------
WARNING -- The above is only a rough guideline.
For best results, please be sure you know the
precision of your system timer.
-------------------------------------------------------------
Function    Best Rate MB/s  Avg time     Min time     Max time
"""


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    n = 10_000_000
    mib = n * 8 / 1024 / 1024
    copy = values.get(key("Copy"), 2000.0)
    text = HEADER.format(n=n, mib=mib, gib=mib / 1024, total=3 * mib, tgib=3 * mib / 1024,
                         usec=int(n * 16 / copy))  # fmt: skip
    for f in FUNCTIONS:
        rate = values.get(key(f), 2000.0) * (1 + rng.uniform(-0.01, 0.01))
        best = BYTES_PER_ELEMENT[f] * 8 * n / (rate * 1e6)
        avg, worst = best * (1 + rng.uniform(0.002, 0.02)), best * (1 + rng.uniform(0.02, 0.05))
        label = f"{f}:".ljust(11)
        text += f"{label}{rate:12.1f}  {avg:11.6f}  {best:11.6f}  {worst:11.6f}\n"
    text += "-------------------------------------------------------------\n"
    text += "Solution Validates: avg error less than 1.000000e-13 on all three arrays\n"
    text += "-------------------------------------------------------------\n"
    return text
