"""Dhrystone 2.1 as TI's arm_benchmarks build runs it (`runDhrystone`: `dhrystone <runs> <MHz>`).

stdout, after the usual Dhrystone banner and variable dump:
    Microseconds for one run through Dhrystone:    0.1
    Dhrystones per Second:                      7142857.0
    CPU clock = 1400 MHz
    Dhrystone DMIPS/MHz =    2.9
Metrics: `dhrystone_per_second (DhrystoneP)`, `cpu_clock (MHz)`, `dhrystone_per_mhz (DMIPS/MHz)`. When the build prints
no DMIPS/MHz line it is computed as TI does, DPS / 1757 / MHz (the VAX 11/780 reference), and only then.
The timing is coarse: every published figure is runs / (n x 0.2 s) (7142857 = 4e7 / 5.6 s), and so is the sim's.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
DPS = re.compile(rf"^\s*Dhrystones per Second:\s*(?P<v>{NUM})\s*$")
CLOCK = re.compile(rf"^\s*CPU clock\s*=\s*(?P<v>{NUM})\s*MHz\s*$", re.I)
DMIPS = re.compile(rf"^\s*Dhrystone DMIPS/MHz\s*=\s*(?P<v>{NUM})\s*$", re.I)
TOO_SMALL = re.compile(r"Measured time too small", re.I)
VAX_DPS = 1757.0

KEY_DPS = "dhrystone_per_second (DhrystoneP)"
KEY_CLOCK = "cpu_clock (MHz)"
KEY_DMIPS = "dhrystone_per_mhz (DMIPS/MHz)"


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [KEY_DPS, KEY_CLOCK, KEY_DMIPS]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if TOO_SMALL.search(line):
            raise ParseError(f"line {n}: Dhrystone says the measured time was too small: {line.strip()!r}", line=n)
        for rx, key in ((DPS, KEY_DPS), (CLOCK, KEY_CLOCK), (DMIPS, KEY_DMIPS)):
            m = rx.match(line)
            if m:
                out[key] = float(m["v"])
    if KEY_DPS not in out:
        raise ParseError("no `Dhrystones per Second:` line: not Dhrystone output" + _of(command))
    if KEY_DMIPS not in out and out.get(KEY_CLOCK):
        out[KEY_DMIPS] = round(out[KEY_DPS] / VAX_DPS / out[KEY_CLOCK], 1)
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("dhrystone", parse, binaries=("dhrystone",))
