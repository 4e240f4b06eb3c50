"""What the resume-latency method's command prints on the simulated board (perfgate.tools.resume's lines).

The simulated board keeps the method: the alarm is a whole wall-clock second a few seconds ahead, the board sleeps
until it, and user space reads the time it runs again, the drawn latency after the alarm."""

from __future__ import annotations

import random
import re
import time

from perfgate.tools.resume import KEY


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    m = re.search(r"\+\s*(\d+)\s*\)\)", command)  # t0=$(( $(date +%s) + <seconds> ))
    alarm = int(time.time()) + (int(m.group(1)) if m else 10)
    latency = max(0.001, values.get(KEY, 100.0)) / 1000.0
    said = re.search(r'echo "(resume: method [^"$]*)"', command)
    lines = [said.group(1) if said else "resume: method rtc-alarm", f"resume: alarm {alarm}"]
    lines.append(f'rtcwake: wakeup from "mem" using /dev/rtc0 at {time.strftime("%a %b %d %H:%M:%S %Y")}')
    lines.append(f"resume: running {alarm + latency:.9f}")
    return "\n".join(lines) + "\n"
