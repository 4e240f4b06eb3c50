"""The two-sample rule: one criterion of this run (B) against the board's baseline (A), on the log scale.

Model: a value in boot r is the board's true value times exp(b_r + e), b_r ~ N(0, between^2) the boot's own offset
(a fresh boot, another day: shared by every repeat inside it), e ~ N(0, s^2) the repeat's noise. Each side is a list
of boots: the baseline is the board's accepted runs of the release line in the lab pooled (K_A runs, one boot each;
one run when a run is named), this run its boots (K_B: the gate boots again while a criterion is undecided). The
change is d = mean of B's boot means - mean of A's boot means (logs); its variance
between^2 (1 / K_A + 1 / K_B) + s^2 (sum_A 1 / n_k / K_A^2 + sum_B 1 / n_k / K_B^2), where s^2 is the within-boot
variance of logs pooled over every boot of both sides and shrunk towards the class sd counted as `floor_df` degrees
of freedom (limma's moderated variance: a boot with one value has the class sd, many boots mostly their own), and
`between` comes from data (variables/baseline.yaml) or the board's history (perfgate.baseline.noise). The t statistic
has Satterthwaite degrees of freedom (between counted as known when it is a class figure).

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
    boots_a: int = 1  # A's boots (the baseline's accepted runs pooled)
    boots_b: int = 1  # B's boots (this run's)

    def to_json(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}

    def describe(self) -> str:
        if self.change_pct is None:
            return f"{self.verdict}: {self.reason}"
        interval = f"[{self.low_pct:+.1f} %, {self.high_pct:+.1f} %]" if self.low_pct is not None else ""
        detect = f"; the smallest regression it finds: {self.detectable_pct:.1f} %" if self.detectable_pct else ""
        counts = f"{self.n_a} vs {self.n_b} values" if self.boots_a == self.boots_b == 1 else \
            f"{self.n_a} values in {self.boots_a} runs vs {self.n_b} in {self.boots_b} boots"  # fmt: skip
        return (f"{self.verdict}: {self.change_pct:+.1f} % {interval} ({self.level * 100:.4g} % interval; "
                f"tolerance ±{self.tolerance * 100:g} %; {counts}{detect})")  # fmt: skip


def _pct(log_change: float) -> float:
    return (math.exp(log_change) - 1) * 100


Groups = list[list[float]]  # a side's values, one list per boot (a run of the history is one boot)


@dataclass(frozen=True)
class _Part:
    d: float  # mean of B's boot means - mean of A's boot means (logs)
    within: float  # the within-boot variance of d: s^2 x (h_A + h_B)
    df: float  # the degrees of freedom of s^2
    s2: float  # the pooled within-boot variance of one value (moderated)
    boots: float  # 1 / K_A + 1 / K_B: how often the between-boot variance counts
    n_a: int
    n_b: int


def _part(a: Groups, b: Groups, noise: ClassNoise, cfg: Config) -> _Part:
    """Two sides' positive values, each a list of boots: the change of their means of boot means, and the within-boot
    variance of it. The within-boot variance of one value is pooled over every boot of both sides and shrunk towards
    the class sd counted as `floor_df` degrees of freedom (limma's moderated variance: a boot with one value has the
    class sd, many boots mostly their own). A side's mean of K boot means has variance between^2 / K +
    s^2 x sum(1 / n_k) / K^2."""
    la = [[math.log(v) for v in g] for g in a if g]
    lb = [[math.log(v) for v in g] for g in b if g]
    mean = [sum(g) / len(g) for g in la + lb]
    ss = sum(sum((v - m) ** 2 for v in g) for g, m in zip(la + lb, mean, strict=True))
    df = sum(len(g) - 1 for g in la + lb) + cfg.floor_df
    s2 = (ss + cfg.floor_df * noise.sd * noise.sd) / df
    ka, kb = len(la), len(lb)
    h = sum(1 / len(g) for g in la) / ka**2 + sum(1 / len(g) for g in lb) / kb**2
    d = sum(mean[ka:]) / kb - sum(mean[:ka]) / ka
    return _Part(d, s2 * h, df, s2, 1 / ka + 1 / kb, sum(map(len, la)), sum(map(len, lb)))


def _with_between(within: float, df: float, between2: float, noise: ClassNoise) -> float:
    """The degrees of freedom of within + between2 when `between` is itself an estimate (the board's history of K
    runs: K - 1 + between_df). Not Satterthwaite's mix: a history's between-boot figure is what is left of its boot
    means' spread once the within-boot part is taken out, so it is no surer than those K boot means (Satterthwaite
    let many within-boot values lend it degrees of freedom it does not have: false `worse` on a history whose boots
    happened to agree)."""
    if not noise.between_df or between2 <= 0:
        return df
    return min(df, noise.between_df)


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
    """Run B's values of a criterion against run A's, each one boot (`perfgate compare A B`)."""
    return compare_groups([a] if a else [], [b] if b else [], direction, noise, cfg, m)


def compare_groups(a: Groups, b: Groups, direction: str, noise: ClassNoise, cfg: Config, m: int = 1) -> Change:
    """B's values of a criterion against A's, each side a list of boots (A: the board's accepted runs pooled, one
    boot each; B: this run's boots). `m`: the comparisons made in the run (the family a `worse` is held to)."""
    tol = noise.tolerance
    a, b = [g for g in a if g], [g for g in b if g]
    flat_a, flat_b = [v for g in a for v in g], [v for g in b for v in g]

    def undecided(reason: str) -> Change:
        return Change(UNDECIDED, None, None, None, 1 - 2 * cfg.alpha_same, tol, None, len(flat_a), len(flat_b), None,
                      noise.between, None, noise.name, reason, len(a), len(b))  # fmt: skip

    if not a or not b:
        return undecided("no value in the baseline" if not a else "no value in this run")
    if min(flat_a) <= 0 or min(flat_b) <= 0:
        if set(flat_a) == set(flat_b) and len(set(flat_a)) == 1:
            return Change(SAME, 0.0, 0.0, 0.0, 1 - 2 * cfg.alpha_same, tol, None, len(flat_a), len(flat_b), None,
                          noise.between, None, noise.name, "every value equal", len(a), len(b))  # fmt: skip
        return undecided("a value of 0 or less has no log scale")
    p = _part(a, b, noise, cfg)
    between2 = p.boots * noise.between**2
    se = math.sqrt(p.within + between2)
    df = _with_between(p.within, p.df, between2, noise)
    sign = -1.0 if direction == "lower" else 1.0
    k = _decide(sign * p.d, se, df, math.log1p(tol), cfg, m, direction == "match")
    detect = _pct(k.detect) if direction == "lower" else (1 - math.exp(-k.detect)) * 100
    return Change(k.verdict, _pct(p.d), _pct(p.d - k.t_same * se), _pct(p.d + k.t_same * se), 1 - 2 * cfg.alpha_same,
                  tol, detect, p.n_a, p.n_b, math.sqrt(p.s2), noise.between, df, noise.name, "", len(a),
                  len(b))  # fmt: skip


def combine(rows: list[tuple[list[float], list[float], str, ClassNoise]], cfg: Config, m: int = 1) -> Change | None:
    """A suite's change between two runs of one boot each (`perfgate compare A B`): combine_groups."""
    return combine_groups([([a] if a else [], [b] if b else [], d, n) for a, b, d, n in rows], cfg, m)


def combine_groups(rows: list[tuple[Groups, Groups, str, ClassNoise]], cfg: Config, m: int = 1) -> Change | None:
    """A suite's change: its rows' goodness changes (+ is better, whatever each row's direction) averaged with
    inverse-variance weights, their within-boot noise independent, each boot's offset one draw shared by every row
    (the rows of one boot move together: its weighted sd is counted once per boot, not averaged away). Matched rows
    and rows with a value of 0 or less are left out. Its change_pct and interval are goodness (+ better); None when
    no row can be combined."""
    parts = []
    for a, b, direction, noise in rows:
        fa, fb = [v for g in a for v in g], [v for g in b for v in g]
        if direction == "match" or not fa or not fb or min(fa) <= 0 or min(fb) <= 0:
            continue
        p = _part(a, b, noise, cfg)
        parts.append((-p.d if direction == "lower" else p.d, p, noise))
    if not parts:
        return None
    weight = sum(1 / p.within for _, p, _ in parts)
    g = sum(gi / p.within for gi, p, _ in parts) / weight
    between = sum(n.between / p.within for _, p, n in parts) / weight  # one offset z: sum(w_i between_i z) / sum(w_i)
    boots = max(p.boots for _, p, _ in parts)
    tol = sorted(n.tolerance for *_, n in parts)[len(parts) // 2]
    se = math.sqrt(1 / weight + boots * between**2)
    # conservative: the least certain row's, its between-boot figure counted (_with_between)
    df = min(_with_between(p.within, p.df, boots * n.between**2, n) for _, p, n in parts)
    k = _decide(g, se, df, math.log1p(tol), cfg, m, False)
    n_a, n_b = sum(p.n_a for _, p, _ in parts), sum(p.n_b for _, p, _ in parts)
    return Change(k.verdict, _pct(g), _pct(g - k.t_same * se), _pct(g + k.t_same * se), 1 - 2 * cfg.alpha_same, tol,
                  (1 - math.exp(-k.detect)) * 100, n_a, n_b, None, between, df, f"{len(parts)} rows", "",
                  max(len(r[0]) for r in rows), max(len(r[1]) for r in rows))  # fmt: skip
