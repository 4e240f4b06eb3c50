"""How far the simulated board's results stray from the published values: the guide's own spread where it prints
min and max, else a per-class spread from variables/sim.yaml, capped by SIM_SPREAD (see that file)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.tolerance import compile_match, matches


def data_path() -> Path:
    return paths.variables() / "sim.yaml"


def from_guide(value: float, lo: float | None, hi: float | None) -> float | None:
    """The relative standard deviation a published `value (min lo, max hi)` implies: its range is about 4 sd."""
    if lo is None or hi is None or not value or hi < lo:
        return None
    return (hi - lo) / (4 * abs(value))


@dataclass
class Spread:
    cap: float
    default: float
    classes: list[tuple[str, dict[str, re.Pattern[str]], float]] = field(default_factory=list)
    # criterion ids whose published min/max is not a spread (perfgate.artefacts): drawn with their class spread
    artefacts: frozenset[str] = frozenset()

    def excluding(self, criteria: list[Criterion]) -> Spread:
        """This spread, with the artefact spreads among `criteria` (the board's) never used."""
        from perfgate import artefacts

        return replace(self, artefacts=self.artefacts | frozenset(artefacts.find(criteria)))

    def of(self, c: Criterion | None, metric: str = "") -> float:
        """The relative standard deviation the sim draws a criterion's value with (a metric without criterion:
        the classes that match on its name alone)."""
        usable = c is not None and c.id not in self.artefacts
        guide = from_guide(c.value, c.min, c.max) if usable else None  # type: ignore[union-attr]
        if guide is not None:
            return min(guide, self.cap)
        for _name, patterns, sd in self.classes:
            if c is not None and matches(c, patterns):
                return min(sd, self.cap)
            if c is None and set(patterns) == {"metric"} and patterns["metric"].search(metric):
                return min(sd, self.cap)
        return min(self.default, self.cap)

    def of_figure(self, value: float, lo: float | None, hi: float | None, c: Criterion | None) -> float:
        """A figure the sim reproduces outside the tools (boot time, U-Boot KB/s)."""
        guide = from_guide(value, lo, hi) if c is None or c.id not in self.artefacts else None
        return min(guide, self.cap) if guide is not None else self.of(c)


def _number(data: dict, key: str, path: Path, text: str, where: str = "") -> float:
    value = data.get(key)
    line = next((i for i, ln in enumerate(text.splitlines(), 1) if re.match(rf"\s*-?\s*{key}:", ln)), None)
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DataError(f"{where}{key}: {value!r} is not a number", path, line) from None
    if not 0 <= number < 10:
        raise DataError(f"{where}{key}: {value!r} is out of range (a relative standard deviation, 0..10)", path, line)
    return number


def cap_from(text: str | float | None, origin: str = "SIM_SPREAD") -> float | None:
    """SIM_SPREAD as given (None or empty: the file's cap)."""
    if text is None or str(text).strip() == "":
        return None
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{origin}: {text!r} is not a number (a relative standard deviation, e.g. 0.05)") from None
    if not 0 <= value < 10:
        raise DataError(f"{origin}: {text!r} is out of range (0 up to 10)")
    return value


def load(cap: float | None = None, path: Path | None = None) -> Spread:
    """variables/sim.yaml, its cap replaced by `cap` (SIM_SPREAD) when given."""
    path = path or data_path()
    data = load_mapping(path, "a mapping with cap, default and classes")
    text = path.read_text(encoding="utf-8")
    unknown = set(data) - {"cap", "default", "classes"}
    if unknown:
        key = sorted(unknown)[0]
        line = next((i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key}:")), None)
        raise DataError(f"unknown key {key!r} (expected cap, default, classes)", path, line)
    out = Spread(_number(data, "cap", path, text) if cap is None else cap, _number(data, "default", path, text))
    for i, k in enumerate(data.get("classes") or []):
        where = f"classes[{i}]."
        name = k.get("name") if isinstance(k, dict) else None
        line = next((n for n, ln in enumerate(text.splitlines(), 1) if name and f"name: {name}" in ln), None)
        if not isinstance(k, dict) or not name or not isinstance(k.get("match"), dict) or not k["match"]:
            raise DataError(f"{where[:-1]} needs name, match and sd", path, line)
        patterns = compile_match(k["match"], where, path, line)
        try:
            sd = float(k.get("sd"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise DataError(f"{where}sd: {k.get('sd')!r} is not a number", path, line) from None
        if not 0 <= sd < 10:
            raise DataError(f"{where}sd: {sd!r} is out of range (0..10)", path, line)
        out.classes.append((str(name), patterns, sd))
    return out
