"""The noise of each criterion of a suite, from what the board shows in this run, pooled across the suite's rows.

Model, on the log scale (a throughput or a latency strays by a factor): one run of criterion i measures
`true_i x exp(e)`, e ~ N(0, sigma_i^2).

- **Shape.** Each row has a shape g_i: the guide's own spread, (max - min) / (4 x value), where it prints one that
  is not an artefact (decision.artefacts); else the board's recorded hardware history of that row (3 runs or more),
  which replaces the class prior once there is one; else its class sd from variables/noise.yaml.
- **Suite prior.** The guides' spreads are much wider than a board's run-to-run noise (they mix boards, builds and
  days), but rows that TI found noisy are noisy: the prior follows the shapes, scaled by one factor per suite,
  k^2 = sum(df_i s_i^2 / g_i^2) / sum(df_i) over the rows with two runs or more (s_i^2 their sample variance of the
  logs, df_i = runs - 1). How well the rows follow their shapes gives the prior's degrees of freedom nu0 (limma's
  moment estimate: Var log(s_i^2 / k^2 g_i^2) = psi1(df_i / 2) + psi1(nu0 / 2)), capped by the pooled df.
  A suite with too few rows or df (`pool.min_rows`, `pool.min_df`) has no pooled prior: its rows take the class sd
  (or history) with `prior_df` degrees of freedom.
- **Posterior.** sigma~_i^2 = (nu0 sigma0_i^2 + df_i s_i^2) / (nu0 + df_i), a Student t with nu0 + df_i df: a row with
  one or two runs borrows strength from its suite, a row with many runs speaks for itself. s_i^2 is within-boot: runs
  from several boots have their boots' share taken out first (boot_factor), and a row with the board's own history
  adds the history's within-boot variance to the pool's prior with its degrees of freedom.
- **Between boots.** The prior's (class, row or history) between-boot part, widened as much as the within-boot part
  when runs over several boots stray more than the prior says (never narrowed by one run's boots).
- **For a FAIL** the guide's own spread (or the class sd where the guide prints none or an artefact) also counts, as a
  weak prior of `guide_prior_df` degrees of freedom: a board noisier than its run suggests is not failed on a
  lucky-narrow sample. And a FAIL rests on noise the board showed: never on the class prior alone (a first run whose
  suite cannot pool yet runs again before it can fail).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from scipy.special import polygamma


@dataclass(frozen=True)
class PoolSettings:
    prior_df: float = 4.0  # the class default's (or history's) degrees of freedom, where a suite cannot pool
    guide_prior_df: float = 1.0  # the guide's own spread, as a weak prior for a FAIL
    min_rows: int = 3  # a suite pools its rows' variance from this many rows with two runs or more
    min_df: float = 4.0  # ... and this many degrees of freedom in all
    max_prior_df: float = 30.0  # the prior never counts for more than this many runs
    between_df: float = 8.0  # the between-boot part of the noise (class figure or history), as degrees of freedom


@dataclass(frozen=True)
class Prior:
    """A criterion's noise before this run's own data: its shape and where it came from."""

    shape: float  # relative sd the pooled prior follows (the guide's spread, else history, else the class sd)
    source: str  # where the shape came from: "guide min/max", "history (5 runs)", "class network", "default"
    guide: float  # the guide's own spread for the weak FAIL prior (class sd where the guide prints none usable)
    fallback: float  # the sd where the suite cannot pool: the board's history, else the class sd
    fallback_source: str
    artefact: str = ""  # why the guide's min/max is not used (decision.artefacts), if it prints one
    history_df: float | None = None  # a history prior's degrees of freedom (runs - 1)
    between: float = 0.0  # the share of a run's variance that lies between boots (repeats in one boot cannot see it)
    tail: bool = False  # a maximum: judged on the median of its runs, which one jumped run does not move
    between_df: float | None = None  # the between-boot part's degrees of freedom, when the history told it (boots - 1)
    within_df: float | None = None  # the history's within-boot degrees of freedom (samples - boots)
    # a row the guide prints in two modes (lat_ctx 7.4-195 us): its shape is the distance between its modes, which a
    # boot keeps one of, not a spread of its runs: it follows the suite's prior but takes no part in fitting it
    two_modes: bool = False

    @property
    def within(self) -> float:
        """The factor on a total sd that leaves the part repeats within one boot show."""
        return math.sqrt(max(1.0 - self.between, 0.0))


@dataclass(frozen=True)
class Posterior:
    sd: float  # relative sd of one run (log scale), for a PASS
    df: float
    sd_fail: float  # with the guide's weak prior, for a FAIL
    df_fail: float
    source: str  # how it was reached, said in the log and metrics.json
    seen: bool = True  # whether this run showed any of the board's noise (the row's own runs, or its suite's pool)
    between: float = 0.0  # relative sd of the between-boot part (from the class or history: one boot cannot show it)
    between_df: float = 8.0
    tail: bool = False  # a maximum: its statistic is the median of its runs

    def se(self, runs: int, boots: int = 1, fail: bool = False) -> float:
        """The standard error of the statistic over `runs` runs in `boots` boots: the within-boot part shrinks with
        the runs, the between-boot part only with the boots; a median's is sqrt(pi / 2) times a mean's."""
        within = self.sd_fail if fail else self.sd
        var = self.between**2 / max(boots, 1) + within**2 / max(runs, 1)
        return math.sqrt(var) * (MEDIAN_EFFICIENCY if self.tail and runs > 2 else 1.0)

    def df_of(self, runs: int, boots: int = 1, fail: bool = False) -> float:
        """Welch-Satterthwaite's degrees of freedom of that standard error."""
        within, df = (self.sd_fail, self.df_fail) if fail else (self.sd, self.df)
        a, b = self.between**2 / max(boots, 1), within**2 / max(runs, 1)
        if a <= 0:
            return df
        if b <= 0:
            return self.between_df
        return (a + b) ** 2 / (a**2 / self.between_df + b**2 / df)

    def total(self) -> float:
        """One run's relative sd, both parts."""
        return math.sqrt(self.sd**2 + self.between**2)

    def describe(self) -> str:
        between = f" + {self.between * 100:.2f}% between boots" if self.between > 0 else ""
        return f"{self.sd * 100:.2f}%{between} ({self.source}; {self.df:.0f} df)"


MEDIAN_EFFICIENCY = math.sqrt(math.pi / 2)


def log_variance(samples: list[float]) -> float | None:
    """The sample variance of the logs (None: fewer than two positive samples)."""
    logs = [math.log(x) for x in samples if x > 0]
    if len(logs) < 2 or len(logs) != len(samples):
        return None
    return statistics.variance(logs)


def _trigamma(x: float) -> float:
    return float(polygamma(1, x))


def _inverse_trigamma(y: float) -> float:
    """x with psi1(x) = y (y > 0), by Newton's method on 1/psi1 as limma does."""
    x = 0.5 + 1.0 / y if y < 1e6 else 1.0 / math.sqrt(y)
    for _ in range(50):
        tri = _trigamma(x)
        step = tri * (1 - tri / y) / float(polygamma(2, x))
        x += step
        if x <= 0:
            x = 1e-8
        if abs(step) < 1e-8 * x:
            break
    return x


@dataclass(frozen=True)
class SuitePool:
    k: float | None  # the suite's factor on the shapes (None: no pooled prior)
    nu0: float  # the pooled prior's degrees of freedom
    rows: int  # rows that gave a variance
    df: float  # their degrees of freedom in all
    follow: float = 1.0  # how far the prior follows the shapes: sd0_i = k x shape_i ** follow

    def sd0(self, shape: float) -> float:
        assert self.k is not None
        return self.k * shape**self.follow


FOLLOW = (1.0, 0.75, 0.5, 0.25, 0.0)  # how far a prior may follow the shapes: fully ... not at all


def boot_factor(prior: Prior, n: int, boots: list[int] | None) -> float:
    """How much larger than the within-boot variance the sample variance of a row's `n` runs is expected to be when
    they came from several boots: E[s^2] = sigma_W^2 + c sigma_B^2, c = (n - sum n_k^2 / n) / (n - 1) for n_k runs in
    boot k (0 when every run shares one boot, 1 when each has its own), sigma_B^2 / sigma_W^2 the prior's share
    between boots over the rest. Dividing by it leaves the within-boot part, which the between-boot part is added to
    once in the standard error (Posterior.se), not twice."""
    if not boots or len(boots) != n or n < 2 or prior.between <= 0:
        return 1.0
    counts: dict[int, int] = {}
    for b in boots:
        counts[b] = counts.get(b, 0) + 1
    c = (n - sum(k * k for k in counts.values()) / n) / (n - 1)
    return 1.0 + c * prior.between / max(1.0 - prior.between, 1e-6)


def pool(priors: dict[str, Prior], samples: dict[str, list[float]], settings: PoolSettings,
         boots: dict[str, list[int]] | None = None) -> SuitePool:  # fmt: skip
    """The suite's prior from every row with two runs or more: how far it follows the rows' shapes (fully, by their
    square root, ... or not at all: whichever the rows' variances scatter least around, ties to the shapes), its
    factor k and its degrees of freedom nu0. A board whose rows stray as the guide's are wide gets a prior that
    follows the guide; one whose noise is alike on every row gets a flat one; either way nu0 says how well it fits."""
    rows: list[tuple[float, float, float]] = []  # (df_i, s_i^2, g_i)
    for cid, values in samples.items():
        p = priors.get(cid)
        var = log_variance(values)
        if p is None or var is None or p.shape * p.within <= 0 or p.two_modes:
            continue
        rows.append((len(values) - 1.0, var / boot_factor(p, len(values), (boots or {}).get(cid)), p.shape * p.within))
    total = sum(d for d, _, _ in rows)
    if len(rows) < settings.min_rows or total < settings.min_df:
        return SuitePool(None, settings.prior_df, len(rows), total)
    # the shapes are what the guide and the classes say: another fit replaces them only when the rows scatter less
    # around it by more than the scatter's own sampling error (a few runs a row give each log variance a trigamma's
    # worth of noise: with 2-3 df, one suite's rows pick a flat prior by chance as often as not)
    noise = math.sqrt(2.0 / max(len(rows) - 1, 1)) * statistics.fmean(_trigamma(d / 2) for d, _, _ in rows)
    best: tuple[float, SuitePool] | None = None
    for follow in FOLLOW:
        fit = _fit([(d, v / g ** (2 * follow)) for d, v, g in rows], total, settings, follow)
        if fit is not None and (best is None or fit[0] < best[0] - (noise if best[1].follow == 1.0 else 1e-9)):
            best = fit
    if best is None:  # every row printed the same value each run (a matched clock): no noise seen, no pooling
        return SuitePool(None, settings.prior_df, len(rows), total)
    return best[1]


def _fit(ratios: list[tuple[float, float]], total: float, settings: PoolSettings,
         follow: float) -> tuple[float, SuitePool] | None:  # fmt: skip
    """k and nu0 of a prior sd0_i = k x g_i ** follow, from (df_i, s_i^2 / g_i^(2 follow)) of each row, with the
    scatter of the rows around it beyond chi-square's (the smaller, the better the prior fits)."""
    k2 = sum(d * r for d, r in ratios) / total
    if k2 <= 0:
        return None
    # how well the rows follow: the scatter of log(s^2 / k^2 g^2) beyond what chi-square alone gives
    z = [math.log(max(r / k2, 1e-300)) for _, r in ratios]
    mean = statistics.fmean(z)
    n = len(z)
    excess = statistics.fmean(
        [(zi - mean) ** 2 * n / (n - 1) - _trigamma(d / 2) for zi, (d, _) in zip(z, ratios, strict=True)]
    )
    cap = min(settings.max_prior_df, total)
    nu0 = cap if excess <= 0 else min(cap, 2 * _inverse_trigamma(excess))
    return excess, SuitePool(math.sqrt(k2), max(nu0, 1.0), len(ratios), total, follow)


def _history_within(prior: Prior) -> tuple[float, float] | None:
    """The within-boot sd of a row's recorded runs and its degrees of freedom (samples - boots), None without
    history or without a boot with two samples (calibration runs every command several times in each boot)."""
    if prior.within_df is None or prior.within_df <= 0:
        return None
    return prior.fallback * prior.within, prior.within_df


def posterior(prior: Prior, values: list[float], suite: SuitePool, settings: PoolSettings,
              boots: list[int] | None = None) -> Posterior:  # fmt: skip
    """The criterion's noise after this run's runs so far (see the module's text); `boots`: the boot of each value
    (runs from several boots show their between-boot part too: boot_factor takes it out)."""
    var = log_variance(values)
    factor = boot_factor(prior, len(values), boots)
    if var is not None:
        var /= factor
    df_own = len(values) - 1.0 if var is not None else 0.0
    own = var if var is not None else 0.0
    if suite.k is not None and prior.within > 0:
        sd0, nu0 = suite.sd0(prior.shape * prior.within), suite.nu0
        shape = f"the {prior.source} {prior.shape * 100:.1f}%"
        how = {1.0: f"{suite.k:.2g} x {shape}", 0.5: f"following the square root of {shape}"}.get(
            suite.follow, "alike on every row"
        )
        source = f"this run, pooled over {suite.rows} rows of the suite ({how})"
        mine = _history_within(prior)
        if mine is not None:  # the board's own runs of this row say how noisy it is, beside the suite's pool
            sd_h, df_h = mine
            sd0, nu0 = math.sqrt((nu0 * sd0**2 + df_h * sd_h**2) / (nu0 + df_h)), nu0 + df_h
            source += f", and its {prior.fallback_source} {sd_h * 100:.1f}% within boots"
    else:
        sd0 = prior.fallback * prior.within
        nu0 = prior.history_df if prior.history_df is not None else settings.prior_df
        source = f"{prior.fallback_source} {prior.fallback * 100:.1f}%" + (" and this run" if df_own else "")
    df = nu0 + df_own
    sd = math.sqrt((nu0 * sd0**2 + df_own * own) / df)
    weak = settings.guide_prior_df
    df_fail = df + weak
    sd_fail = math.sqrt((nu0 * sd0**2 + df_own * own + weak * (prior.guide * prior.within) ** 2) / df_fail)
    between = prior.fallback * math.sqrt(prior.between)
    between_df = prior.between_df or (prior.history_df if prior.history_df is not None else settings.between_df)
    if prior.between_df is None and factor > 1.0 and prior.between < 1.0:
        # runs from several boots: a board noisier than its prior shows it in the within-boot part that is left once
        # the prior's share between boots is taken out (boot_factor); its between-boot part is then as much noisier
        # (the prior's share kept), never quieter than the prior says: a spread wider than the class's does not
        # pass as a narrow one. A between-boot part the board's own history measured (calibration) stays its own.
        # Widened, it rests on this run's spread and the class's share, so on the class's degrees of freedom, not
        # on a short history's (four single runs: 3, and a pass needed 29 standard errors)
        wide = sd * math.sqrt(prior.between / (1.0 - prior.between))
        if wide > between:
            between, between_df = wide, max(between_df, settings.between_df)
    return Posterior(sd, df, sd_fail, df_fail, source, seen=suite.k is not None or df_own > 0, between=between,
                     between_df=max(between_df, 1.0), tail=prior.tail)  # fmt: skip


def prior_of(guide_sd: float | None, class_sd: float, class_name: str, artefact: str,
             history: list[float] | list[list[float]] | None, between: float = 0.0, tail: bool = False,
             guide_how: str = "") -> Prior:  # fmt: skip
    """A criterion's prior. `guide_sd`: its row's own published spread as the noise class believes it (clamped to the
    class's range, decision.noiseclass.row_sd), None where it prints none usable. Its shape (what a pooled prior
    follows): that spread, else its history (3 runs or more), else its class. Its fallback (where the suite cannot
    pool, and the between-boot part): its history, else the row's spread, else its class: history replaces the prior,
    never the guide's shape (the guide says which rows are noisy, the board's history how noisy its own runs are).
    Its weak FAIL prior: the row's spread, else the class sd. `between`: the class's share of variance between boots."""
    usable = guide_sd is not None and not artefact
    runs = [g if isinstance(g, list) else [g] for g in (history or [])]  # a flat list: one value per run
    past = history_noise(runs)
    row = guide_sd if usable else None
    between_df = None
    if past is not None:
        fallback, history_df = past.sd, past.df
        if past.between is not None:
            between, between_df = past.between, max(past.runs - 1.0, 1.0)
        told = f", {past.between * 100:.0f}% of it between boots" if past.between is not None else ""
        fallback_source = f"history ({past.samples} runs in {past.runs} boots{told})" if past.runs != past.samples \
            else f"history ({past.samples} runs)"  # fmt: skip
    elif row is not None:
        assert guide_sd is not None
        fallback, fallback_source, history_df = guide_sd, _guide_source(guide_how), None
    else:
        fallback, fallback_source = class_sd, f"class {class_name}" if class_name != "default" else "default"
        history_df = None
    within_df = past.samples - past.runs if past is not None and past.between is not None else None
    if row is not None:
        return Prior(row, _guide_source(guide_how), row, fallback, fallback_source, artefact, history_df, between,
                     tail, between_df, within_df=within_df)  # fmt: skip
    return Prior(fallback, fallback_source, class_sd, fallback, fallback_source, artefact, history_df, between, tail,
                 between_df, within_df=within_df)  # fmt: skip


def _guide_source(how: str) -> str:
    return f"guide min/max ({how})" if how else "guide min/max"


@dataclass(frozen=True)
class HistoryNoise:
    """What a board's recorded runs show of a criterion's noise (one-way random effects on the logs, runs = boots)."""

    sd: float  # one run's relative sd, both parts
    between: float | None  # the share of it between boots (None: no run of the history had two samples to tell)
    df: float  # degrees of freedom of sd
    runs: int  # recorded runs (boots)
    samples: int


def history_noise(runs: list[list[float]]) -> HistoryNoise | None:
    """A criterion's noise from its recorded runs (each a boot's samples): within-boot variance pooled over the runs
    with two samples or more, between-boot variance from the run means beyond what within-boot noise explains.
    None with fewer than 3 positive samples in all."""
    groups = [[math.log(x) for x in g] for g in runs if g and all(x > 0 for x in g)]
    flat = [x for g in groups for x in g]
    if len(flat) < 3 or len(flat) != sum(len(g) for g in runs):
        return None
    within_df = sum(len(g) - 1 for g in groups)
    within = sum((len(g) - 1) * statistics.variance(g) for g in groups if len(g) > 1) / within_df if within_df else None
    if within is None or len(groups) < 2:
        return HistoryNoise(math.sqrt(statistics.variance(flat)), None, len(flat) - 1.0, len(groups), len(flat))
    means = [statistics.fmean(g) for g in groups]
    between = max(statistics.variance(means) - within * statistics.fmean(1 / len(g) for g in groups), 0.0)
    total = within + between
    share = between / total if total > 0 else 0.0
    return HistoryNoise(math.sqrt(total), share, len(flat) - 1.0, len(groups), len(flat))


def history_sd(values: list[float]) -> float | None:
    """The relative sd (log scale) of a criterion's recorded hardware runs (3 or more)."""
    var = log_variance(values) if len(values) >= 3 else None
    return math.sqrt(var) if var is not None else None
