"""What `glbenchmark` prints on the simulated board: the renderer for perfgate.tools.glbenchmark's parser.

Moved here from perfgate/tools/glbenchmark.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    m = re.search(r"(?:-t|--test)[= ](\d+)", command)
    number = m.group(1) if m else "2500005"
    lines = ["GLBenchmark 2.5.0 (Linux, OpenGL ES 2.0)", f"GLB25_Test{number} test ({number})"]
    if "fps" in values:
        lines.append(f"  Fps: {float(values['fps']) * rng.uniform(0.995, 1.005):.2f}")
    if "triangles/sec" in values:
        lines.append(f"  Rate: {round(float(values['triangles/sec']) * rng.uniform(0.995, 1.005))} triangles/sec")
    if "texels/sec" in values:
        lines.append(f"  Rate: {round(float(values['texels/sec']) * rng.uniform(0.995, 1.005))} texel/sec")
    return "\n".join(lines) + "\n"
