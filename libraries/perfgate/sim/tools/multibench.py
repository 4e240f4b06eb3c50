"""What `multibench` prints on the simulated board: the renderer for perfgate.tools.multibench's parser.

Moved here from perfgate/tools/multibench.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.sim.tools import printed
from perfgate.sim.tools.coremark_pro import contexts_of, mith_run
from perfgate.tools.coremark_pro import key
from perfgate.tools.multibench import WORKLOADS


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    contexts = contexts_of(command)
    names = [k[: -len(" (workloads/)")] for k in values if k.endswith(" (workloads/)")] or list(WORKLOADS)
    text = ""
    for w in dict.fromkeys([*WORKLOADS, *names]):
        if key(w) not in values and names != list(WORKLOADS):
            continue
        text += mith_run(w, contexts, printed(values, key(w), 10.0, rng), rng)
    return text
