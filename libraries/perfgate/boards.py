"""Boards by any of their names: am62xx_sk, am62xx_sk-fs, am62xx-sk resolve to one canonical name.

The canonical name is the guide's board name without the `-fs` (file system) suffix, lower case, with `-`
replaced by `_` (`j721e-idk-gw` -> `j721e_idk_gw`). Known boards are those with a threshold folder or a
profile in variables/boards/; a profile may list extra `aliases`.
"""

from __future__ import annotations

import re
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping, merge
from perfgate.errors import UnknownBoard


def canonical(name: str) -> str:
    n = name.strip().lower()
    n = re.sub(r"[-_]fs$", "", n)
    return n.replace("-", "_")


def _profile_files() -> list[Path]:
    d = paths.boards()
    return sorted(p for p in d.glob("*.yaml") if not p.stem.startswith("_")) if d.is_dir() else []


def known() -> list[str]:
    names = {p.stem for p in _profile_files()}
    t = paths.thresholds()
    if t.is_dir():
        names |= {p.name for p in t.iterdir() if p.is_dir()}
    return sorted(names)


def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for p in _profile_files():
        data = load_mapping(p, "a board profile (a mapping)")
        for alias in data.get("aliases", []) or []:
            table[canonical(str(alias))] = p.stem
    return table


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
            merged = merge(merged, load_mapping(p, "a board profile (a mapping)"))  # type: ignore[assignment]
    merged.setdefault("name", board)
    return merged
