"""How far the simulated board's results stray from the published values: a noise regime of variables/sim.yaml over
the noise classes of variables/noise.yaml (perfgate.decision.noiseclass: the public repeated-run figures real
boards show).

Per row (`guide: shape`, the realistic regime): its class's figure (noise.md's median: public repeated-run data) sets
the level and its guide's own range read for its run count (range / d2(N)) its place in the class: the board's typical
row of the class sits at the figure, a row the guide shows twice as wide at twice it (believed within the class's
range); a row without a range takes the class's figure. `guide: d2` takes each row's own range as its level. A share
of it between boots (perfgate.sim.values.Sampler draws one offset per class per boot); heavy tails for maxima;
occasional failed runs; rows the guide shows in two modes drawn from one mode per boot.
SIM_SPREAD caps every row's sd (a number), SIM_NOISE chooses the regime."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfgate.decision import noiseclass
from perfgate.decision import sequential as seq
from perfgate.decision.noiseclass import NoiseClass, Regime, regimes
from perfgate.decision.noiseclass import data_path as data_path
from perfgate.decision.noiseclass import regime_from as regime_from
from perfgate.errors import DataError
from perfgate.model import Criterion


@dataclass(frozen=True)
class RowNoise:
    """How one row strays on the simulated board."""

    sd: float  # relative sd of one run (log scale)
    cls: str = "default"  # its noise class: a boot moves the whole class
    between: float = 0.0  # the share of its variance between boots
    jumps: float = 0.0  # the chance one run of a maximum jumps 1.3-2x worse
    failed: float = 0.0  # the chance one run fails outright (prints 0)
    modes: tuple[float, float, float] | None = None  # (low, high, chance of the low mode) for a two-mode row


@dataclass
class Spread:
    regime: Regime
    classes: list[NoiseClass]
    default: NoiseClass
    bimodal_ratio: float = 3.0
    cap: float | None = None  # SIM_SPREAD
    # criterion ids whose published min/max is not a spread (perfgate.decision.artefacts): drawn with their class spread
    artefacts: frozenset[str] = frozenset()
    # each class's typical row on this board (the median of its rows' guide spreads): where the regime reads the
    # guide's ranges as a shape (`guide: shape`), that row sits at the class's figure and the others around it
    typical: dict[str, float | None] = field(default_factory=dict)
    _cache: dict = field(default_factory=dict, repr=False)

    def excluding(self, criteria: list[Criterion]) -> Spread:
        """This spread, with the artefact spreads among `criteria` (the board's) never used."""
        from perfgate.decision import artefacts

        found = self.artefacts | frozenset(artefacts.find(criteria))
        typical = noiseclass.typicals(criteria, self.classes, self.default, found, self.bimodal_ratio)
        return replace(self, artefacts=found, typical=typical, _cache={})

    def row(self, c: Criterion | None, metric: str = "") -> RowNoise:
        """How the sim draws a criterion's value (a metric without criterion: the classes matching its name)."""
        key = (c.id if c is not None else None, metric)
        if key not in self._cache:
            self._cache[key] = self._row(c, metric)
        return self._cache[key]

    def _row(self, c: Criterion | None, metric: str) -> RowNoise:
        r = self.regime
        k = noiseclass.class_of(c, self.classes, self.default, metric)
        artefact = "artefact" if c is not None and c.id in self.artefacts else ""
        if c is None:
            sd = k.p90 if r.level == "p90" else k.sd
        elif r.guide == "range4":
            g = None if artefact else seq.from_guide(c)
            sd = (c.max - c.min) / (4 * abs(c.value)) if g is not None and c.max is not None and c.min is not None \
                else (k.p90 if r.level == "p90" else k.sd)  # fmt: skip
        elif r.guide == "shape" and k.name in self.typical:
            sd = noiseclass.shaped_sd(c, k, self.typical[k.name], artefact, r.level)
        else:  # d2, or shape before the board's rows are known (excluding): the row's own range
            sd = noiseclass.row_sd(c, k, artefact, r.level)
        cap = min(x for x in (r.cap, self.cap, 10.0) if x is not None)
        sd = min(sd, cap)
        modes = None
        if r.bimodal and c is not None and not artefact and noiseclass.bimodal(c, self.bimodal_ratio):
            assert c.min is not None and c.max is not None
            modes = (c.min, c.max, (c.max - c.value) / (c.max - c.min))
            sd = min(k.p90 if r.level == "p90" else k.sd, cap)  # its range is its two modes: each strays as its class
        return RowNoise(sd, k.name, k.between if r.between else 0.0, k.jumps if r.tails and k.tail else 0.0,
                        min(k.failed * r.failed, 1.0), modes)  # fmt: skip

    def of(self, c: Criterion | None, metric: str = "") -> float:
        """The relative standard deviation of one run (both parts)."""
        return self.row(c, metric).sd

    def figure(self, value: float, lo: float | None, hi: float | None, c: Criterion | None) -> RowNoise:
        """A figure the sim reproduces outside the tools (boot time, U-Boot KB/s): its criterion's row, else one from
        the figure's own range."""
        if c is not None:
            return self.row(c)
        sd = self.default.sd
        if lo is not None and hi is not None and value and hi >= lo:
            sd = min(max((hi - lo) / (noiseclass.D2[noiseclass.ASSUMED_RUNS] * abs(value)), sd / 2), self.default.p90)
        return RowNoise(min(sd, self.cap if self.cap is not None else 10.0, self.regime.cap or 10.0))

    def describe(self) -> str:
        return noiseclass.describe_regime(self.regime, self.cap)


def cap_from(text: str | float | None, origin: str = "SIM_SPREAD") -> float | None:
    """SIM_SPREAD as given (None or empty: no cap beyond the regime's)."""
    if text is None or str(text).strip() == "":
        return None
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{origin}: {text!r} is not a number (a relative standard deviation, e.g. 0.05)") from None
    if not 0 <= value < 10 or math.isnan(value):
        raise DataError(f"{origin}: {text!r} is out of range (0 up to 10)")
    return value


def load(cap: float | None = None, path: Path | None = None, regime: str | None = None) -> Spread:
    """The simulated board's noise: variables/sim.yaml's regime (or `regime`, SIM_NOISE) over variables/noise.yaml's
    classes, every row capped at `cap` (SIM_SPREAD) when given."""
    default, known = regimes(path)
    name = regime or default
    if name not in known:
        raise DataError(f"SIM_NOISE: {name!r} is not a noise regime (known: {', '.join(known)})", path or data_path())
    model = seq.load()
    return Spread(known[name], model.classes, model.default, model.bimodal_ratio, cap)
