"""What `boot` prints on the simulated board: the renderer for perfgate.tools.boot's parser.

Moved here from perfgate/tools/boot.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.tools.boot import stamp


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """A boot log (one cycle per `cycles`, default 1) whose boot time is about values['boot time (sec)']."""
    seconds = values.get("boot time (sec)", 10.0)
    end = "# " if "init" in command else "login:"
    out = ["# perfgate boot capture: rendered", "# start: Starting kernel ...", f"# end: {end}"]
    for cycle in range(1, int(values.get("cycles", 1)) + 1):
        boot = seconds * (1 + rng.uniform(-0.01, 0.01))
        out += [
            f"# cycle {cycle}",
            f"{stamp(0.0, 0.0)} U-Boot 2024.04",
            f"{stamp(1.0, 1.0)} Starting kernel ...",
            f"{stamp(1.2, 0.2)} [    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
            f"{stamp(1.0 + boot, boot - 0.2)} {'/ # ' if end == '# ' else 'am62xx-evm login: '}",
        ]
    return "\n".join(out) + "\n"
