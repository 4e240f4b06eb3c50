"""What `whetstone` prints on the simulated board: the renderer for perfgate.tools.whetstone's parser.

Moved here from perfgate/tools/whetstone.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import shlex

from perfgate.tools.whetstone import KEY


def loops_of(command: str | None, default: int = 100_000) -> int:
    try:
        words = shlex.split(command or "")
    except ValueError:
        words = (command or "").split()
    for i, w in enumerate(words):
        if w.rsplit("/", 1)[-1] == "whetstone":
            for a in words[i + 1 :]:
                if a.isdigit():
                    return int(a)
    return default


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    loops = loops_of(command)
    kips_true = values.get(KEY, 1000.0) * 1000.0 * (1 + rng.uniform(-0.01, 0.01))
    elapsed = 100.0 * loops / kips_true
    # time() differences: whole seconds (rounded here, so that a healthy board reads its published step)
    secs = max(1, round(elapsed))
    kips = 100.0 * loops / secs
    lines = ["", f"Loops: {loops}, Iterations: 1, Duration: {secs} sec."]
    if kips >= 1000.0:
        lines.append(f"C Converted Double Precision Whetstones: {kips / 1000.0:.1f} MIPS")
    else:
        lines.append(f"C Converted Double Precision Whetstones: {kips:.1f} KIPS")
    return "\n".join(lines) + "\n"
