"""Where in a board's history a change began: change points by Apache Otava's method, e-divisive means with a
t-test (Matteson & James 2014, https://doi.org/10.48550/arXiv.1306.4933, as Otava splits and merges it: Fleming et al.
2023, "Hunter: Using Change Point Detection to Hunt for Performance Regressions", https://doi.org/10.1145/3578244.3583719).

Why not Otava itself: apache-otava 0.8.0 (the only release on the package index) requires scipy>=1.16,<1.17 and
numpy==2.2.0.* on Python 3.11, and this project pins scipy 1.17.1 (numpy 2.4 with it): pip cannot install both
(ResolutionImpossible); it would also bring google-cloud-bigquery, pg8000 and slack-sdk into a board gate. MongoDB's
signal-processing-algorithms (e-divisive, which Hunter first used) needs numpy<2. So this module follows Otava's
algorithm (otava/analysis.py `compute_change_points`, `split`, `merge`, `TTestSignificanceTester`;
otava/change_point_divisive/calculator.py `PairDistanceCalculator`: apache/otava 0.8.0) with numpy and scipy, which the
project already has:

- split: windows of `window` runs, half a window apart; in each, the candidate that maximises the e-divisive
  statistic Q(tau, kappa) over every split of every interval between the change points found so far, kept while a
  two-sided Student t-test between its two sides has p <= 10 x max_pvalue ("weak" change points);
- merge: the weakest change point (its largest p, or, once every p is below max_pvalue, its smallest relative change)
  is dropped and its neighbours retested, until every p is below max_pvalue and every change at least min_magnitude.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class ChangePoint:
    index: int  # the first value after the change
    pvalue: float
    mean_before: float
    mean_after: float
    std_before: float
    std_after: float

    @property
    def change_pct(self) -> float:
        return (self.mean_after / self.mean_before - 1) * 100 if self.mean_before else 0.0

    @property
    def magnitude(self) -> float:
        """The larger of the relative changes forward and backward (Otava's change_magnitude)."""
        fwd = abs(self.mean_after / self.mean_before - 1) if self.mean_before else 0.0
        back = abs(self.mean_before / self.mean_after - 1) if self.mean_after else 0.0
        return max(fwd, back)


def _qhat(x: np.ndarray, start: int, end: int) -> tuple[int, float]:
    """The split tau of x[start:end] (start < tau < kappa <= end) maximising Q(x[start:tau], x[tau:kappa])."""
    seg = x[start:end]
    d = np.abs(seg[:, None] - seg[None, :])
    s = np.zeros((len(seg) + 1, len(seg) + 1))
    s[1:, 1:] = d.cumsum(0).cumsum(1)

    def block(a0: int, a1: int, b0: int, b1: int) -> float:
        return float(s[a1, b1] - s[a0, b1] - s[a1, b0] + s[a0, b0])

    best, best_q = -1, -math.inf
    size = len(seg)
    for tau in range(1, size):
        n = tau
        within_x = block(0, tau, 0, tau) / 2
        for kappa in range(tau + 1, size + 1):
            m = kappa - tau
            between = block(0, tau, tau, kappa)
            within_y = block(tau, kappa, tau, kappa) / 2
            q = 2 / (m + n) * between
            q -= 2 * m / ((m + n) * (n - 1)) * within_x if n > 1 else 0.0
            q -= 2 * n / ((m + n) * (m - 1)) * within_y if m > 1 else 0.0
            if q > best_q:
                best, best_q = tau, q
    return start + best, best_q


def _test(left: np.ndarray, right: np.ndarray, index: int) -> ChangePoint:
    """Otava's TTestSignificanceTester.compare: Student's two-sided t-test from the sides' means and (population)
    standard deviations."""
    ml, mr = float(np.mean(left)), float(np.mean(right))
    sl = float(np.std(left)) if len(left) >= 2 else 0.0
    sr = float(np.std(right)) if len(right) >= 2 else 0.0
    p = 1.0
    if len(left) + len(right) > 2:
        p = float(stats.ttest_ind_from_stats(ml, sl, len(left), mr, sr, len(right)).pvalue)
        p = 1.0 if math.isnan(p) else p
    return ChangePoint(index, p, ml, mr, sl, sr)


def _intervals(points: list[int], n: int) -> list[tuple[int, int]]:
    bounds = [0, *points, n]
    return [(a, b) for a, b in itertools.pairwise(bounds) if a != b]


def _stats(x: np.ndarray, points: list[int]) -> list[ChangePoint]:
    """Each change point tested between its neighbours."""
    bounds = [0, *points, len(x)]
    return [_test(x[bounds[i]:bounds[i + 1]], x[bounds[i + 1]:bounds[i + 2]], bounds[i + 1])
            for i in range(len(points))]  # fmt: skip


def _detect(x: np.ndarray, max_pvalue: float) -> list[int]:
    """Otava's ChangePointDetector on x: the best candidate of all intervals, kept while significant."""
    points: list[int] = []
    while True:
        candidates = [_qhat(x, a, b) for a, b in _intervals(points, len(x)) if b - a > 1]
        if not candidates:
            return points
        index, _ = max(candidates, key=lambda c: c[1])
        bounds = [0, *points, len(x)]
        a = max(b for b in bounds if b < index)
        b = min(b for b in bounds if b > index)
        if _test(x[a:index], x[index:b], index).pvalue > max_pvalue:
            return points
        points = sorted([*points, index])


def change_points(series: list[float], max_pvalue: float = 0.001, min_magnitude: float = 0.0,
                  window: int = 50) -> list[ChangePoint]:  # fmt: skip
    """The change points of a series (oldest first), each tested between its neighbours."""
    x = np.asarray(series, dtype=float)
    if len(x) < 3:
        return []
    first = max_pvalue * 10 if max_pvalue < 0.05 else max_pvalue * 2 if max_pvalue < 0.5 else max_pvalue
    weak: set[int] = set()
    start, step = 0, max(window // 2, 1)
    while start < len(x):
        end = min(start + window, len(x))
        found = [start + p for p in _detect(x[start:end], first)]
        weak |= set(found)
        start = max(max(found, default=0), start + step)
    points = sorted(weak)
    cps = _stats(x, points)
    while cps:  # merge: drop the weakest and retest its neighbours
        weakest = max(cps, key=lambda c: c.pvalue)
        if weakest.pvalue < max_pvalue:
            weakest = min(cps, key=lambda c: c.magnitude)
            if weakest.magnitude > min_magnitude:
                return cps
        points.remove(weakest.index)
        cps = _stats(x, points)
    return cps


@dataclass(frozen=True)
class Began:
    """A change point in a board's history: the run (and release) where it began."""

    run: str
    release: str
    started: str
    point: ChangePoint

    def describe(self, unit: str = "") -> str:
        return (f"from run {self.run}{f' (SDK {self.release})' if self.release else ''}: "
                f"{self.point.mean_before:.4g} -> {self.point.mean_after:.4g} {unit}".rstrip()
                + f" ({self.point.change_pct:+.1f} %, p {self.point.pvalue:.2g})")  # fmt: skip


def in_history(points: list[tuple[str, str, str, float | None]], max_pvalue: float = 0.001,
               min_magnitude: float = 0.0) -> list[Began]:  # fmt: skip
    """The change points of a series of (run, release, started, value) (oldest first; runs without a value left
    out), each named by the run where it began."""
    kept = [p for p in points if isinstance(p[3], int | float) and not isinstance(p[3], bool)]
    values = [float(p[3]) for p in kept]  # type: ignore[misc]
    found = change_points(values, max_pvalue, min_magnitude)
    step = resolution(values)
    # a value printed on a coarse grid (DMIPS/MHz to one decimal) moving by one step is its rounding, not a change
    found = [c for c in found if step is None or abs(c.mean_after - c.mean_before) > step * 1.5]
    return [Began(kept[c.index][0], kept[c.index][1], kept[c.index][2], c) for c in found]


def resolution(values: list[float]) -> float | None:
    """The step of the grid a series is printed on, when it takes few distinct values (at most 3): the smallest
    difference between them; None for a series that varies freely."""
    distinct = sorted(set(values))
    if len(distinct) < 2 or len(distinct) > 3 or len(values) < 4:
        return None
    return min(b - a for a, b in itertools.pairwise(distinct))
