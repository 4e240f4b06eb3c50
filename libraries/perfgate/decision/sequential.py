"""The three-way, sequential verdict of one criterion: pass, fail, or inconclusive.

A criterion's threshold is its published value made worse by the tolerance (decision.verdict). After each run of its
command, the geometric mean of its values so far is compared with the threshold on the log scale, in standard errors
of the board's own noise in this run, pooled across its suite's rows (decision.pooling), as a Student t with the
degrees of freedom that pooling honestly gives:

- at least the t quantile of `alpha_pass` on the good side: pass (decided, final);
- at least the t quantile of `alpha_gate / m` on the bad side, under the noise that also counts the guide's own
  spread as a weak prior: fail (decided, final). m is the number of criteria the run judges, so that a healthy board's
  whole gate (about 600 criteria) fails by accident at most `alpha_gate` of the time (Bonferroni), not each criterion;
- in between: its command runs again, within its budget (decision.budget); still in between at the end: the criterion
  is judged by what the data can support (`limited`), else inconclusive.

A tail-latency criterion (a maximum) measured over a shorter run than the guide's can only have seen a smaller
maximum: it is inconclusive unless what it saw already fails (`run_length`).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.decision import noiseclass
from perfgate.decision.noiseclass import NoiseClass
from perfgate.decision.pooling import PoolSettings, Posterior, Prior, prior_of
from perfgate.decision.tolerance import Tolerance
from perfgate.decision.verdict import Judgement, Verdict
from perfgate.errors import DataError
from perfgate.model import Criterion

PASS, FAIL, INCONCLUSIVE, MORE = Verdict.PASS, Verdict.FAIL, Verdict.INCONCLUSIVE, "more"  # MORE: undecided, runs again


@dataclass(frozen=True)
class Decision:
    verdict: str  # PASS, FAIL, MORE (run again) or INCONCLUSIVE
    value: float  # the median of the runs so far (what AGGREGATE:median reports)
    runs: int
    margin: float  # how far the median is on the good side of the threshold, in the criterion's unit
    z: float  # the test statistic: the geometric mean's margin in standard errors (inf when there is no noise)
    reason: str = ""
    noise: Posterior | None = None  # the noise the decision used
    mean: float | None = None  # the geometric mean (a maximum's: the median) the statistic was computed on
    boots: int = 1  # the boots its runs came from

    @property
    def decided(self) -> bool:
        return self.verdict in (PASS, FAIL)


def from_guide(c: Criterion) -> float | None:
    """The relative sd of one run a published `value (min lo, max hi)` implies (decision.noiseclass.guide_sd)."""
    g = noiseclass.guide_sd(c)
    return g[0] if g else None


def spend(alpha: float, look: int) -> float:
    """The error rate look `look` (1, 2, ...) may spend of `alpha`: alpha / (k (k + 1)), which sums to alpha over
    every look, so a criterion looked at after each run is held to alpha in all, not at each look."""
    k = max(look, 1)
    return alpha / (k * (k + 1))


def spend_info(alpha: float, before: float, after: float) -> float:
    """The error rate a look may spend when it brings the information from fraction `before` to `after` (0..1, of
    what the criterion's most runs and boots would give): Lan and DeMets' Pocock-type spending function,
    alpha x ln(1 + (e - 1) t) spent by the information fraction t (Lan & DeMets, Biometrika 70 (1983) 659-663). The
    increments sum to at most alpha over every look, however many; a run that adds little information (a repeat
    inside a boot, where the noise lies between boots) spends little, the first run of a fresh boot much."""

    def spent(t: float) -> float:
        return alpha * math.log(1 + (math.e - 1) * min(max(t, 0.0), 1.0))

    return max(spent(after) - spent(before), 0.0)


@dataclass
class NoiseModel:
    """variables/noise.yaml: the error rates the verdict is held to, how a suite pools, and the noise classes."""

    alpha_pass: float  # per criterion, over all its looks: a board exactly at its threshold passes this often
    alpha_gate: float  # per gate: a healthy board fails some criterion this often (Bonferroni over the criteria)
    default: NoiseClass
    pool: PoolSettings = field(default_factory=PoolSettings)
    classes: list[NoiseClass] = field(default_factory=list)
    bimodal_ratio: float = 3.0  # a published max this many times its min: two modes, not a spread
    # how a row's published range sets its prior: `own` (that range, believed within its class's), or `wider` (the
    # wider of that and the row's place in its class at the class's figure: noiseclass.shaped_sd)
    guide: str = "wider"
    # each class's typical row on the board judged (noiseclass.typical_sd; for_board), for the `wider` reading
    typical: dict[str, float | None] = field(default_factory=dict)
    beta_gate: float = 0.05  # per gate: a healthy board fails for want of a pass (inconclusive) at most this often

    def class_of(self, c: Criterion) -> NoiseClass:
        return noiseclass.class_of(c, self.classes, self.default)

    def for_board(self, criteria: list[Criterion], artefacts: dict[str, str] | None = None) -> NoiseModel:
        """This model for one board's criteria: each class's typical row there, which the `wider` reading needs."""
        typical = noiseclass.typicals(criteria, self.classes, self.default, frozenset(artefacts or {}),
                                      self.bimodal_ratio)  # fmt: skip
        return replace(self, typical=typical)

    def guide_row(self, c: Criterion, k: NoiseClass, artefact: str, g: tuple[float, str]) -> tuple[float, str]:
        """A row's prior from its published range, and how it was read: its own range (clamped to its class's), or
        where the `wider` reading finds more, its place in its class at the class's figure (TI's ranges are of
        2-9 runs; one board's class reads 0.5-2.5x the public figure): a prior no narrower than real noise."""
        own = noiseclass.row_sd(c, k, artefact)
        typical = self.typical.get(k.name)
        if self.guide != "wider" or not typical:
            return own, g[1]
        shaped = noiseclass.shaped_sd(c, k, typical, artefact)
        if shaped <= own:
            return own, g[1]
        return shaped, (f"{g[1]}; {g[0] / typical:.2g} x the board's typical {k.name} row, at the class's "
                        f"{k.sd * 100:.1f}%")  # fmt: skip

    def prior(self, c: Criterion, history: list[float] | list[list[float]] | None = None, artefact: str = "",
              averaged: int = 1) -> Prior:  # fmt: skip
        """The criterion's prior noise per value: the row's own published spread (unless an artefact; believed within
        its class's range), else history, else its class; a value that is the mean of `averaged` runs (boot time) has
        one run's noise over sqrt(averaged), history excepted (its values are such means already)."""
        k = self.class_of(c)
        g = None if artefact else noiseclass.guide_sd(c)
        row, how = self.guide_row(c, k, artefact, g) if g else (None, "")
        if g and noiseclass.bimodal(c, self.bimodal_ratio):  # two modes: its whole log range, unclamped
            assert c.min is not None and c.max is not None
            row, how = math.log(c.max / c.min) / noiseclass.D2[2], f"two modes, {c.min:g} and {c.max:g}"
        if how.startswith("two modes"):
            # a boot takes either mode: a history that happened to stay in one (10 boots of OSPI's fast mode) says
            # nothing of the next boot's, so its noise stays the distance between its modes whatever the history shows
            p = replace(prior_of(row, k.sd, k.name, artefact, None, k.between, k.tail, how), two_modes=True)
        else:
            p = prior_of(row, k.sd, k.name, artefact, history, k.between, k.tail, how)
        if averaged <= 1 or p.history_df is not None:
            return p
        root = math.sqrt(averaged)

        def per_value(source: str, sd: float) -> str:
            return f"{source} ({sd * 100:.1f}% for one run, over the mean of {averaged})"

        return replace(p, shape=p.shape / root, guide=p.guide / root, fallback=p.fallback / root,
                       source=per_value(p.source, p.shape),
                       fallback_source=per_value(p.fallback_source, p.fallback))  # fmt: skip

    def z_power(self, criteria: int) -> float:
        """How far past its pass quantile a healthy board's margin must reach for the criterion to count as decidable
        at its tolerance: a healthy board's gate fails for want of a pass at most `beta_gate` of the time, split
        over its criteria."""
        from scipy.stats import norm

        return float(norm.isf(self.beta_gate / max(criteria, 1)))

    def q_pass(self, df: float, look: int = 1) -> float:
        return t_quantile(spend(self.alpha_pass, look), df)

    def q_pass_at(self, df: float, before: float, after: float) -> float:
        """The pass quantile of a look that brings the information from `before` to `after` (spend_info); a look that
        adds none cannot pass."""
        alpha = spend_info(self.alpha_pass, before, after)
        return t_quantile(alpha, df) if alpha > 0 else math.inf

    def q_fail(self, df: float, criteria: int, look: int = 1) -> float:
        return t_quantile(spend(self.alpha_gate / max(criteria, 1), look), df)


def t_quantile(alpha: float, df: float) -> float:
    """The one-sided Student t quantile: P(T > q) = alpha with `df` degrees of freedom."""
    return _t_quantile(alpha, round(df, 2))


@lru_cache(maxsize=4096)
def _t_quantile(alpha: float, df: float) -> float:
    from scipy.stats import t as student  # late: scipy.stats takes a second to import, and only judging needs it

    return float(student.isf(alpha, df)) if df < 1e6 else float(student.isf(alpha, 1e6))


def data_path() -> Path:
    return paths.variables() / "noise.yaml"


def _line(text: str, needle: str) -> int | None:
    return next((i for i, ln in enumerate(text.splitlines(), 1) if needle in ln), None)


def _number(value: object, what: str, path: Path, line: int | None, low: float, high: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DataError(f"{what}: {value!r} is not a number", path, line) from None
    if not low < number < high:
        raise DataError(f"{what}: {value!r} is out of range ({low} .. {high})", path, line)
    return number


KEYS = ("alpha_pass", "alpha_gate", "beta_gate", "bimodal_ratio", "guide", "default", "pool", "classes")
POOL_KEYS = ("prior_df", "guide_prior_df", "min_rows", "min_df", "max_prior_df", "between_df")


def load(path: Path | None = None) -> NoiseModel:
    """variables/noise.yaml (a bad key or value names the file and line)."""
    path = path or data_path()
    data = load_mapping(path, "a mapping with alpha_pass, alpha_gate, default, pool and classes")
    text = path.read_text(encoding="utf-8")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise DataError(f"unknown key {unknown[0]!r} (expected {', '.join(KEYS)})", path, _line(text, unknown[0]))
    pool_data = data.get("pool") or {}
    if not isinstance(pool_data, dict):
        raise DataError("pool: must be a mapping", path, _line(text, "pool:"))
    bad = sorted(set(pool_data) - set(POOL_KEYS))
    if bad:
        raise DataError(f"pool: unknown key {bad[0]!r} (expected {', '.join(POOL_KEYS)})", path, _line(text, bad[0]))
    defaults = PoolSettings()
    pool = PoolSettings(**{
        k: _number(pool_data.get(k, getattr(defaults, k)), f"pool.{k}", path, _line(text, f"{k}:"), 0, 1e6)
        for k in POOL_KEYS
    })  # fmt: skip
    model = NoiseModel(
        _number(data.get("alpha_pass", 0.05), "alpha_pass", path, _line(text, "alpha_pass:"), 0, 0.5),
        _number(data.get("alpha_gate", 0.01), "alpha_gate", path, _line(text, "alpha_gate:"), 0, 0.5),
        noiseclass.parse_class(data.get("default"), 0, path, text, default=True),
        pool,
    )
    model.beta_gate = _number(data.get("beta_gate", 0.05), "beta_gate", path, _line(text, "beta_gate:"), 0, 0.5)
    model.bimodal_ratio = _number(data.get("bimodal_ratio", 3.0), "bimodal_ratio", path,
                                  _line(text, "bimodal_ratio:"), 1, 1e6)  # fmt: skip
    model.guide = str(data.get("guide", "wider"))
    if model.guide not in ("own", "wider"):
        raise DataError(f"guide: must be own or wider, not {model.guide!r}", path, _line(text, "guide:"))
    classes = data.get("classes") or []
    if not isinstance(classes, list):
        raise DataError("classes: must be a list", path, _line(text, "classes:"))
    model.classes.extend(noiseclass.parse_class(k, i, path, text) for i, k in enumerate(classes))
    return model


def margin(c: Criterion, value: float, tol: Tolerance) -> float:
    """How far `value` is on the good side of the criterion's threshold (negative: it fails)."""
    allowed = max(tol.relative * abs(c.value), tol.absolute)
    if c.direction == "higher":
        return value - (c.value - allowed)
    if c.direction == "lower":
        return (c.value + allowed) - value
    if c.direction == "match":
        return allowed - abs(value - c.value)
    raise ValueError(f"criterion {c.id}: unknown direction {c.direction!r}")


def threshold(c: Criterion, tol: Tolerance) -> float:
    """The published value made worse by the tolerance (the match direction: the published value itself)."""
    allowed = max(tol.relative * abs(c.value), tol.absolute)
    return c.value - allowed if c.direction == "higher" else c.value + allowed if c.direction == "lower" else c.value


def _score(c: Criterion, samples: list[float], tol: Tolerance, se: float,
           tail: bool = False) -> tuple[float, float | None]:  # fmt: skip
    """The test statistic and the value it was computed on. A throughput or a latency strays by a factor (a board at
    half speed halves its bandwidth; latencies have a long tail above, none below zero): when the values and the
    threshold are all positive, the margin is the log of the geometric mean over the threshold (of the median, for a
    maximum: one run that caught a rare long latency does not move it), in standard errors `se` (relative: on the log
    scale). Else (a zero, a matched clock) the plain margin of the mean, the noise taken relative to the published
    value (a matched clock: a sixth of it, as a board prints its clock rather than measures it)."""
    thr = threshold(c, tol)
    if c.direction != "match" and thr > 0 and all(x > 0 for x in samples):
        logs = [math.log(x) for x in samples]
        centre = math.exp(statistics.median(logs) if tail else statistics.fmean(logs))
        m = math.log(centre / thr) if c.direction == "higher" else math.log(thr / centre)
        return (m / se if se > 0 else math.copysign(math.inf, m if m else 1.0)), centre
    mean = statistics.fmean(samples)
    m = margin(c, mean, tol)
    se = se * abs(c.value) / (6 if c.direction == "match" else 1)
    return (m / se if se > 0 else math.copysign(math.inf, m if m else 1.0)), mean


def decide(c: Criterion, samples: list[float], tol: Tolerance, noise: Posterior, q_pass: float, q_fail: float,
           last: bool, boots: int = 1) -> Decision:  # fmt: skip
    """The criterion after `samples` runs in `boots` boots, with its noise `noise` (decision.pooling.posterior);
    `q_pass` and `q_fail` the t quantiles it must reach on the good side (under noise.sd) and on the bad side (under
    noise.sd_fail, which also counts the guide's spread). `last`: no run may follow, so undecided is inconclusive."""
    if not samples:
        raise ValueError(f"criterion {c.id}: no sample to decide on")
    n = len(samples)
    value = statistics.median(samples)
    m = margin(c, value, tol)
    score, mean = _score(c, samples, tol, noise.se(n, boots), noise.tail)
    score_fail, _ = _score(c, samples, tol, noise.se(n, boots, fail=True), noise.tail)
    if score >= q_pass:
        return Decision(PASS, value, n, m, score, noise=noise, mean=mean, boots=boots)
    if score_fail <= -q_fail and (noise.seen or last):
        return Decision(FAIL, value, n, m, score_fail, noise=noise, mean=mean, boots=boots)
    if not last:
        return Decision(MORE, value, n, m, score, noise=noise, mean=mean, boots=boots)
    fails = score < 0
    side, need, got = ("fails", q_fail, score_fail) if fails else ("passes", q_pass, score)
    what = "median" if noise.tail else "geometric mean"
    in_boots = f" in {boots} boots" if boots > 1 else ""
    why = (f"undecided after {n} run{'s' if n > 1 else ''}{in_boots}: the {what} {mean:.6g} {c.unit} {side} its "
           f"threshold by {abs(got):.1f} standard errors, less than the {need:.2f} needed (noise "
           f"{noise.describe()})")  # fmt: skip
    return Decision(INCONCLUSIVE, value, n, m, score, why, noise=noise, mean=mean, boots=boots)


@dataclass(frozen=True)
class RunLength:
    """How long a tail-latency measurement ran, beside how long the guide's ran, in one unit (`s` or `loops`)."""

    ran: float
    guide: float
    unit: str = "s"
    slack: float = 0.0  # the share of the guide's length a run may lack and still count as as long (start-up)
    detail: str = ""  # how the gate's length was read, e.g. "299950 wake-ups of 200 us, as cyclictest printed"

    @property
    def short(self) -> bool:
        return self.ran < self.guide * (1 - self.slack)

    def describe(self) -> str:
        detail = f" ({self.detail})" if self.detail else ""
        return f"ran {length(self.ran, self.unit)}{detail} of the guide's {length(self.guide, self.unit)}"


def length(value: float, unit: str) -> str:
    """A run length as people read it: `60 s`, `21600 s (6 h)`, `100000 loops`."""
    if unit != "s":
        return f"{value:.0f} {unit}"
    text = f"{value:g} s"
    if value >= 3600:
        return f"{text} ({value / 3600:.3g} h)"
    if value >= 120:
        return f"{text} ({value / 60:.3g} min)"
    return text


def short_run(run: RunLength | None, fails: bool) -> str | None:
    """Why a tail-latency criterion (or a boot time averaged over fewer boots than the guide's) is inconclusive for
    its run length, None when it is not: a run shorter than the guide's can only have seen a smaller maximum, so it
    decides only when what it saw already fails."""
    if run is None or fails or not run.short:
        return None
    if run.unit == "boot cycles":  # a mean (boot time), not a maximum: fewer boots, more noise, a slow boot weighs more
        return (f"{run.describe()}: the mean of fewer boots than the guide's is a weaker measurement, so a value "
                "within the threshold is not the guide's pass")  # fmt: skip
    return (f"{run.describe()}: a shorter run can only see a smaller maximum and fewer overflows, so a value "
            "within the threshold proves nothing")  # fmt: skip


def with_run_length(j: Judgement, c: Criterion, tol: Tolerance, run: RunLength | None) -> Judgement:
    """A judgement of a tail-latency criterion with its run length: the message gives the run's length beside the
    guide's, and a pass (or a better-than-published warn) from a shorter run is inconclusive (`short_run`)."""
    if run is None or j.measured is None:
        return j
    why = short_run(run, j.verdict == FAIL or margin(c, j.measured, tol) < 0)
    if why:
        return replace(j, verdict=INCONCLUSIVE, message=f"{j.message}; INCONCLUSIVE: {why}")
    return replace(j, message=f"{j.message}; {run.describe()}")
