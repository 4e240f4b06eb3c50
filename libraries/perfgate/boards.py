"""Boards by any of their names: am62xx_sk, am62xx_sk-fs, am62xx-sk resolve to one canonical name.

The canonical name is the guide's board name without the `-fs` (file system) suffix, lower case, with `-`
replaced by `_` (`j721e-idk-gw` -> `j721e_idk_gw`). Known boards are those with a threshold folder or a
profile in variables/boards/; a profile may list extra `aliases`.
"""

from __future__ import annotations

import re
from pathlib import Path

from perfgate import paths
from perfgate.datafile import line_of, load_mapping, merge
from perfgate.errors import DataError, UnknownBoard


def canonical(name: str) -> str:
    n = name.strip().lower()
    n = re.sub(r"[-_]fs$", "", n)
    return n.replace("-", "_")


def _profile_files(d: Path | None = None) -> list[Path]:
    d = d or paths.boards()
    return sorted(p for p in d.glob("*.yaml") if not p.stem.startswith("_")) if d.is_dir() else []


def known() -> list[str]:
    names = {p.stem for p in _profile_files()}
    t = paths.thresholds()
    if t.is_dir():
        names |= {p.name for p in t.iterdir() if p.is_dir()}
    return sorted(names)


def aliases(d: Path | None = None) -> dict[str, str]:
    """Canonical alias -> board, from the profiles' `aliases` (one EVM named two ways by two guides:
    `am64xx-hsevm` is the AM64x EVM). An alias two profiles claim is a DataError naming the second file."""
    table: dict[str, str] = {}
    for p in _profile_files(d):
        data = load_mapping(p, "a board profile (a mapping)")
        for alias in data.get("aliases", []) or []:
            a = canonical(str(alias))
            if a == p.stem:
                continue
            if table.get(a, p.stem) != p.stem:
                raise DataError(f"alias {alias!r} is also an alias of {table[a]}", p, _line(p, str(alias)))
            table[a] = p.stem
    return table


def module_names(d: Path | None = None) -> dict[str, str]:
    """Lower-case Evaluation Module name as a guide's table prints it (`AM64x EVM`) -> board, from the
    profiles' `evm` lists."""
    table: dict[str, str] = {}
    for p in _profile_files(d):
        data = load_mapping(p, "a board profile (a mapping)")
        names = data.get("evm") or []
        for name in [names] if isinstance(names, str) else names:
            table[" ".join(str(name).split()).lower()] = p.stem
    return table


def identify(name: str, table: dict[str, str] | None = None) -> str:
    """The board a guide's name means: its canonical name, folded through the profiles' aliases."""
    c = canonical(name)
    return (aliases() if table is None else table).get(c, c)


_aliases = aliases


def resolve(name: str) -> str:
    """The canonical name of a board, or UnknownBoard listing the known ones."""
    if not name or not name.strip():
        raise UnknownBoard("no board given (use -v BOARD:<name>); known boards: " + ", ".join(known()))
    c = canonical(name)
    boards = known()
    if c in boards:
        return c
    alias = _aliases().get(c)
    if alias:
        return alias
    raise UnknownBoard(f"unknown board {name!r}; known boards: " + ", ".join(boards))


def profile(board: str) -> dict:
    """The board profile (variables/boards/<board>.yaml) merged over variables/boards/_defaults.yaml."""
    d = paths.boards()
    merged: dict = {}
    for p in (d / "_defaults.yaml", d / f"{board}.yaml"):
        if p.exists():
            data = load_mapping(p, "a board profile (a mapping)")
            _check_timeouts(p, data)
            merged = merge(merged, data)  # type: ignore[assignment]
    merged.setdefault("name", board)
    return merged


def _check_timeouts(path: Path, data: dict) -> None:
    """A profile's waits are positive numbers of seconds (`90`, not `90s`): named by file, key and line."""
    timeouts = data.get("timeouts")
    if timeouts is None:
        return
    start = line_of(path, "timeouts") or 1
    if not isinstance(timeouts, dict):
        raise DataError("timeouts: must be a mapping of seconds", path, start)
    for name, value in timeouts.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < float("inf"):
            message = f"timeouts.{name}: must be a positive number of seconds (like 90), not {value!r}"
            raise DataError(message, path, _line_from(path, start, str(name)))


def _line_from(path: Path, start: int, key: str) -> int:
    """The first line at or after `start` that writes `key:` (a nested key's own line), else `start`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    pattern = re.compile(rf"(?:^|[\s{{,])['\"]?{re.escape(key)}['\"]?\s*:")
    return next((i for i, ln in enumerate(lines[start - 1 :], start) if pattern.search(ln)), start)


def _line(path: Path, text: str) -> int | None:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((i for i, line in enumerate(lines, 1) if text in line), None)
