"""What `dhrystone` prints on the simulated board: the renderer for perfgate.tools.dhrystone's parser.

Moved here from perfgate/tools/dhrystone.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import shlex

from perfgate.tools.dhrystone import KEY_CLOCK, KEY_DMIPS, KEY_DPS, VAX_DPS

TICK = 0.2  # seconds: the resolution the published figures show


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
    drawn = values.get(KEY_DPS) or (VAX_DPS * mhz * values[KEY_DMIPS] if KEY_DMIPS in values else None)
    dps = drawn or VAX_DPS * mhz * 3.0 * (1 + rng.uniform(-0.01, 0.01))  # drawn: its noise is there already
    seconds = runs / dps
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
