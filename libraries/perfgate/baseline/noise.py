"""The board's own noise from its history: a criterion's values in the board's accepted runs (one list per run)
give its spread within a run and between runs. Each is shrunk towards its class figure (variables/baseline.yaml),
which counts as `floor_df` (within) and `between_df` (between) degrees of freedom: a short history moves the class
figure a little, a long one replaces it. Fewer than `history_runs` runs: the class figure alone."""

from __future__ import annotations

import math
from dataclasses import replace

from perfgate.baseline.config import ClassNoise, Config
from perfgate.model import Criterion


def of_history(runs: list[list[float]], noise: ClassNoise, cfg: Config) -> ClassNoise:
    """The criterion's noise from its runs (positive values only), or its class's with too few runs."""
    logs = [[math.log(v) for v in r if v > 0] for r in runs]
    logs = [r for r in logs if r]
    if len(logs) < cfg.history_runs:
        return noise
    ss = sum(sum((v - sum(r) / len(r)) ** 2 for v in r) for r in logs)
    df_within = sum(len(r) - 1 for r in logs)
    within = (ss + cfg.floor_df * noise.sd**2) / (df_within + cfg.floor_df)
    means = [sum(r) / len(r) for r in logs]
    grand = sum(means) / len(means)
    spread = sum((m - grand) ** 2 for m in means) / (len(means) - 1)
    between = max(0.0, spread - sum(within / len(r) for r in logs) / len(logs))
    between = ((len(logs) - 1) * between + cfg.between_df * noise.between**2) / (len(logs) - 1 + cfg.between_df)
    return replace(noise, sd=math.sqrt(within), between=math.sqrt(between), between_df=len(logs) - 1 + cfg.between_df,
                   name=f"{noise.name}, board history of {len(logs)} runs")  # fmt: skip


def with_guide(noise: ClassNoise, value: float, lo: float | None, hi: float | None, cfg: Config) -> ClassNoise:
    """The class noise, widened to the row's own published spread where the guide prints `value (min, max)` that is a
    spread (the caller leaves artefacts out): range / guide_range_sd, its within and between shares as the class's.
    TI's ranges are of 2-9 runs over days and builds, so a range is about 1.1-2.9 sd (shared/reference/noise.md)."""
    if lo is None or hi is None or not value or hi <= lo or lo <= 0:
        return noise
    row = (hi - lo) / (cfg.guide_range_sd * abs(value))
    total = math.hypot(noise.sd, noise.between)
    if row <= total:
        return noise
    k = row / total if total > 0 else 1.0
    sd, between = (noise.sd * k, noise.between * k) if total > 0 else (row, 0.0)
    return replace(noise, sd=sd, between=between, name=f"{noise.name}, widened to the guide's spread")


def of_criterion(c: Criterion, cfg: Config, artefact: bool, runs: list[list[float]]) -> ClassNoise:
    """A criterion's noise against its baseline: its class's, widened to its guide's spread (unless that is an
    artefact) while the board's history has fewer than history_runs accepted runs, its own spread (shrunk towards the
    class figures) once it has them."""
    base = cfg.of(c)
    if not artefact and c.min and c.max and c.min > 0 and c.max / c.min >= cfg.bimodal_ratio:
        # two modes, a boot taking either: no history shows it, and the distance between them (on the log scale) lies
        # between boots: half of it is one sd, so a boot in the other mode than the history's is two sd, never `worse`
        wide = with_guide(base, c.value, c.min, c.max, cfg)
        between = max(math.log(c.max / c.min) / 2, wide.between)
        return replace(wide, between=between, name=f"{base.name}, two modes by boot")
    if sum(1 for r in runs if any(v > 0 for v in r)) >= cfg.history_runs:
        return of_history(runs, base, cfg)  # the board's own noise: the guide's (other boards', other days') no more
    return base if artefact else with_guide(base, c.value, c.min, c.max, cfg)
