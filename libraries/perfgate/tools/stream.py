"""STREAM (McCalpin's stream.c, TI's `stream_c`): sustainable memory bandwidth.

    Function    Best Rate MB/s  Avg time     Min time     Max time
    Copy:            4776.8     0.033581     0.033495     0.033713
Metrics `copy|scale|add|triad (MB/s)` = the Best Rate column (MB = 10^6; read and written bytes both count).
Older releases print `Function      Rate (MB/s)   Avg time ...`: same columns. A run that reports
`Failed Validation` is an error, not a number.

LMBench's `stream` (what TI's benchmark application notes run: `stream -M 16M -P 2 -N 10` on an AM62L EVM, SPRADO9)
prints one line per kernel and quantity instead: `STREAM copy latency: <n> nanoseconds`, `STREAM copy bandwidth:
<n> MB/sec` (then scale, add, triad, and STREAM2 fill/copy/daxpy/sum): the `STREAM <kernel> bandwidth:` lines of
the four STREAM kernels are read as the same metrics (LMBench also counts the bytes read and written). A STREAM2
line is not a STREAM kernel: `STREAM2 copy bandwidth` is not `copy (MB/s)`.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
ROW = re.compile(
    rf"^\s*(?P<f>Copy|Scale|Add|Triad):\s+(?P<rate>{NUM})\s+(?P<avg>{NUM})\s+(?P<min>{NUM})\s+(?P<max>{NUM})\s*$"
)
FAILED = re.compile(r"Failed Validation", re.I)
LMBENCH = re.compile(rf"^\s*STREAM (?P<f>copy|scale|add|triad) bandwidth:\s*(?P<rate>{NUM})\s*MB/sec\s*$")


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
        m = ROW.match(line) or LMBENCH.match(line)
        if m:
            if key(m["f"]) in out:
                raise ParseError(f"line {n}: STREAM printed {m['f']} twice: which one is the result?", line=n)
            out[key(m["f"])] = float(m["rate"])
    if not out:
        raise ParseError(
            "no `Copy:`/`Scale:`/`Add:`/`Triad:` rows and no `STREAM <kernel> bandwidth:` lines: not STREAM output"
            + _of(command)
        )
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("stream", parse, binaries=("stream_c", "stream"))
