"""Linpack 100x100 (netlib clinpack, `linpackc.new`, as TI's arm_benchmarks build runs it: `linpack`).

The timing table goes to stderr (capture `2>&1`), then the result line:
    Unrolled Double  Precision 578100 Kflops ; 10 Reps
Metric: `linpack (Kflops)`. A run whose output has no result line (a crash, a usage message) is an error.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
RESULT = re.compile(
    rf"^\s*(?:Un)?[Rr]olled\s+(?:Double|Single)\s+Precision\s+(?P<v>{NUM})\s+Kflops\s*;\s*(?P<reps>\d+)\s+Reps"
)
KEY = "linpack (Kflops)"


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [KEY]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = RESULT.match(line)
        if m:
            out[KEY] = float(m["v"])
    if KEY not in out:
        raise ParseError("no `... Precision <n> Kflops ; <n> Reps` line: not Linpack output" + _of(command))
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""
