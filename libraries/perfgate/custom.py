"""Criteria no guide publishes: a board's own file, variables/custom/<board>.yaml, written by its user.

    criteria:
      - name: stress-ng cpu matrixprod          # the test name (unique in the file); default: the metric
        metric: cpu bogo ops/s (real time)      # what the parser gives (`perfgate parse <parser> <file>`)
        unit: bogo ops/s
        direction: higher                       # higher | lower | match
        value: 16.0                             # the number the board must hold
        tolerance: 0.3                          # a fraction (0.3 = 30 %), or {relative: .., absolute: ..}
        command: [stress-ng, --cpu, "1", --cpu-method, matrixprod, -t, "5", --metrics-brief]
        parser: stress-ng                       # a tool's card (perfgate.tools) ...
        # regex: 'cpu\\s+\\d+\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s+([\\d.]+)'   # ... or one group that reads the number
        timeout: 120                            # optional, seconds (default 600)

Each entry becomes a criterion of the suite `custom` (suites/custom/custom.robot), of the same shape as an imported
guide row (perfgate.model.Criterion), so it is selected, measured, judged, reported and kept in run.json and
metrics.json like any other; its `tolerance` is the policy's rule for its id (after the command line's TOLERANCES).
`command` is an argument list: the board runs `shlex.join(command)`, so nothing in it reaches a shell unquoted.
A bad entry is a DataError naming the file, the key and its line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from perfgate import paths, tools
from perfgate.datafile import line_of, load_mapping
from perfgate.decision.tolerance import Tolerance
from perfgate.errors import DataError, ParseError
from perfgate.model import Criterion

SUITE = "custom"
CHAPTER = "custom"
RELEASE = "custom"  # the release a custom criterion belongs to: the board's own file, no SDK
TABLE = "own criteria"
DIRECTIONS = ("higher", "lower", "match")
REQUIRED = ("metric", "unit", "direction", "value", "tolerance", "command")
OPTIONAL = ("name", "parser", "regex", "timeout", "table")
Fail = Callable[[str, str], DataError]  # (key, message) -> the error naming the file, the key and its line


@dataclass(frozen=True)
class Spec:
    """How one custom criterion is measured."""

    id: str
    command: tuple[str, ...]
    parser: str | None  # a tool's card name
    regex: str | None  # one capture group: the number
    metric: str  # the parser's metric name (also the criterion's metric)
    tolerance: Tolerance
    timeout: float = 600.0

    @property
    def line(self) -> str:
        return shlex.join(self.command)


def path_of(board: str) -> Path:
    return paths.variables() / "custom" / f"{board}.yaml"


def load(board: str) -> list[tuple[Criterion, Spec]]:
    """The board's custom criteria (none when it has no file)."""
    path = path_of(board)
    return read(path, board) if path.exists() else []


def criteria(board: str) -> list[Criterion]:
    return [c for c, _ in load(board)]


def specs(board: str) -> dict[str, Spec]:
    return {s.id: s for _, s in load(board)}


def tolerances(board: str) -> list[tuple[str, Tolerance]]:
    """(criterion id, its tolerance) for the tolerance policy (perfgate.decision.tolerance.Policy.add_ids)."""
    return [(s.id, s.tolerance) for _, s in load(board)]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _lines(path: Path) -> list[dict[str, int]]:
    """Per entry of `criteria:`, the line of each key (and `-` under key ``, the entry's own line)."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return []
    out: list[dict[str, int]] = []
    if not isinstance(root, yaml.MappingNode):
        return out
    for key, value in root.value:
        if key.value == "criteria" and isinstance(value, yaml.SequenceNode):
            for item in value.value:
                lines = {"": item.start_mark.line + 1}
                if isinstance(item, yaml.MappingNode):
                    lines.update({k.value: k.start_mark.line + 1 for k, _ in item.value})
                out.append(lines)
    return out


def read(path: Path, board: str) -> list[tuple[Criterion, Spec]]:
    data = load_mapping(path, "a mapping with `criteria:`, a list of criteria")
    extra = sorted(set(data) - {"criteria"})
    if extra:
        raise DataError(f"unknown key {extra[0]!r} (expected criteria)", path, _key_line(path, extra[0]))
    items = data.get("criteria")
    if not isinstance(items, list) or not items:
        raise DataError("criteria: must be a list of criteria (mappings)", path, _key_line(path, "criteria"))
    lines = _lines(path)
    out: list[tuple[Criterion, Spec]] = []
    names: dict[str, int] = {}
    for i, item in enumerate(items):
        at = lines[i] if i < len(lines) else {}
        c, s = _entry(item, i, at, path, board)
        if c.name.casefold() in names:
            first = names[c.name.casefold()]
            raise DataError(f"criteria[{i}].name: {c.name!r} is already the name of criteria[{first}]",
                            path, at.get("name", at.get("metric", at.get(""))))  # fmt: skip
        names[c.name.casefold()] = i
        out.append((c, s))
    return out


def _key_line(path: Path, key: str) -> int | None:
    return line_of(path, key)


def _entry(item: object, i: int, at: dict[str, int], path: Path, board: str) -> tuple[Criterion, Spec]:
    where = f"criteria[{i}]"

    def fail(key: str, message: str) -> DataError:
        return DataError(f"{where}.{key}: {message}" if key else f"{where}: {message}", path, at.get(key, at.get("")))

    if not isinstance(item, dict):
        raise fail("", "must be a mapping of metric, unit, direction, value, tolerance, command, parser or regex")
    unknown = sorted(set(map(str, item)) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise fail(unknown[0], f"unknown key (keys: {', '.join(REQUIRED + OPTIONAL)})")
    for key in REQUIRED:
        if item.get(key) is None:
            raise fail("", f"{key} is missing (every criterion needs {', '.join(REQUIRED)})")
    metric, unit = _text(item, "metric", fail), _text(item, "unit", fail, empty=True)  # a count has no unit
    direction = str(item["direction"])
    if direction not in DIRECTIONS:
        raise fail("direction", f"{direction!r} is not one of {', '.join(DIRECTIONS)}")
    value = _number(item["value"], "value", fail)
    rel = path.name if path.parent.name != "custom" else f"custom/{path.name}"
    tolerance = _tolerance(item["tolerance"], f"{rel}:{at.get('tolerance', 0)}", fail)
    command = item["command"]
    if not isinstance(command, list) or not command or not all(isinstance(a, str | int | float) for a in command):
        raise fail("command", "must be a list of arguments ([program, arg, ...]), never one shell string")
    argv = tuple(str(a) for a in command)
    parser, regex = item.get("parser"), item.get("regex")
    if (parser is None) == (regex is None):
        raise fail("parser" if parser is not None else "", "give one of parser (a tool) or regex (one group)")
    if parser is not None:
        try:
            tools.card(str(parser))
        except ParseError as e:
            raise fail("parser", e.message) from None
    if regex is not None:
        try:
            groups = re.compile(str(regex)).groups
        except re.error as e:
            raise fail("regex", f"bad regular expression: {e}") from None
        if groups != 1:
            raise fail("regex", f"must have exactly one group (the number), not {groups}")
    timeout = _number(item.get("timeout", 600), "timeout", fail)
    if timeout <= 0:
        raise fail("timeout", "must be a positive number of seconds")
    name = _text(item, "name", fail) if "name" in item else metric
    table = _text(item, "table", fail) if "table" in item else TABLE
    cid = f"{board}.{SUITE}.{slug(table)}.{slug(name)}"
    crit = Criterion(id=cid, name=name, board=board, guide=rel, release=RELEASE, chapter=CHAPTER, suite=SUITE,
                     table=table, row=name, metric=metric, unit=unit, value=value, direction=direction,
                     context=f"command={shlex.join(argv)}", source=f"{rel}:{at.get('', 0)}")  # fmt: skip
    spec = Spec(cid, argv, None if parser is None else str(parser), None if regex is None else str(regex), metric,
                tolerance, timeout)  # fmt: skip
    return crit, spec


def _text(item: dict, key: str, fail: Fail, empty: bool = False) -> str:
    value = item.get(key)
    if not isinstance(value, str | int | float) or not (empty or str(value).strip()):
        raise fail(key, "must be a text" if empty else "must be a non-empty text")
    return str(value).strip()


def _number(value: object, key: str, fail: Fail) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(key, f"{value!r} is not a number")
    return float(value)


def _tolerance(value: object, rule: str, fail: Fail) -> Tolerance:
    """As variables/tolerances.yaml writes one: a fraction, or {relative, absolute} (perfgate.decision.tolerance)."""
    if isinstance(value, dict):
        extra = sorted(set(map(str, value)) - {"relative", "absolute"})
        if extra or "relative" not in value:
            raise fail("tolerance", "a mapping needs `relative` (a fraction) and may have `absolute` (in the unit)")
        rel = _number(value["relative"], "tolerance", fail)
        ab = _number(value.get("absolute", 0.0), "tolerance", fail)
    else:
        rel, ab = _number(value, "tolerance", fail), 0.0
    if not 0 <= rel < 10 or ab < 0:
        raise fail("tolerance", f"{value!r} is out of range (a fraction from 0 to 10, 0.1 = 10 %; absolute >= 0)")
    return Tolerance(rel, ab, rule)
