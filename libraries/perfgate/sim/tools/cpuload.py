"""What /proc/stat's `cpu` line reads twice on the simulated board (perfgate.tools.cpuload): the ticks between the
readings busy in the drawn share."""

from __future__ import annotations

import random
import re

from perfgate.tools.common import CPU

HZ = 100


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    m = re.search(r"sleep\s+(\d+)", command)
    ticks = HZ * 2 * (int(m.group(1)) if m else 1)  # two CPUs
    load = min(100.0, max(0.0, values.get(CPU, 10.0))) / 100.0
    base = [rng.randint(10**5, 10**6) for _ in range(10)]
    busy, idle = round(ticks * load * 1000), round(ticks * (1 - load) * 1000)  # x1000: the drawn load's decimals
    after = list(base)
    after[0] += busy * 2 // 3
    after[2] += busy - busy * 2 // 3
    after[3] += idle
    label = re.search(r"echo '(# [^']*)'", command)
    lines = [label.group(1)] if label else []
    lines += ["cpu  " + " ".join(map(str, base)), "cpu  " + " ".join(map(str, after))]
    return "\n".join(lines) + "\n"
