"""STREAM (McCalpin's stream.c, TI's `stream_c`): sustainable memory bandwidth.

    Function    Best Rate MB/s  Avg time     Min time     Max time
    Copy:            4776.8     0.033581     0.033495     0.033713
Metrics `copy|scale|add|triad (MB/s)` = the Best Rate column (MB = 10^6; read and written bytes both count).
Older releases print `Function      Rate (MB/s)   Avg time ...`: same columns. A run that reports
`Failed Validation` is an error, not a number.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
ROW = re.compile(
    rf"^\s*(?P<f>Copy|Scale|Add|Triad):\s+(?P<rate>{NUM})\s+(?P<avg>{NUM})\s+(?P<min>{NUM})\s+(?P<max>{NUM})\s*$"
)
FAILED = re.compile(r"Failed Validation", re.I)


def key(function: str) -> str:
    return f"{function.lower()} (MB/s)"


FUNCTIONS = ("Copy", "Scale", "Add", "Triad")


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [key(f) for f in FUNCTIONS]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if FAILED.search(line):
            raise ParseError(f"line {n}: STREAM failed its validation: {line.strip()!r}", line=n)
        m = ROW.match(line)
        if m:
            out[key(m["f"])] = float(m["rate"])
    if not out:
        raise ParseError("no `Copy:`/`Scale:`/`Add:`/`Triad:` rows: not STREAM output" + _of(command))
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""
