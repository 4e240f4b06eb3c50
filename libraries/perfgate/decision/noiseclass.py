"""How much a criterion's runs stray on a real board: its noise class (variables/noise.yaml) and its own published
spread, read as a real range of a few runs.

The judge takes its prior from here (decision.sequential.NoiseModel) and the simulated board its draws
(perfgate.sim.spread), so both describe one board: the public figures of shared/reference/noise.md.

A guide's `mean (min, max)` cell is the range of the few runs of TI's release cycle (2 to 9: the arithmetic of its
integer cells tells how many, `runs_of`): its standard deviation is about (max - min) / d2(N), d2 the expected range
of N normal draws in standard deviations (1.13 for 2 runs ... 2.97 for 9). Where N cannot be told, 4 runs are assumed
(d2 = 2.06), which the noise's source says.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from perfgate import paths
from perfgate.datafile import line_of, load_mapping
from perfgate.decision.tolerance import compile_match, matches
from perfgate.errors import DataError
from perfgate.model import Criterion

# d2(N): the expected range of N draws of a standard normal (ASTM / Montgomery's tables)
D2 = {2: 1.128, 3: 1.693, 4: 2.059, 5: 2.326, 6: 2.534, 7: 2.704, 8: 2.847, 9: 2.970}
ASSUMED_RUNS = 4  # where a cell's arithmetic does not tell its run count


@dataclass(frozen=True)
class NoiseClass:
    """One class of variables/noise.yaml (see that file for each field)."""

    name: str
    sd: float  # typical relative sd of one run (the gate's prior; the sim's realistic level)
    p90: float  # its 90th percentile over cells (a row's own spread is believed up to this; the sim's harsh level)
    between: float = 0.5  # the share of the variance between boots
    tail: bool = False  # a maximum: heavy upper tail
    jumps: float = 0.0  # tails: the chance one run jumps 1.3-2x (the simulated board)
    failed: float = 0.0  # the chance one run fails outright (the simulated board)
    patterns: tuple[tuple[str, re.Pattern[str]], ...] = ()

    def matches(self, c: Criterion) -> bool:
        return matches(c, dict(self.patterns))


def _decimals(x: float) -> int:
    text = repr(float(x))
    if "e" in text:
        return 6
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def runs_of(c: Criterion) -> int | None:
    """How many runs a `mean (min, max)` cell averages, where its arithmetic tells: min and max whole numbers, the
    mean printed with decimals, and N the fewest runs (2..9) whose sum of whole values can give that mean (N x mean
    within rounding of a whole number, between min + (N-1) x ... bounds). None where it cannot be told."""
    if c.min is None or c.max is None or c.max <= c.min:
        return None
    if c.min != int(c.min) or c.max != int(c.max):
        return None
    d = _decimals(c.value)
    if d == 0:
        return None
    half = 0.5 * 10**-d
    for n in range(2, 10):
        total = c.value * n
        if abs(total - round(total)) <= n * half + 1e-9 and c.min * (n - 1) + c.max <= round(total) + 1e-9 \
                and round(total) <= c.max * (n - 1) + c.min + 1e-9:  # fmt: skip
            return n
    return None


def guide_sd(c: Criterion) -> tuple[float, str] | None:
    """The relative sd of one run that the guide's `value (min, max)` implies, and how its run count was read."""
    if c.min is None or c.max is None or not c.value or c.max < c.min:
        return None
    n = runs_of(c)
    how = f"{n} runs by its cells' arithmetic" if n else f"{ASSUMED_RUNS} runs assumed"
    return (c.max - c.min) / (D2[n or ASSUMED_RUNS] * abs(c.value)), how


def row_sd(c: Criterion, cls: NoiseClass, artefact: str = "", level: str = "sd") -> float:
    """A row's relative sd of one run: its guide's spread (not an artefact) clamped to [sd / 2, p90] of its class,
    else its class's figure (`level`: `sd`, typical; `p90`, the noisy end)."""
    base = cls.p90 if level == "p90" else cls.sd
    g = None if artefact else guide_sd(c)
    if g is None:
        return base
    return min(max(g[0], base / 2), cls.p90 if level != "p90" else 2 * cls.p90)


def shaped_sd(c: Criterion, cls: NoiseClass, typical: float | None, artefact: str = "", level: str = "sd") -> float:
    """A row's relative sd of one run where the class's figure sets the level and the guide the shape: its guide's
    spread over `typical` (the board's typical row of the class, see typical_sd) times the class's figure, clamped as
    row_sd clamps; the class's figure for a row without a usable spread or a board without a typical row."""
    base = cls.p90 if level == "p90" else cls.sd
    g = None if artefact else guide_sd(c)
    if g is None or not typical:
        return base
    return min(max(base * g[0] / typical, base / 2), cls.p90 if level != "p90" else 2 * cls.p90)


def typical_sd(rows: list[Criterion], artefacts: frozenset[str] | set[str] = frozenset(),
               bimodal_ratio: float = 3.0) -> float | None:  # fmt: skip
    """The median of the guide spreads of `rows` (one class of one board), artefacts and two-mode rows left out
    (their min/max are not a spread); None when none prints one."""
    sds = sorted(g[0] for c in rows if c.id not in artefacts and not bimodal(c, bimodal_ratio)
                 and (g := guide_sd(c)) is not None and g[0] > 0)  # fmt: skip
    if not sds:
        return None
    mid = len(sds) // 2
    return sds[mid] if len(sds) % 2 else math.sqrt(sds[mid - 1] * sds[mid])


def typicals(
    criteria: list[Criterion],
    classes: list[NoiseClass],
    default: NoiseClass,
    artefacts: frozenset[str] | set[str] = frozenset(),
    bimodal_ratio: float = 3.0,
) -> dict[str, float | None]:
    """Each noise class's typical row among one board's criteria (typical_sd), by class name."""
    by_class: dict[str, list[Criterion]] = {}
    for c in criteria:
        by_class.setdefault(class_of(c, classes, default).name, []).append(c)
    return {k: typical_sd(rows, artefacts, bimodal_ratio) for k, rows in by_class.items()}


def _line(text: str, needle: str) -> int | None:
    return next((i for i, ln in enumerate(text.splitlines(), 1) if needle in ln), None)


def _fraction(value: object, what: str, path: Path, line: int | None, high: float = 10.0) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DataError(f"{what}: {value!r} is not a number", path, line) from None
    if not 0 <= number <= high or math.isnan(number):
        raise DataError(f"{what}: {value!r} is out of range (0 .. {high:g})", path, line)
    return number


FIELDS = ("name", "match", "sd", "p90", "between", "tail", "jumps", "failed")


def parse_class(k: object, i: int, path: Path, text: str, default: bool = False) -> NoiseClass:
    """One class of noise.yaml (or its `default`, which has no name or match): a bad key or value names the line."""
    where = "default" if default else f"classes[{i}]"
    name = "default" if default else (k.get("name") if isinstance(k, dict) else None)
    line = _line(text, "default:") if default else (_line(text, f"name: {name}") if name else _line(text, "classes:"))
    if isinstance(k, int | float) and default:  # `default: 0.02`: a bare sd
        k = {"sd": k}
    if not isinstance(k, dict) or (not default and (not name or not isinstance(k.get("match"), dict)
                                                    or not k["match"])):  # fmt: skip
        raise DataError(f"{where} needs name, match and sd", path, line)
    unknown = sorted(set(k) - set(FIELDS))
    if unknown:
        raise DataError(f"{where}: unknown key {unknown[0]!r} (expected {', '.join(FIELDS)})", path, line)
    sd = _fraction(k.get("sd"), f"{where}.sd", path, line)
    p90 = _fraction(k.get("p90", max(sd, 0.0)), f"{where}.p90", path, line)
    if p90 < sd:
        raise DataError(f"{where}.p90: {p90!r} is below its sd {sd!r}", path, line)
    patterns = () if default else tuple(compile_match(k["match"], f"{where}.", path, line).items())
    tail = k.get("tail", False)
    if not isinstance(tail, bool):
        raise DataError(f"{where}.tail: {tail!r} is not true or false", path, line)
    return NoiseClass(
        str(name), sd, p90, _fraction(k.get("between", 0.5), f"{where}.between", path, line, 1.0), tail,
        _fraction(k.get("jumps", 0.0), f"{where}.jumps", path, line, 1.0),
        _fraction(k.get("failed", 0.0), f"{where}.failed", path, line, 1.0), patterns,
    )  # fmt: skip


def class_of(c: Criterion | None, classes: list[NoiseClass], default: NoiseClass, metric: str = "") -> NoiseClass:
    """The first class that matches the criterion (a metric without criterion: the classes that match on its name
    alone), else the default."""
    for k in classes:
        if c is not None and k.matches(c):
            return k
        if c is None and metric and {f for f, _ in k.patterns} == {"metric"} and k.patterns[0][1].search(metric):
            return k
    return default


def bimodal(c: Criterion, ratio: float) -> bool:
    """A row the guide prints in two modes: its max at least `ratio` times its min (lat_ctx 7.4-195 us, OSPI
    21-192 MB/s): its mean is a mixture, its range no spread."""
    return c.min is not None and c.max is not None and c.min > 0 and c.max >= ratio * c.min


# -- the simulated board's regimes (variables/sim.yaml): data the gate names in its reports, read without the simulator

REGIME_KEYS = ("description", "level", "guide", "cap", "between", "tails", "failed", "bimodal")


@dataclass(frozen=True)
class Regime:
    name: str
    description: str = ""
    level: str = "sd"  # the class figure rows without a published spread take: sd (typical) or p90
    # how a published range is read: d2 (range / d2(N), clamped to the class), shape (range / d2(N) relative to the
    # board's typical row of its class, which sits at the class figure) or range4 (range / 4: the old sim)
    guide: str = "d2"
    cap: float | None = None  # every row's sd at most this
    between: bool = True  # a share of the noise between boots
    tails: bool = True  # maxima jump now and then
    failed: float = 1.0  # times the class's failed-run rate
    bimodal: bool = True  # rows the guide shows in two modes: one mode per boot


def data_path() -> Path:
    return paths.variables() / "sim.yaml"


def regimes(path: Path | None = None) -> tuple[str, dict[str, Regime]]:
    """variables/sim.yaml: its default regime and every regime by name."""
    path = path or data_path()
    data = load_mapping(path, "a mapping with regime and regimes")
    unknown = sorted(set(data) - {"regime", "regimes"})
    if unknown:
        raise DataError(f"unknown key {unknown[0]!r} (expected regime, regimes)", path,
                        line_of(path, unknown[0]))  # fmt: skip
    table = data.get("regimes")
    if not isinstance(table, dict) or not table:
        raise DataError("regimes: must be a mapping of regime name to its settings", path, line_of(path, "regimes"))
    out: dict[str, Regime] = {}
    for name, spec in table.items():
        line = line_of(path, str(name))
        if not isinstance(spec, dict):
            raise DataError(f"regimes.{name}: must be a mapping", path, line)
        bad = sorted(set(spec) - set(REGIME_KEYS))
        if bad:
            raise DataError(f"regimes.{name}: unknown key {bad[0]!r} (expected {', '.join(REGIME_KEYS)})", path, line)
        level, guide = spec.get("level", "sd"), spec.get("guide", "d2")
        if level not in ("sd", "p90") or guide not in ("d2", "shape", "range4"):
            raise DataError(f"regimes.{name}: level must be sd or p90, guide d2, shape or range4", path, line)
        try:
            cap = None if spec.get("cap") is None else float(spec["cap"])
            failed = float(spec.get("failed", 1.0))
        except (TypeError, ValueError):
            raise DataError(f"regimes.{name}: cap and failed must be numbers", path, line) from None
        flags = {k: spec.get(k, True) for k in ("between", "tails", "bimodal")}
        if not all(isinstance(v, bool) for v in flags.values()):
            raise DataError(f"regimes.{name}: between, tails and bimodal must be true or false", path, line)
        out[str(name)] = Regime(str(name), str(spec.get("description", "")), level, guide, cap, failed=failed,
                                **flags)  # fmt: skip
    default = str(data.get("regime", ""))
    if default not in out:
        raise DataError(f"regime: {default!r} is not one of the regimes ({', '.join(out)})", path,
                        line_of(path, "regime"))  # fmt: skip
    env = os.environ.get("PERFGATE_SIM_NOISE", "").strip()  # the test harness's default (tests/conftest.py)
    if env:
        if env not in out:
            raise DataError(f"PERFGATE_SIM_NOISE: {env!r} is not a noise regime (known: {', '.join(out)})")
        default = env
    return default, out


def regime_from(text: str | None, origin: str = "SIM_NOISE") -> str | None:
    """SIM_NOISE as given: None or empty for the file's default; an unknown name lists the known ones."""
    if text is None or str(text).strip() == "":
        return None
    _, known = regimes()
    if str(text) not in known:
        raise DataError(f"{origin}: {text!r} is not a noise regime (known: {', '.join(known)}; variables/sim.yaml)")
    return str(text)


def describe_regime(regime: Regime, cap: float | None = None) -> str:
    """`noise regime realistic: <its description>` (with SIM_SPREAD's cap, when given)."""
    capped = f", every row capped at {cap:g} (SIM_SPREAD)" if cap is not None else ""
    return f"noise regime {regime.name}{capped}: {regime.description}"
