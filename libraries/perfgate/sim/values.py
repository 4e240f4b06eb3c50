"""Published numbers -> what the simulated board measures: a realistic spread (mostly in the metric's
favourable direction, so that a healthy run passes a 10 % tolerance), and injected degradation."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from perfgate.model import Criterion

DEFAULT_SPREAD = 0.03  # relative standard deviation of a healthy board's results

_LOWER_HINTS = re.compile(r"latenc|\((us|ns|ms|sec|s)\)|cpu|load|\(%\)|time|overhead|cost", re.IGNORECASE)


def draw(value: float, direction: str, rng: random.Random, spread: float = DEFAULT_SPREAD) -> float:
    """One measurement around `value`: mean 1/2 spread better than published, never more than one spread
    worse nor 2.5 spreads better (so a healthy board neither fails nor warns at a 10 % tolerance)."""
    if spread <= 0 or value == 0:
        return value
    if direction == "match":
        s = max(-spread / 3, min(spread / 3, rng.gauss(0.0, spread / 6)))
        return value * (1 + s)
    s = max(-spread, min(2.5 * spread, rng.gauss(spread / 2, spread)))  # s > 0 is better
    return value * (1 + s) if direction != "lower" else value / (1 + s)


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
