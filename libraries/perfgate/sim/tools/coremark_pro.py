"""What `coremark_pro` prints on the simulated board: the renderer for perfgate.tools.coremark_pro's parser.

Moved here from perfgate/tools/coremark_pro.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re

from perfgate.sim.tools import printed
from perfgate.tools.coremark_pro import MARK, SINGLE, WORKLOADS, key

CONTEXTS = re.compile(r"-c\s*(\d+)")


def contexts_of(command: str | None) -> int:
    m = CONTEXTS.search(command or "")
    return int(m[1]) if m else 1


def mith_run(workload: str, contexts: int, wps: float, rng: random.Random) -> str:
    iterations = max(1, round(wps * 10)) if wps >= 0.1 else 1
    secs = iterations / wps if wps else 0.0
    uid = rng.randrange(10**8, 10**9)
    return (
        f"-- Workload:{workload}={uid}\n"
        f"-- {workload}:time(ns)={round(secs * 1e9)}\n"
        f"-- {workload}:contexts={contexts}\n"
        f"-- {workload}:iterations={iterations}\n"
        f"-- {workload}:time(secs)= {secs:8.3f}\n"
        f"-- {workload}:secs/workload= {1 / wps if wps else 0.0:.6g}\n"
        f"-- {workload}:workloads/sec= {wps:.6g}\n"
        f"-- Done:{workload}={uid}\n"
    )


def render_runs(names: list[str], multi: dict[str, float], single: dict[str, float], contexts: int,
                rng: random.Random) -> str:  # fmt: skip
    text = ""
    for w in names:
        text += mith_run(w, contexts, multi[w], rng)
        if contexts != 1:
            text += mith_run(w, 1, single[w], rng)
    return text


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    contexts = contexts_of(command)
    multi, single = {}, {}
    for w in WORKLOADS:
        m = printed(values, key(w), 10.0, rng)
        s = printed(values, SINGLE + key(w), m / (contexts * 0.97) if contexts > 1 else m, rng)
        multi[w], single[w] = m, (m if contexts == 1 else s)
    mark = printed(values, MARK, 1000.0, rng)
    smark = mark if contexts == 1 else values.get(SINGLE + MARK, mark / (contexts * 0.85))
    text = render_runs(list(WORKLOADS), multi, single, contexts, rng)
    text += "\nWORKLOAD RESULTS TABLE\n\n"
    text += f"{'':49}MultiCore SingleCore{'':11}\n"
    text += f"{'Workload Name':<49} (iter/s)   (iter/s)    Scaling\n"
    text += f"{'-' * 47} {'-' * 10} {'-' * 10} {'-' * 10}\n"
    for w in WORKLOADS:
        text += f"{w:<47} {multi[w]:10.2f} {single[w]:10.2f} {multi[w] / single[w]:10.2f}\n"
    text += "\nMARK RESULTS TABLE\n\n"
    text += f"{'Mark Name':<48} MultiCore SingleCore    Scaling\n"
    text += f"{'-' * 47} {'-' * 10} {'-' * 10} {'-' * 10}\n"
    text += f"{'CoreMark-PRO':<47} {mark:10.2f} {smark:10.2f} {mark / smark:10.2f}\n\n"
    return text
