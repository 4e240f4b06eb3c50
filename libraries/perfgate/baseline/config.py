"""variables/baseline.yaml: the error rates and, per class of criterion, the tolerance and noise the comparison of a
run with the board's own baseline uses (perfgate.baseline.rule). A bad value names the file, the key and its line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.datafile import line_of, load_mapping
from perfgate.decision.tolerance import compile_match, matches
from perfgate.errors import DataError

KEYS = (
    "alpha_worse",
    "alpha_same",
    "power",
    "floor_df",
    "between_df",
    "history_runs",
    "baseline_runs",
    "guide_range_sd",
    "bimodal_ratio",
    "default",
    "classes",
)
CLASS_KEYS = ("tolerance", "sd", "between")


@dataclass(frozen=True)
class ClassNoise:
    """A class's tolerance (fraction) and its noise: `sd` within a run, `between` runs (relative, log scale)."""

    name: str
    tolerance: float
    sd: float
    between: float
    between_df: float | None = None  # the degrees of freedom of `between` (None: a figure from data, taken as known)


@dataclass
class Config:
    """variables/baseline.yaml read (each key is described there)."""

    alpha_worse: float = 0.05  # a healthy run raises any `worse` at most this often (over the run's comparisons)
    alpha_same: float = 0.05  # `same`: each one-sided test of the interval within +-tolerance
    power: float = 0.8  # the smallest detectable regression is quoted at this power
    floor_df: float = 8.0  # the class sd counts as this many degrees of freedom of within-run noise
    between_df: float = 1.0  # the class `between` counts as this many against the board's history
    history_runs: int = 3  # accepted runs before the board's own noise replaces the class figures
    baseline_runs: int = 10  # the last-accepted baseline pools the board's last this many accepted runs
    guide_range_sd: float = 2.0  # a published range is read as this many sd
    bimodal_ratio: float = 3.0  # max / min at or above this: two modes
    default: ClassNoise = ClassNoise("default", 0.03, 0.01, 0.003)
    classes: list[tuple[dict[str, re.Pattern[str]], ClassNoise]] = field(default_factory=list)
    source: str = ""

    def of(self, criterion: object) -> ClassNoise:
        """The first class that matches the criterion (any object with the criterion's fields), else the default."""
        for patterns, k in self.classes:
            if matches(criterion, patterns):
                return k
        return self.default


def data_path() -> Path:
    return paths.variables() / "baseline.yaml"


def _number(value: object, where: str, path: Path, line: int | None, low: float, high: float) -> float:
    try:
        n = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DataError(f"{where}: {value!r} is not a number", path, line) from None
    if not low <= n <= high:
        raise DataError(f"{where}: {value!r} is out of range ({low:g} to {high:g})", path, line)
    return n


def _class(name: str, data: object, where: str, path: Path, line: int | None) -> ClassNoise:
    if not isinstance(data, dict):
        raise DataError(f"{where} must be a mapping with {', '.join(CLASS_KEYS)}", path, line)
    missing = [k for k in CLASS_KEYS if k not in data]
    if missing:
        raise DataError(f"{where} needs {', '.join(missing)}", path, line)
    tol = _number(data["tolerance"], f"{where}.tolerance", path, line, 0.0, 10.0)
    sd = _number(data["sd"], f"{where}.sd", path, line, 1e-6, 10.0)
    between = _number(data["between"], f"{where}.between", path, line, 0.0, 10.0)
    return ClassNoise(name, tol, sd, between)


def load(path: Path | None = None) -> Config:
    path = path or data_path()
    data = load_mapping(path, "a mapping with " + ", ".join(KEYS))
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise DataError(f"unknown key {unknown[0]!r} (expected {', '.join(KEYS)})", path, line_of(path, unknown[0]))
    if "default" not in data:
        raise DataError("missing 'default'", path, 1)

    def scalar(key: str, default: float, low: float, high: float) -> float:
        return _number(data.get(key, default), key, path, line_of(path, key), low, high)

    cfg = Config(
        alpha_worse=scalar("alpha_worse", 0.05, 1e-9, 0.5),
        alpha_same=scalar("alpha_same", 0.05, 1e-9, 0.5),
        power=scalar("power", 0.8, 0.5, 0.999),
        floor_df=scalar("floor_df", 8, 1.0, 1000.0),
        between_df=scalar("between_df", 1, 0.0, 1000.0),
        history_runs=int(scalar("history_runs", 3, 2, 1000)),
        baseline_runs=int(scalar("baseline_runs", 10, 1, 1000)),
        guide_range_sd=scalar("guide_range_sd", 2.0, 0.5, 10.0),
        bimodal_ratio=scalar("bimodal_ratio", 3.0, 1.01, 1e6),
        default=_class("default", data["default"], "default", path, line_of(path, "default")),
        source=str(path),
    )
    classes = data.get("classes") or []
    if not isinstance(classes, list):
        raise DataError("classes must be a list", path, line_of(path, "classes"))
    text = path.read_text(encoding="utf-8").splitlines()
    for i, k in enumerate(classes):
        name = k.get("name") if isinstance(k, dict) else None
        named = re.compile(rf"name:\s*{re.escape(str(name))}\s*$") if name else None
        line = next((n for n, ln in enumerate(text, 1) if named and named.search(ln)), None)
        if not isinstance(k, dict) or not name or not isinstance(k.get("match"), dict) or not k["match"]:
            raise DataError(f"classes[{i}] needs name, match, {', '.join(CLASS_KEYS)}", path, line)
        extra = sorted(set(k) - {"name", "match", *CLASS_KEYS})
        if extra:
            raise DataError(f"classes[{i}] ({name}): unknown key {extra[0]!r}", path, line)
        patterns = compile_match(k["match"], f"classes[{i}].", path, line)
        cfg.classes.append((patterns, _class(str(name), k, f"classes[{i}] ({name})", path, line)))
    return cfg
