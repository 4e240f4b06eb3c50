"""What `stress-ng --metrics-brief` prints on the simulated board: the renderer for perfgate.tools.stress_ng.

The layout of stress-ng 0.15.06 (tests/fixtures/stress-ng/): one row per stressor the values name
(`<stressor> bogo ops/s (real time)` ...), the run as long as the command's `-t`/`--timeout` sets."""

from __future__ import annotations

import itertools
import random
import re
import shlex

PID = 4242
TIME = re.compile(r"^(\d+(?:\.\d+)?)(s|m|h)?$")


def seconds_of(command: str) -> float:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for flag, value in itertools.pairwise(words):
        if flag in ("-t", "--timeout") and (m := TIME.match(value)):
            return float(m.group(1)) * {"s": 1, "m": 60, "h": 3600, None: 1}[m.group(2)]
    return 60.0


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    secs = seconds_of(command)
    stressors = sorted({k.split(" ", 1)[0] for k in values})
    p = f"stress-ng: metrc: [{PID}] "
    lines = [
        f"stress-ng: info:  [{PID}] setting to a {secs:g} second run per stressor",
        f"stress-ng: info:  [{PID}] dispatching hogs: " + ", ".join(f"1 {s}" for s in stressors),
        p + "stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s",
        p + "                          (secs)    (secs)    (secs)   (real time) (usr+sys time)",
    ]
    for s in stressors:
        rate = values.get(f"{s} bogo ops/s (real time)") or values.get(f"{s} bogo ops/s (usr+sys time)") or 100.0
        real = secs * (1 + rng.uniform(0.0, 0.01))
        cpu = real * rng.uniform(0.97, 0.995)
        ops = round(rate * real)
        cpu_rate = values.get(f"{s} bogo ops/s (usr+sys time)") or ops / cpu
        lines.append(p + f"{s:<12}{ops:>12d}{real:>10.2f}{cpu:>10.2f}{0.0:>10.2f}{ops / real:>13.2f}{cpu_rate:>15.2f}")
    lines.append(f"stress-ng: info:  [{PID}] successful run completed in {secs:.2f}s")
    return "\n".join(lines) + "\n"
