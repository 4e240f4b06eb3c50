"""What `modetest` prints on the simulated board: the renderer for perfgate.tools.modetest's parser.

Moved here from perfgate/tools/modetest.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    m = re.search(r"-s\s+(\d+)(?:@(\d+))?:(\d+x\d+)(?:-([\d.]+))?", command)
    connector, crtc, mode = (m[1], m[2] or "35", m[3]) if m else ("37", "35", "1920x1080")
    fps = float(values.get("fps", 60.0))
    refresh = float(m[4]) if m and m[4] else round(fps)
    seconds = 10
    t = re.search(r"timeout\s+(\d+)", command)
    if t:
        seconds = int(t[1])
    lines = [f"setting mode {mode}-{refresh:.2f}Hz on connectors {connector}, crtc {crtc}"]
    n = max(2, round(seconds * fps / 60))
    draws = [fps + rng.uniform(-0.15, 0.15) for _ in range(n)]
    shift = fps - sum(draws) / n
    lines += [f"freq: {d + shift:.2f}Hz" for d in draws]
    return "\n".join(lines) + "\n"
