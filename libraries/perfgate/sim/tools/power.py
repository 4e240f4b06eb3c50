"""What `power` prints on the simulated board: the renderer for perfgate.tools.power's parser.

Moved here from perfgate/tools/power.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """The meter's readings in mW with its own Total line (also for the INA read-out: the sim's meter keeps each
    rail and the total independent, so that one degraded rail fails only its own criterion)."""
    mode = re.search(r"echo '(#[^']*)'", command)
    lines = [mode.group(1)] if mode else []
    total = 0.0
    for key, v in values.items():
        if key == "total (mW)":
            continue
        rail = key.removesuffix(" (mW)")
        reading = max(0.0, float(v) * rng.uniform(0.99, 1.01))
        total += reading
        lines.append(f"{rail:<24}{reading:10.2f} mW")
    if "total (mW)" in values:  # the meter's own total (it also counts rails the table leaves out)
        total = float(values["total (mW)"]) * rng.uniform(0.995, 1.005)
    lines.append(f"{'Total':<24}{total:10.2f} mW")
    return "\n".join(lines) + "\n"
