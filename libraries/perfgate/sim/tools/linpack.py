"""What `linpack` prints on the simulated board: the renderer for perfgate.tools.linpack's parser.

Moved here from perfgate/tools/linpack.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.sim.tools import printed
from perfgate.tools.linpack import KEY


def _row(rng: random.Random, kflops: float) -> str:
    total = 2.0 / 3.0 * 100**3 / (kflops * 1000.0) + 2.0 * 100**2 / (kflops * 1000.0)
    dgefa = total * 0.97
    dgesl = total - dgefa
    unit = 2.0 / kflops * 1000.0
    ratio = total / 0.0559
    return f" {dgefa:10.3e} {dgesl:10.3e} {total:10.3e} {kflops:10.3e} {unit:10.3e} {ratio:10.3e}"


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    kflops = printed(values, KEY, 100000.0, rng)
    lines = [
        "Unrolled Double  Precision Linpack",
        "",
        "     Norm. Resid      Resid           MACHEP         X[1]          X[N]",
        "        1.6       7.41628980e-14   2.22044605e-16   1.00000000e+00   1.00000000e+00",
        "",
        "    Times are reported for matrices of order   100",
        "      dgefa      dgesl      total       kflops     unit      ratio",
        " times for array with leading dimension of 201",
    ]
    lines += [_row(rng, kflops * (1 + rng.uniform(-0.02, 0.0))) for _ in range(4)]
    lines.append(" times for array with leading dimension of 200")
    lines += [_row(rng, kflops * (1 + rng.uniform(-0.02, 0.0))) for _ in range(4)]
    lines.append(f"Unrolled Double  Precision {round(kflops)} Kflops ; 10 Reps ")
    return "\n".join(lines) + "\n"
