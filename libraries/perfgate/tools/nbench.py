"""NBench / BYTEmark (nbench-byte 2.2.x, TI's `nbench`).

    NUMERIC SORT        :          628.9  :      16.13  :       5.30
The name is padded to 16 characters and followed by `    :`, the value is `%15.5g` (so `2.0562e+08` happens).
When a test is not 95 % statistically certain, nbench prints `** WARNING: ...` lines between the name and the value,
which then comes on a line of its own starting with `:`. Metrics: `<name lowercased, spaces as _> (Iterations)`
(numeric_sort, string_sort, bitfield, fp_emulation, fourier, assignment, idea, huffman, neural_net, lu_decomposition).
"""

from __future__ import annotations

import random
import re

from perfgate.errors import ParseError

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
TESTS = ("NUMERIC SORT", "STRING SORT", "BITFIELD", "FP EMULATION", "FOURIER", "ASSIGNMENT", "IDEA", "HUFFMAN",
         "NEURAL NET", "LU DECOMPOSITION")  # fmt: skip
NAME = re.compile(r"^(?P<name>" + "|".join(TESTS) + r")\s*:(?P<rest>.*)$")
VALUES = re.compile(rf"^\s*(?P<v>{NUM})\s*:\s*(?P<old>{NUM})\s*:\s*(?P<new>{NUM})\s*$")
CONTINUATION = re.compile(r"^\s*:(?P<rest>.*)$")
WARNING = re.compile(r"^\*\* WARNING:")


def key(test: str) -> str:
    return f"{test.lower().replace(' ', '_')} (Iterations)"


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


HEADER = """
BYTEmark* Native Mode Benchmark ver. 2 (10/95)
Index-split by Andrew D. Balsa (11/97)
Linux/Unix* port by Uwe F. Mayer (12/96,11/97)

TEST                : Iterations/sec.  : Old Index   : New Index
                    :                  : Pentium 90* : AMD K6/233*
--------------------:------------------:-------------:------------
"""
BASE = {
    "NUMERIC SORT": 38.993, "STRING SORT": 2.238, "BITFIELD": 5.829e6, "FP EMULATION": 2.084, "FOURIER": 879.28,
    "ASSIGNMENT": 0.2628, "IDEA": 65.382, "HUFFMAN": 36.062, "NEURAL NET": 0.6225, "LU DECOMPOSITION": 19.31,
}  # fmt: skip
DEFAULTS = {"BITFIELD": 2.0562e8}


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    text = HEADER
    warned = rng.choice(TESTS)
    for test in TESTS:
        v = values.get(key(test), DEFAULTS.get(test, 100.0)) * (1 + rng.uniform(-0.01, 0.01))
        idx = v / BASE[test]
        text += f"{test:<16}    :"
        if test == warned:
            text += "\n** WARNING: The current test result is NOT 95 % statistically certain.\n"
            text += "** WARNING: The variation among the individual results is too large.\n"
            text += "                    :"
        text += f" {v:15.5g}  :  {idx:9.2f}  :  {idx / 3.4:9.2f}\n"
    text += """==========================ORIGINAL BYTEMARK RESULTS==========================
INTEGER INDEX       : 39.080
FLOATING-POINT INDEX: 20.735
Baseline (MSDOS*)   : Pentium* 90, 256 KB L2-cache, Watcom* compiler 10.0
==============================LINUX DATA BELOW===============================
CPU                 : 4 CPU
L2 Cache            : {blank}
OS                  : Linux 6.6.32-ti
C compiler          : aarch64-oe-linux-gcc
libc                : {blank}
MEMORY INDEX        : 8.945
INTEGER INDEX       : 10.422
FLOATING-POINT INDEX: 11.501
Baseline (LINUX)    : AMD K6/233*, 512 KB L2-cache, gcc 2.7.2.3, libc-5.4.38
* Trademarks are property of their respective holder.
""".format(blank="")
    return text


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""
