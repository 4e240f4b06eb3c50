"""Every wait of the board's bring-up, in seconds of board time: the defaults, the names a lab or a board profile may
set (`timeouts:`), and the scaling for a board that runs faster than real time (the simulated board)."""

from __future__ import annotations

from dataclasses import dataclass, field

TIMEOUTS = {"power": 30.0, "autoboot": 60.0, "uboot_command": 120.0, "boot": 180.0, "login": 30.0, "ssh": 30.0,
            "poke": 5.0, "silence": 60.0}  # fmt: skip


@dataclass
class Timeouts:
    """Every wait, in seconds of board time (profile `timeouts`, then the lab's). A board that runs `scale` times
    faster than real time (the simulated board) gets them divided by the scale, never below `floor`."""

    raw: dict[str, float] = field(default_factory=dict)
    scale: float = 1.0
    floor: float = 5.0

    def of(self, seconds: float) -> float:
        return max(self.floor, seconds / self.scale) if self.scale > 1 else seconds

    def __getattr__(self, name: str) -> float:
        if name in TIMEOUTS:
            return self.of(float(self.raw.get(name, TIMEOUTS[name])))
        raise AttributeError(name)
