"""What `v4l2` prints on the simulated board: the renderer for perfgate.tools.v4l2's parser.

Moved here from perfgate/tools/v4l2.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    fps = float(values.get("fps", 30.0))
    m = re.search(r"--stream-count[= ](\d+)", command)
    count = int(m[1]) if m else 300
    seconds = max(2, round(count / max(fps, 0.1)))
    lines = []
    for i in range(seconds):
        shown = fps if i else fps * rng.uniform(0.8, 0.97)
        lines.append("<" * max(1, round(fps)) + f" {shown:.2f} fps, dropped buffers: 0")
    return "\n".join(lines) + "\n"
