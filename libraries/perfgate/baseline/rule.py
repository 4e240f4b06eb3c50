"""The two-sample rule: one criterion of run B against the same criterion of run A (the baseline), on the log scale.

Model: a value of run r is the board's true value times exp(b_r + e), b_r ~ N(0, between^2) the run's own offset (a
fresh boot, another day: shared by every repeat inside the run), e ~ N(0, s^2) the repeat's noise. The change is
d = mean(log B) - mean(log A); its variance s_A^2 / n_A + s_B^2 / n_B + 2 between^2, where each run's s^2 is its own
variance of logs shrunk towards the class sd counted as `floor_df` degrees of freedom (limma's moderated variance:
a run with one value has the class sd, a run with many mostly its own), and `between` comes from data
(variables/baseline.yaml). The t statistic has Welch-Satterthwaite degrees of freedom (between counted as known).

In the criterion's direction (goodness g = d, or -d when lower is better; a matched value: |d|):
  worse      the upper bound of g at confidence 1 - alpha_worse / m is below -log(1 + tolerance)
  better     the lower bound at the same confidence is above +log(1 + tolerance)
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
        return (f"{self.verdict}: {self.change_pct:+.1f} % {interval} ({self.level * 100:.0f} % interval; "
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


def compare(a: list[float], b: list[float], direction: str, noise: ClassNoise, cfg: Config, m: int = 1) -> Change:
    """Run B's values of a criterion against run A's. `m`: the criteria compared in the run (the family a `worse`
    is held to)."""
    tol = noise.tolerance

    def undecided(reason: str, change: float | None = None) -> Change:
        return Change(UNDECIDED, change, None, None, 1 - 2 * cfg.alpha_same, tol, None, len(a), len(b), None,
                      noise.between, None, noise.name, reason)  # fmt: skip

    if not a or not b:
        return undecided("no value in the baseline" if not a else "no value in this run")
    if min(a) <= 0 or min(b) <= 0:
        if set(a) == set(b) and len(set(a)) == 1:
            return Change(SAME, 0.0, 0.0, 0.0, 1 - 2 * cfg.alpha_same, tol, None, len(a), len(b), None,
                          noise.between, None, noise.name, "every value equal")  # fmt: skip
        return undecided("a value of 0 or less has no log scale")
    la, lb = [math.log(v) for v in a], [math.log(v) for v in b]
    d = sum(lb) / len(lb) - sum(la) / len(la)
    va, dfa = _moderated(la, noise.sd, cfg.floor_df)
    vb, dfb = _moderated(lb, noise.sd, cfg.floor_df)
    wa, wb = va / len(la), vb / len(lb)
    var = wa + wb + 2 * noise.between**2
    se = math.sqrt(var)
    df = var**2 / (wa**2 / dfa + wb**2 / dfb)
    t_family = float(stats.t.ppf(1 - cfg.alpha_worse / max(m, 1), df))
    t_same = float(stats.t.ppf(1 - cfg.alpha_same, df))
    t_power = float(stats.t.ppf(cfg.power, df))
    margin = math.log1p(tol)
    sign = -1.0 if direction == "lower" else 1.0
    g = sign * d
    if direction == "match":
        worse = abs(d) - t_family * se > margin
        better = False
    else:
        worse = g + t_family * se < -margin
        better = g - t_family * se > margin
    same = abs(d) + t_same * se < margin
    verdict = WORSE if worse else BETTER if better else SAME if same else UNDECIDED
    reach = margin + (t_family + t_power) * se  # on the log scale, in the bad direction
    detect = _pct(reach) if direction == "lower" else (1 - math.exp(-reach)) * 100
    return Change(verdict, _pct(d), _pct(d - t_same * se), _pct(d + t_same * se), 1 - 2 * cfg.alpha_same, tol,
                  detect, len(a), len(b), math.sqrt((va + vb) / 2), noise.between, df, noise.name)  # fmt: skip
