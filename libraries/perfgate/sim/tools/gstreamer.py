"""What `gstreamer` prints on the simulated board: the renderer for perfgate.tools.gstreamer's parser.

Moved here from perfgate/tools/gstreamer.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.tools.gstreamer import TIME, frames


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    count = frames(command)
    fps = float(values["fps"]) if "fps" in values and count else None
    seconds = count / max(fps, 1e-6) if fps and count else float(values.get(TIME, 10.0))
    seconds = max(1e-6, seconds * rng.uniform(0.999, 1.001))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    element = "playbin0" if "playbin" in command else "pipeline0"
    return (
        "Setting pipeline to PAUSED ...\n"
        "Pipeline is PREROLLING ...\n"
        "Pipeline is PREROLLED ...\n"
        "Setting pipeline to PLAYING ...\n"
        "New clock: GstSystemClock\n"
        "Redistribute latency...\n"
        f'Got EOS from element "{element}".\n'
        f"Execution ended after {int(h)}:{int(m):02d}:{s:012.9f}\n"
        "Setting pipeline to NULL ...\n"
        "Freeing pipeline ...\n"
    )
