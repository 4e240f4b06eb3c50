"""Linpack 100x100 (netlib clinpack, `linpackc.new`, as TI's arm_benchmarks build runs it: `linpack`).

The timing table goes to stderr (capture `2>&1`), then the result line:
    Unrolled Double  Precision 578100 Kflops ; 10 Reps
Metric: `linpack (Kflops)`. A run whose output has no result line (a crash, a usage message) is an error.

netlib's later linpack.c (`linpackc.new`, Will Menninger 1993/94) prints instead a table of runs with twice the
repetitions each until one takes 10 CPU seconds (seen in an Arm FVP's run, tests/fixtures/PUBLIC-OUTPUTS.md;
reproduced in tests/fixtures/linpack/corpus/linpackc-new-table-constructed.txt):
    Average rolled and unrolled performance:
        Reps Time(s) DGEFA   DGESL  OVERHEAD    KFLOPS
    ----------------------------------------------------
        4096  10.24  90.01%   3.01%   6.98%  185990.750
Its result is the last row's KFLOPS (the longest run, the one the program stops at).
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
RESULT = re.compile(
    rf"^\s*(?:Un)?[Rr]olled\s+(?:Double|Single)\s+Precision\s+(?P<v>{NUM})\s+Kflops\s*;\s*(?P<reps>\d+)\s+Reps"
)
KEY = "linpack (Kflops)"
TABLE_HEADER = re.compile(r"^\s*Reps\s+Time\(s\)\s+DGEFA\s+DGESL\s+OVERHEAD\s+KFLOPS\s*$")
TABLE_ROW = re.compile(rf"^\s*\d+\s+{NUM}\s+{NUM}%\s+{NUM}%\s+{NUM}%\s+(?P<v>{NUM})\s*$")


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [KEY]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    in_table = False
    for line in text.splitlines():
        m = RESULT.match(line)
        if m:
            out[KEY] = float(m["v"])
        if TABLE_HEADER.match(line):
            in_table = True
        elif in_table and (row := TABLE_ROW.match(line)):
            out[KEY] = float(row["v"])  # the last row: the run of at least 10 s
    if KEY not in out:
        raise ParseError("no `... Precision <n> Kflops ; <n> Reps` line: not Linpack output" + _of(command))
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("linpack", parse, binaries=("linpack",))
