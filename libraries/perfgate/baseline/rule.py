"""The two-sample rule: one criterion of run B against the same criterion of run A (the baseline), on the log scale.

Model: a value of run r is the board's true value times exp(b_r + e), b_r ~ N(0, between^2) the run's own offset (a
fresh boot, another day: shared by every repeat inside the run), e ~ N(0, s^2) the repeat's noise. The change is
d = mean(log B) - mean(log A); its variance s_A^2 / n_A + s_B^2 / n_B + 2 between^2, where each run's s^2 is its own
variance of logs shrunk towards the class sd counted as `floor_df` degrees of freedom (limma's moderated variance:
a run with one value has the class sd, a run with many mostly its own), and `between` comes from data
(variables/baseline.yaml). The t statistic has Welch-Satterthwaite degrees of freedom (between counted as known).

In the criterion's direction (goodness g = d, or -d when lower is better; a matched value: |d|):
  worse      g is below 0 with confidence 1 - alpha_worse / m (a regression, held to the whole run's family), and
             its estimate is below -log(1 + tolerance) (a regression that matters)
  better     likewise above 0 and above +log(1 + tolerance)
  same       the two-sided 1 - 2 alpha_same interval lies inside +-log(1 + tolerance) (two one-sided tests)
  undecided  otherwise.
`detectable_pct` is the smallest regression the same data would call worse with probability `power`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from scipy import stats

from perfgate.baseline.config import ClassNoise, Config

WORSE, BETTER, SAME, UNDECIDED = "worse", "better", "same", "undecided"
VERDICTS = (WORSE, UNDECIDED, BETTER, SAME)


@dataclass(frozen=True)
class Change:
    verdict: str
    change_pct: float | None  # B against A, geometric means, in percent (raw: + is a higher value)
    low_pct: float | None  # the 1 - 2 alpha_same interval of the change
    high_pct: float | None
    level: float  # the interval's confidence
    tolerance: float
    detectable_pct: float | None  # the smallest regression (percent, in the bad direction) found at `power`
    n_a: int
    n_b: int
    sd: float | None  # the noise per value the rule used (relative, within a run)
    between: float
    df: float | None
    noise_class: str
    reason: str = ""

    def to_json(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}

    def describe(self) -> str:
        if self.change_pct is None:
            return f"{self.verdict}: {self.reason}"
        interval = f"[{self.low_pct:+.1f} %, {self.high_pct:+.1f} %]" if self.low_pct is not None else ""
        detect = f"; the smallest regression it finds: {self.detectable_pct:.1f} %" if self.detectable_pct else ""
        return (f"{self.verdict}: {self.change_pct:+.1f} % {interval} ({self.level * 100:.4g} % interval; "
                f"tolerance ±{self.tolerance * 100:g} %; {self.n_a} vs {self.n_b} values{detect})")  # fmt: skip


def _moderated(logs: list[float], sd: float, floor_df: float) -> tuple[float, float]:
    """(variance, degrees of freedom) of one run's logs shrunk towards the class sd."""
    n = len(logs)
    own = 0.0
    if n > 1:
        mean = sum(logs) / n
        own = sum((v - mean) ** 2 for v in logs)
    return (own + floor_df * sd * sd) / (n - 1 + floor_df), n - 1 + floor_df


def _pct(log_change: float) -> float:
    return (math.exp(log_change) - 1) * 100


def _part(a: list[float], b: list[float], noise: ClassNoise, cfg: Config) -> tuple[float, float, float]:
    """(d, the within-run variance of d, its Welch-Satterthwaite degrees of freedom) of two runs' positive values."""
    la, lb = [math.log(v) for v in a], [math.log(v) for v in b]
    d = sum(lb) / len(lb) - sum(la) / len(la)
    va, dfa = _moderated(la, noise.sd, cfg.floor_df)
    vb, dfb = _moderated(lb, noise.sd, cfg.floor_df)
    wa, wb = va / len(la), vb / len(lb)
    return d, wa + wb, (wa + wb) ** 2 / (wa**2 / dfa + wb**2 / dfb)


def _with_between(within: float, df: float, noise: ClassNoise) -> float:
    """The Satterthwaite degrees of freedom of within + 2 between^2, when `between` is itself an estimate."""
    if not noise.between_df or noise.between <= 0:
        return df
    b = 2 * noise.between**2
    return (within + b) ** 2 / (within**2 / df + b**2 / noise.between_df)


@dataclass(frozen=True)
class _Bounds:
    verdict: str
    t_same: float
    detect: float  # on the log scale, in the bad direction


def _decide(g: float, se: float, df: float, margin: float, cfg: Config, m: int, matched: bool) -> _Bounds:
    """The verdict of a goodness change g (log scale; + is better) with standard error se."""
    t_family = float(stats.t.ppf(1 - cfg.alpha_worse / max(m, 1), df))
    t_same = float(stats.t.ppf(1 - cfg.alpha_same, df))
    t_power = float(stats.t.ppf(cfg.power, df))
    if matched:
        worse, better = abs(g) - t_family * se > 0 and abs(g) > margin, False
    else:
        worse = g + t_family * se < 0 and g < -margin
        better = g - t_family * se > 0 and g > margin
    same = abs(g) + t_same * se < margin
    verdict = WORSE if worse else BETTER if better else SAME if same else UNDECIDED
    return _Bounds(verdict, t_same, max(margin, (t_family + t_power) * se))


def compare(a: list[float], b: list[float], direction: str, noise: ClassNoise, cfg: Config, m: int = 1) -> Change:
    """Run B's values of a criterion against run A's. `m`: the comparisons made in the run (the family a `worse`
    is held to)."""
    tol = noise.tolerance

    def undecided(reason: str) -> Change:
        return Change(UNDECIDED, None, None, None, 1 - 2 * cfg.alpha_same, tol, None, len(a), len(b), None,
                      noise.between, None, noise.name, reason)  # fmt: skip

    if not a or not b:
        return undecided("no value in the baseline" if not a else "no value in this run")
    if min(a) <= 0 or min(b) <= 0:
        if set(a) == set(b) and len(set(a)) == 1:
            return Change(SAME, 0.0, 0.0, 0.0, 1 - 2 * cfg.alpha_same, tol, None, len(a), len(b), None,
                          noise.between, None, noise.name, "every value equal")  # fmt: skip
        return undecided("a value of 0 or less has no log scale")
    d, within, df = _part(a, b, noise, cfg)
    se = math.sqrt(within + 2 * noise.between**2)
    df = _with_between(within, df, noise)
    sign = -1.0 if direction == "lower" else 1.0
    k = _decide(sign * d, se, df, math.log1p(tol), cfg, m, direction == "match")
    detect = _pct(k.detect) if direction == "lower" else (1 - math.exp(-k.detect)) * 100
    sd = math.sqrt(within / (1 / len(a) + 1 / len(b)))
    return Change(k.verdict, _pct(d), _pct(d - k.t_same * se), _pct(d + k.t_same * se), 1 - 2 * cfg.alpha_same, tol,
                  detect, len(a), len(b), sd, noise.between, df, noise.name)  # fmt: skip


def combine(rows: list[tuple[list[float], list[float], str, ClassNoise]], cfg: Config, m: int = 1) -> Change | None:
    """A suite's change: its rows' goodness changes (+ is better, whatever each row's direction) averaged with
    inverse-variance weights, their within-run noise independent, their run offset one draw shared by every row
    (the rows of one boot move together: its weighted sd is counted once, not averaged away). Matched rows and rows
    with a value of 0 or less are left out. Its change_pct and interval are goodness (+ better); None when no row
    can be combined."""
    parts = []
    for a, b, direction, noise in rows:
        if direction == "match" or not a or not b or min(a) <= 0 or min(b) <= 0:
            continue
        d, within, df = _part(a, b, noise, cfg)
        parts.append((-d if direction == "lower" else d, within, df, noise))
    if not parts:
        return None
    weight = sum(1 / w for _, w, _, _ in parts)
    g = sum(gi / w for gi, w, _, _ in parts) / weight
    between = sum(n.between / w for _, w, _, n in parts) / weight  # one offset z: sum(w_i between_i z) / sum(w_i)
    tol = sorted(n.tolerance for *_, n in parts)[len(parts) // 2]
    se = math.sqrt(1 / weight + 2 * between**2)
    df = min(df for _, _, df, _ in parts)  # conservative: the least certain row's
    k = _decide(g, se, df, math.log1p(tol), cfg, m, False)
    n_a, n_b = sum(len(r[0]) for r in rows), sum(len(r[1]) for r in rows)
    return Change(k.verdict, _pct(g), _pct(g - k.t_same * se), _pct(g + k.t_same * se), 1 - 2 * cfg.alpha_same, tol,
                  (1 - math.exp(-k.detect)) * 100, n_a, n_b, None, between, df, f"{len(parts)} rows")  # fmt: skip
