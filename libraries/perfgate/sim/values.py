"""Published numbers -> what the simulated board measures: drawn around the published value with the spread of
perfgate.sim.spread (the guide's own where it prints min and max), and injected degradation."""

from __future__ import annotations

import math
import random
import re
from dataclasses import replace

from perfgate.model import Criterion
from perfgate.sim.spread import RowNoise

JUMP = (1.3, 2.0)  # how much worse a maximum's rare jump makes one run (uniform between these factors)

_LOWER_HINTS = re.compile(r"latenc|\((us|ns|ms|sec|s)\)|cpu|load|\(%\)|time|overhead|cost", re.IGNORECASE)


def draw(value: float, direction: str, rng: random.Random, sd: float) -> float:
    """One measurement around `value`: value x exp(N(0, sd)), centred on the published value (a healthy board's
    mean is what the guide publishes), never clamped, so a draw far enough out fails as a real one can. A value
    that is matched (a clock rate) spreads a sixth as far: a board prints its clock, it does not measure it."""
    if sd <= 0 or value == 0:
        return value
    if direction == "match":
        sd /= 6
    return value * math.exp(rng.gauss(0.0, sd))


class Sampler:
    """Draws what the simulated board measures, as a real board varies: each boot moves every class by one offset
    (its `between` share of the noise), each run strays by the rest; a maximum jumps 1.3-2x worse now and then; a run
    fails outright (0) at its class's rate; a two-mode row takes one mode per boot. The sim's tools, U-Boot and boot
    draw through one Sampler, and benchmarks/error_rates.py through the same code."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.boots = 0
        self._offsets: dict[str, float] = {}  # class -> this boot's offset (standard normal)
        self._modes: dict[object, bool] = {}  # row -> this boot's mode (True: the low one)

    def boot(self) -> None:
        """A fresh boot: new offsets, new modes."""
        self.boots += 1
        self._offsets.clear()
        self._modes.clear()

    def draw(self, value: float, direction: str, noise: RowNoise, row: object = None) -> float:
        """One run's value of a row published at `value` (`row`: what identifies it for its mode)."""
        rng = self.rng
        if value == 0 or direction == "match":
            return draw(value, direction, rng, noise.sd)
        if noise.failed and rng.random() < noise.failed:
            return 0.0
        centre = value
        if noise.modes is not None:
            low, high, p_low = noise.modes
            if (row, "mode") not in self._modes:
                self._modes[(row, "mode")] = rng.random() < p_low
            centre = low if self._modes[(row, "mode")] else high
        z_boot = self._offsets.setdefault(noise.cls, rng.gauss(0.0, 1.0)) if noise.between > 0 else 0.0
        z = math.sqrt(noise.between) * z_boot + math.sqrt(1.0 - noise.between) * rng.gauss(0.0, 1.0)
        better = 1.0 if direction == "higher" else -1.0  # a positive offset: this boot is faster
        out = centre * math.exp(better * noise.sd * z)
        if noise.jumps and rng.random() < noise.jumps:
            jump = rng.uniform(*JUMP)
            out = out / jump if direction == "higher" else out * jump
        return out


def degrade(criterion: Criterion, percent: float) -> Criterion:
    """The criterion with its published value (and min/max) made worse by `percent` in its direction."""
    if percent <= 0:
        return criterion
    factor = 1 - percent / 100 if criterion.direction == "higher" else 1 + percent / 100

    def scaled(v: float | None) -> float | None:
        return None if v is None else v * factor

    return replace(criterion, value=criterion.value * factor, min=scaled(criterion.min), max=scaled(criterion.max))


def guess_direction(metric: str) -> str:
    """For a metric no criterion names: latencies, times and loads are better lower, the rest higher."""
    return "lower" if _LOWER_HINTS.search(metric) else "higher"
