"""The tolerance policy: variables/tolerances.yaml, overridable from the command line.

Resolution for one criterion, first match wins:
  1. command line `TOLERANCES` (`<id glob>=<fraction>,...`)
  2. the file's `boards.<board>.ids`, then `ids` (id glob -> tolerance)
  3. command line `TOLERANCE` (one fraction for everything not matched above)
  4. the file's `boards.<board>.classes`, then `classes` (ordered; match on suite/chapter/metric/unit/row regexes)
  5. the file's `boards.<board>.default`, then `default`
A tolerance is a fraction (0.1 = 10 %) or a mapping `{relative: 0.1, absolute: 0.5}`; `absolute` is a slack in the
criterion's unit used when it is larger (a published 0 % loss needs one).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.errors import DataError
from perfgate.model import Criterion

MATCH_FIELDS = ("suite", "chapter", "metric", "unit", "row", "table", "id")


def compile_match(match: dict, where: str, path: Path, line: int | None) -> dict[str, re.Pattern[str]]:
    """A class's `match:` (criterion field -> regex), as tolerances.yaml, sim.yaml and noise.yaml write it; a field
    the criteria do not have or a bad regex is an error naming `where`, the file and the class's line."""
    patterns: dict[str, re.Pattern[str]] = {}
    for f, v in match.items():
        if f not in MATCH_FIELDS:
            raise DataError(f"{where}match: cannot match on {f!r} (fields: {', '.join(MATCH_FIELDS)})", path, line)
        try:
            patterns[f] = re.compile(str(v))
        except re.error as e:
            raise DataError(f"{where}match.{f}: bad regex: {e}", path, line) from None
    return patterns


def matches(c: object, patterns: dict[str, re.Pattern[str]]) -> bool:
    """Does criterion `c` match every pattern of a class?"""
    return all(p.search(str(getattr(c, f))) for f, p in patterns.items())


@dataclass(frozen=True)
class Tolerance:
    relative: float
    absolute: float = 0.0
    rule: str = "default"  # which rule gave it, for the log


@dataclass
class _Class:
    name: str
    patterns: dict[str, re.Pattern[str]]
    tolerance: Tolerance


@dataclass
class _Scope:
    default: Tolerance | None = None
    classes: list[_Class] = field(default_factory=list)
    ids: list[tuple[str, Tolerance]] = field(default_factory=list)


def _line_of(text: str, key: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*-?\s*['\"]?{re.escape(key)}['\"]?\s*:", line):
            return i
    return None


class Policy:
    def __init__(self, scope: _Scope, boards: dict[str, _Scope], cli_all: Tolerance | None,
                 cli_ids: list[tuple[str, Tolerance]], source: str) -> None:  # fmt: skip
        self._scope = scope
        self._boards = boards
        self._cli_all = cli_all
        self._cli_ids = cli_ids
        self.source = source

    @classmethod
    def load(cls, path: Path | None = None, tolerance: str | None = None, tolerances: str | None = None) -> Policy:
        path = path or paths.variables() / "tolerances.yaml"
        data = load_mapping(path, "a tolerance policy (a mapping)")
        text = path.read_text(encoding="utf-8")
        unknown = set(data) - {"default", "classes", "ids", "boards"}
        if unknown:
            key = sorted(unknown)[0]
            raise DataError(f"unknown key {key!r} (expected default, classes, ids, boards)", path, _line_of(text, key))
        scope = _scope(data, path, text, "")
        boards: dict[str, _Scope] = {}
        for board, sub in (data.get("boards") or {}).items():
            if not isinstance(sub, dict):
                raise DataError(f"boards.{board} must be a mapping", path, _line_of(text, str(board)))
            boards[str(board)] = _scope(sub, path, text, f"boards.{board}.")
        if scope.default is None:
            raise DataError("missing 'default'", path, 1)
        cli_all = _tol(tolerance, "command line TOLERANCE", None, None, "TOLERANCE") if tolerance else None
        cli_ids = _pairs(tolerances) if tolerances else []
        return cls(scope, boards, cli_all, cli_ids, str(path))

    def add_ids(self, board: str, ids: list[tuple[str, Tolerance]]) -> None:
        """Tolerances by id glob that the board's own data gives (a custom criterion's `tolerance:`, perfgate.custom):
        before the file's `ids`, after the command line's TOLERANCES."""
        self._boards.setdefault(board, _Scope()).ids[:0] = ids

    def for_criterion(self, c: Criterion) -> Tolerance:
        for glob, t in self._cli_ids:
            if fnmatch.fnmatchcase(c.id, glob):
                return t
        board = self._boards.get(c.board, _Scope())
        for glob, t in [*board.ids, *self._scope.ids]:
            if fnmatch.fnmatchcase(c.id, glob):
                return t
        if self._cli_all is not None:
            return self._cli_all
        for k in [*board.classes, *self._scope.classes]:
            if matches(c, k.patterns):
                return k.tolerance
        return board.default or self._scope.default  # type: ignore[return-value]


def _tol(value: object, rule: str, path: Path | None, line: int | None, key: str) -> Tolerance:
    try:
        if isinstance(value, dict):
            extra = set(value) - {"relative", "absolute"}
            if extra:
                raise ValueError(f"unknown key {sorted(extra)[0]!r}")
            rel = float(value.get("relative", 0.0))
            ab = float(value.get("absolute", 0.0))
        else:
            rel, ab = float(value), 0.0  # type: ignore[arg-type]
    except (TypeError, ValueError) as e:
        raise DataError(
            f"{key}: tolerance {value!r} is not a fraction or {{relative, absolute}} ({e})", path, line
        ) from None
    if not (0 <= rel < 10) or ab < 0:
        raise DataError(f"{key}: tolerance {value!r} out of range (relative 0..10, absolute >= 0)", path, line)
    return Tolerance(rel, ab, rule)


def _scope(data: dict, path: Path, text: str, prefix: str) -> _Scope:
    s = _Scope()
    if "default" in data:
        s.default = _tol(data["default"], f"{prefix}default", path, _line_of(text, "default"), f"{prefix}default")
    for i, k in enumerate(data.get("classes") or []):
        where = f"{prefix}classes[{i}]"
        if not isinstance(k, dict) or "tolerance" not in k or "name" not in k:
            raise DataError(f"{where} needs 'name', 'tolerance' and match fields", path, _line_of(text, "classes"))
        line = _line_of_class(text, str(k["name"]))
        pats = compile_match(k.get("match") or {}, f"{where}.", path, line)
        if not pats:
            raise DataError(f"{where}: a class needs at least one 'match' field", path, line)
        tline = _line_after(text, line, "tolerance")
        s.classes.append(
            _Class(str(k["name"]), pats, _tol(k["tolerance"], f"{prefix}class {k['name']}", path, tline,
                                              f"{where}.tolerance"))
        )  # fmt: skip
    for glob, v in (data.get("ids") or {}).items():
        s.ids.append(
            (str(glob), _tol(v, f"{prefix}ids {glob}", path, _line_of(text, str(glob)), f"{prefix}ids.{glob}"))
        )
    return s


def _line_after(text: str, start: int | None, key: str) -> int | None:
    """The first line at or after `start` where `key:` is written (a class's own `tolerance:`)."""
    if start is None:
        return None
    for i, ln in enumerate(text.splitlines()[start - 1 :], start):
        if re.match(rf"\s*-?\s*['\"]?{re.escape(key)}['\"]?\s*:", ln):
            return i
    return start


def _line_of_class(text: str, name: str) -> int | None:
    for i, ln in enumerate(text.splitlines(), 1):
        if re.search(rf"name:\s*['\"]?{re.escape(name)}\b", ln):
            return i
    return None


def _pairs(spec: str) -> list[tuple[str, Tolerance]]:
    out = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if "=" not in part:
            raise DataError(f"TOLERANCES: {part!r} is not <id glob>=<fraction>")
        glob, value = part.rsplit("=", 1)
        out.append((glob.strip(), _tol(value.strip(), f"command line TOLERANCES {glob}", None, None, "TOLERANCES")))
    return out
