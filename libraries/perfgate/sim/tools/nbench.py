"""What `nbench` prints on the simulated board: the renderer for perfgate.tools.nbench's parser.

Moved here from perfgate/tools/nbench.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.sim.tools import printed
from perfgate.tools.nbench import TESTS, key

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
        v = printed(values, key(test), DEFAULTS.get(test, 100.0), rng)
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
