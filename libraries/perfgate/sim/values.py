"""Published numbers -> what the simulated board measures: drawn around the published value with the spread of
perfgate.sim.spread (the guide's own where it prints min and max), and injected degradation."""

from __future__ import annotations

import math
import random
import re
from dataclasses import replace

from perfgate.model import Criterion

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
