"""The three-way, sequential verdict of one criterion: pass, fail, or inconclusive.

A criterion's threshold is its published value made worse by the tolerance (perfgate.verdict). Its noise, a
relative standard deviation, comes from the guide's own min/max where it prints them, else from the board's recorded
hardware history, else from a per-class default in variables/noise.yaml. After each run of a workload the median of
its criterion's values so far is compared with the threshold in standard errors of that median:

- at least `z` standard errors on the good side: pass (decided);
- at least `z_fail` standard errors on the bad side: fail (decided). `z_fail` is the larger: one board's gate judges
  hundreds of criteria, and one false FAIL among them is the gate crying wolf; a regression that is not yet that
  clear is inconclusive, which fails the gate too unless INCONCLUSIVE:pass;
- in between: the workload runs again, up to REPEAT runs in all; still in between after the last: inconclusive.

A tail-latency criterion (a maximum) measured over a shorter run than the guide's can only have seen a smaller
maximum: it is inconclusive unless what it saw already fails (`run_length`).
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.tolerance import Tolerance, compile_match, matches
from perfgate.verdict import Judgement

PASS, FAIL, INCONCLUSIVE, MORE = "pass", "fail", "inconclusive", "more"
_MEDIAN_EFFICIENCY = math.sqrt(math.pi / 2)  # the median's standard error over the mean's, for normal noise


@dataclass(frozen=True)
class Noise:
    sd: float  # relative standard deviation of one run
    source: str  # "guide min/max", "history (n runs)", "class <name>", "default"
    of_values: bool = False  # read from the values the gate judged before (history), not from single runs


@dataclass(frozen=True)
class Decision:
    verdict: str  # PASS, FAIL, MORE (run again) or INCONCLUSIVE
    value: float  # the median of the runs so far
    runs: int
    margin: float  # how far the median is on the good side of the threshold, in the criterion's unit
    z: float  # that margin in standard errors of the median (inf when there is no noise)
    reason: str = ""

    @property
    def decided(self) -> bool:
        return self.verdict in (PASS, FAIL)


def from_guide(c: Criterion) -> float | None:
    """The relative sd a published `value (min lo, max hi)` implies: its range is about 4 sd."""
    if c.min is None or c.max is None or not c.value or c.max < c.min:
        return None
    return (c.max - c.min) / (4 * abs(c.value))


def from_history(values: list[float]) -> float | None:
    """The relative sd of a criterion's recorded hardware runs (3 or more)."""
    if len(values) < 3:
        return None
    mean = statistics.fmean(values)
    return statistics.stdev(values) / abs(mean) if mean else None


@dataclass
class NoiseModel:
    z: float
    default: float
    z_fail: float
    classes: list[tuple[str, dict[str, re.Pattern[str]], float]] = field(default_factory=list)

    def class_of(self, c: Criterion) -> str:
        for name, patterns, _sd in self.classes:
            if matches(c, patterns):
                return name
        return "default"

    def of(self, c: Criterion, history: list[float] | None = None) -> Noise:
        guide = from_guide(c)
        if guide is not None:
            return Noise(guide, "guide min/max")
        past = from_history(history or [])
        if past is not None:
            return Noise(past, f"history ({len(history or [])} runs)", of_values=True)
        for name, patterns, sd in self.classes:
            if matches(c, patterns):
                return Noise(sd, f"class {name}")
        return Noise(self.default, "default")


def averaged(noise: Noise, runs: int) -> Noise:
    """The noise of a value that is itself the mean of `runs` independent runs (boot time: BOOT_CYCLES boots): one
    run's noise over sqrt(runs). Not for noise read from the board's history, whose values are such means already."""
    if runs <= 1 or noise.of_values:
        return noise
    return Noise(
        noise.sd / math.sqrt(runs), f"{noise.source}: {noise.sd * 100:.1f}% for one run, over the mean of {runs}"
    )


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


def load(path: Path | None = None) -> NoiseModel:
    """variables/noise.yaml (a bad key or value names the file and line)."""
    path = path or data_path()
    data = load_mapping(path, "a mapping with z, default and classes")
    text = path.read_text(encoding="utf-8")
    unknown = sorted(set(data) - {"z", "z_fail", "default", "classes"})
    if unknown:
        raise DataError(
            f"unknown key {unknown[0]!r} (expected z, z_fail, default, classes)", path, _line(text, unknown[0])
        )
    z = _number(data.get("z", 2.0), "z", path, _line(text, "z:"), 0, 10)
    model = NoiseModel(
        z,
        _number(data.get("default"), "default", path, _line(text, "default:"), 0, 10),
        _number(data.get("z_fail", z), "z_fail", path, _line(text, "z_fail:"), 0, 10),
    )
    classes = data.get("classes") or []
    if not isinstance(classes, list):
        raise DataError("classes: must be a list", path, _line(text, "classes:"))
    for i, k in enumerate(classes):
        name = k.get("name") if isinstance(k, dict) else None
        line = _line(text, f"name: {name}") if name else _line(text, "classes:")
        if not isinstance(k, dict) or not name or not isinstance(k.get("match"), dict) or not k["match"]:
            raise DataError(f"classes[{i}] needs name, match and sd", path, line)
        patterns = compile_match(k["match"], f"classes[{i}].", path, line)
        sd = _number(k.get("sd"), f"classes[{i}].sd", path, line, -1e-12, 10)
        model.classes.append((str(name), patterns, sd))
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


def _score(c: Criterion, value: float, m: float, rel_se: float) -> float:
    """The margin in standard errors. A throughput or a latency strays by a factor, not by an amount (a board at
    half speed halves its bandwidth; latencies have a long tail above, none below zero): when the value and the
    threshold are both positive the margin is the log of their ratio and the noise a relative one, which for small
    noise is the same as the plain margin over sd x value. Else (a zero, a matched clock) the plain margin."""
    threshold = value - m if c.direction == "higher" else value + m
    if c.direction != "match" and value > 0 and threshold > 0:
        m, se = math.log(value / threshold if c.direction == "higher" else threshold / value), rel_se
    else:
        se = rel_se * abs(c.value) / (6 if c.direction == "match" else 1)  # a board prints its clock, it does
        # not measure it (as perfgate.sim.values draws it)
    return m / se if se > 0 else math.copysign(math.inf, m if m else 1.0)


def decide(
    c: Criterion, samples: list[float], tol: Tolerance, noise: Noise, z: float, last: bool, z_fail: float | None = None
) -> Decision:
    """The criterion after `samples` runs; `last`: no run may follow (REPEAT reached), so undecided is inconclusive.
    `z` standard errors on the good side pass it, `z_fail` (default: z) on the bad side fail it."""
    z_fail = z if z_fail is None else z_fail
    if not samples:
        raise ValueError(f"criterion {c.id}: no sample to decide on")
    n = len(samples)
    value = statistics.median(samples)
    m = margin(c, value, tol)
    score = _score(c, value, m, noise.sd * (_MEDIAN_EFFICIENCY if n > 2 else 1.0) / math.sqrt(n))
    if score >= z:
        return Decision(PASS, value, n, m, score)
    if score <= -z_fail:
        return Decision(FAIL, value, n, m, score)
    if not last:
        return Decision(MORE, value, n, m, score)
    side = "passes" if m >= 0 else "fails"
    need = z if m >= 0 else z_fail
    why = (f"undecided after {n} run{'s' if n > 1 else ''}: the median {value:.6g} {c.unit} {side} by "
           f"{abs(score):.1f} standard errors, less than the {need:g} needed (noise {noise.sd * 100:.1f}% from "
           f"{noise.source})")  # fmt: skip
    return Decision(INCONCLUSIVE, value, n, m, score, why)


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
    """Why a tail-latency criterion is inconclusive for its run length, None when it is not: a run shorter than the
    guide's can only have seen a smaller maximum, so it decides only when what it saw already fails."""
    if run is None or fails or not run.short:
        return None
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


def undecided(decisions: dict[str, Decision]) -> list[str]:
    """The criteria whose workload should run again."""
    return [cid for cid, d in decisions.items() if d.verdict == MORE]
