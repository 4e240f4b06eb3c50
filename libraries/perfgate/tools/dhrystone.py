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

import random
import re
import shlex

from perfgate.errors import ParseError

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
DPS = re.compile(rf"^\s*Dhrystones per Second:\s*(?P<v>{NUM})\s*$")
CLOCK = re.compile(rf"^\s*CPU clock\s*=\s*(?P<v>{NUM})\s*MHz\s*$", re.I)
DMIPS = re.compile(rf"^\s*Dhrystone DMIPS/MHz\s*=\s*(?P<v>{NUM})\s*$", re.I)
TOO_SMALL = re.compile(r"Measured time too small", re.I)
VAX_DPS = 1757.0

KEY_DPS = "dhrystone_per_second (DhrystoneP)"
KEY_CLOCK = "cpu_clock (MHz)"
KEY_DMIPS = "dhrystone_per_mhz (DMIPS/MHz)"
TICK = 0.2  # seconds: the resolution the published figures show


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


def runs_of(command: str | None, default: int = 40_000_000) -> int:
    """The number of runs: the first integer argument after the dhrystone program."""
    try:
        words = shlex.split(command or "")
    except ValueError:
        words = (command or "").split()
    for i, w in enumerate(words):
        if w.rsplit("/", 1)[-1] == "dhrystone":
            for a in words[i + 1 :]:
                if a.isdigit():
                    return int(a)
    return default


BANNER = """
Dhrystone Benchmark, Version 2.1 (Language: C)

Program compiled without 'register' attribute

Execution starts, {runs} runs through Dhrystone
Execution ends

Final values of the variables used in the benchmark:

Int_Glob:            5
        should be:   5
Bool_Glob:           1
        should be:   1
Ch_1_Glob:           A
        should be:   A
Ch_2_Glob:           B
        should be:   B
Arr_1_Glob[8]:       7
        should be:   7
Arr_2_Glob[8][7]:    {arr}
        should be:   Number_Of_Runs + 10
Ptr_Glob->
  Ptr_Comp:          {ptr1}
        should be:   (implementation-dependent)
  Discr:             0
        should be:   0
  Enum_Comp:         2
        should be:   2
  Int_Comp:          17
        should be:   17
  Str_Comp:          DHRYSTONE PROGRAM, SOME STRING
        should be:   DHRYSTONE PROGRAM, SOME STRING
Next_Ptr_Glob->
  Ptr_Comp:          {ptr1}
        should be:   (implementation-dependent), same as above
  Discr:             0
        should be:   0
  Enum_Comp:         1
        should be:   1
  Int_Comp:          18
        should be:   18
  Str_Comp:          DHRYSTONE PROGRAM, SOME STRING
        should be:   DHRYSTONE PROGRAM, SOME STRING
Int_1_Loc:           5
        should be:   5
Int_2_Loc:           13
        should be:   13
Int_3_Loc:           7
        should be:   7
Enum_Loc:            1
        should be:   1
Str_1_Loc:           DHRYSTONE PROGRAM, 1'ST STRING
        should be:   DHRYSTONE PROGRAM, 1'ST STRING
Str_2_Loc:           DHRYSTONE PROGRAM, 2'ND STRING
        should be:   DHRYSTONE PROGRAM, 2'ND STRING

"""


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    runs = runs_of(command)
    mhz = values.get(KEY_CLOCK, 1000.0)
    dps = values.get(KEY_DPS) or VAX_DPS * mhz * values.get(KEY_DMIPS, 3.0)
    seconds = runs / (dps * (1 + rng.uniform(-0.01, 0.01)))
    ticks = max(1, round(seconds / TICK))
    measured = runs / (ticks * TICK)
    # DMIPS/MHz follows the measured rate; around the published figure when there is one
    dmips = values[KEY_DMIPS] * measured / dps if KEY_DMIPS in values else measured / VAX_DPS / mhz
    text = BANNER.format(runs=runs, arr=runs + 10, ptr1=f"{rng.randrange(0x10000, 0xFFFFF) * 16}")
    text += f"Microseconds for one run through Dhrystone: {1e6 / measured:6.1f} \n"
    text += f"Dhrystones per Second:                      {measured:6.1f} \n"
    text += f"CPU clock = {mhz:.0f} MHz\n"
    text += f"Dhrystone DMIPS/MHz = {dmips:6.1f}\n"
    return text


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""
