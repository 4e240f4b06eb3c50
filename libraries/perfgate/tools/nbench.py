"""NBench / BYTEmark (nbench-byte 2.2.x, TI's `nbench`).

    NUMERIC SORT        :          628.9  :      16.13  :       5.30
The name is padded to 16 characters and followed by `    :`, the value is `%15.5g` (so `2.0562e+08` happens).
When a test is not 95 % statistically certain, nbench prints `** WARNING: ...` lines between the name and the value,
which then comes on a line of its own starting with `:`. Metrics: `<name lowercased, spaces as _> (Iterations)`
(numeric_sort, string_sort, bitfield, fp_emulation, fourier, assignment, idea, huffman, neural_net, lu_decomposition).
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
TESTS = ("NUMERIC SORT", "STRING SORT", "BITFIELD", "FP EMULATION", "FOURIER", "ASSIGNMENT", "IDEA", "HUFFMAN",
         "NEURAL NET", "LU DECOMPOSITION")  # fmt: skip
NAME = re.compile(r"^(?P<name>" + "|".join(TESTS) + r")\s*:(?P<rest>.*)$")
VALUES = re.compile(rf"^\s*(?P<v>{NUM})\s*:\s*(?P<old>{NUM})\s*:\s*(?P<new>{NUM})\s*$")
CONTINUATION = re.compile(r"^\s*:(?P<rest>.*)$")
WARNING = re.compile(r"^\*\* WARNING:")


def key(test: str) -> str:
    return f"{test.lower().replace(' ', '_')} (Iterations)"


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [key(t) for t in TESTS]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    pending: tuple[str, int] | None = None  # a test whose value a warning pushed to a later line
    for n, line in enumerate(text.splitlines(), 1):
        line = line.rstrip("\r")
        m = NAME.match(line)
        if m:
            v = VALUES.match(m["rest"])
            if v:
                out[key(m["name"])] = float(v["v"])
                pending = None
            elif m["rest"].strip():
                raise ParseError(f"line {n}: unreadable NBench result: {line.strip()!r}", line=n)
            else:
                pending = (m["name"], n)
            continue
        if pending and WARNING.match(line):
            continue
        c = CONTINUATION.match(line)
        if pending and c:
            v = VALUES.match(c["rest"])
            if not v:
                raise ParseError(f"line {n}: unreadable NBench result for {pending[0]}: {line.strip()!r}", line=n)
            out[key(pending[0])] = float(v["v"])
            pending = None
    if pending:
        raise ParseError(f"line {pending[1]}: NBench printed no value for {pending[0]}", line=pending[1])
    if not out:
        raise ParseError("no `NUMERIC SORT        :` style rows: not NBench output" + _of(command))
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("nbench", parse, binaries=("nbench",))
