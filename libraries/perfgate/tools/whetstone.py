"""Whetstone (the C conversion TI's arm_benchmarks build runs: `runWhetstone` -> `whetstone 100000`).

stdout:
    Loops: 100000, Iterations: 1, Duration: 1 sec.
    C Converted Double Precision Whetstones: 10000.0 MIPS
Under 1000 MIPS the program prints KIPS instead (`... Whetstones: 833.3 KIPS`): the metric is always
`whetstone (MIPS)`. The duration is whole seconds (time()), so the value is 100 x loops / seconds KIPS:
10000, 5000, 3333.3 MIPS for 100000 loops; a board less than one second step slower prints the same figure.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
RESULT = re.compile(rf"C Converted (?:Double|Single) Precision Whetstones:\s*(?P<v>{NUM})\s*(?P<unit>MIPS|KIPS)", re.I)
LOOPS = re.compile(r"^Loops:\s*(?P<loops>\d+),\s*Iterations:\s*(?P<it>\d+),\s*Duration:\s*(?P<secs>\d+)\s*sec")
KEY = "whetstone (MIPS)"
# Roy Longbottom's C/C++ Whetstone (whets.c) prints an `MWIPS  <rate>  <seconds>` line: another program (its own loop
# timing and calibration, single or double precision), whose figure is not the one TI's guides publish
LONGBOTTOM = re.compile(rf"^\s*MWIPS\s+(?P<v>{NUM})\s+{NUM}\s*$")


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [KEY]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = RESULT.search(line)
        if m:
            v = float(m["v"])
            out[KEY] = v / 1000.0 if m["unit"].upper() == "KIPS" else v
    if KEY not in out:
        for n, line in enumerate(text.splitlines(), 1):
            if LONGBOTTOM.match(line):
                raise ParseError(
                    f"Roy Longbottom's Whetstone ({line.strip()!r}), not the C Converted Whetstone TI runs: another "
                    "program, its MWIPS are not the guides' figure",
                    line=n,
                )
        raise ParseError("no `C Converted ... Whetstones:` line: not Whetstone output" + _of(command))
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("whetstone", parse, binaries=("whetstone",))
