"""What `gfxbench` prints on the simulated board: the renderer for perfgate.tools.gfxbench's parser.

Moved here from perfgate/tools/gfxbench.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import json
import random
import re


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    m = re.search(r"--test_id\s+(\S+)", command)
    tid = m.group(1) if m else "gl_manhattan_off"
    fps = float(values.get("fps", 1.0)) * rng.uniform(0.995, 1.005)
    score = float(values.get("score", fps * 62)) * rng.uniform(0.995, 1.005)
    frames = max(1, round(score))
    doc = {
        "results": [
            {
                "test_id": tid,
                "status": "OK",
                "score": round(score, 2),
                "unit": "frames",
                "elapsed_time": round(frames / max(fps, 0.01) * 1000),
                "gfx_result": {"fps": round(fps, 2), "frame_count": frames, "width": 1920, "height": 1080},
            }
        ]
    }
    return (
        f"I/GFXBench: Running test {tid}\n"
        "I/GFXBench: Graphics API: gles, context: egl\n" + json.dumps(doc, indent=4) + "\n"
    )
