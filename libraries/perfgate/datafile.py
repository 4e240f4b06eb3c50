"""Data files under variables/: YAML read with errors that name the file and line, and deep merges of settings."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import yaml

from perfgate.errors import DataError


def load_mapping(path: Path, what: str = "a mapping") -> dict:
    """A YAML file that must hold a mapping (an empty file is an empty mapping). Parsed once until the file changes;
    each caller gets its own copy, free to change it."""
    path = Path(path)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError as e:
        raise DataError(f"cannot read: {e.strerror}", path) from None
    return copy.deepcopy(_load(path, mtime, what))


@cache
def _load(path: Path, mtime: int, what: str) -> dict:
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise DataError(f"not valid YAML: {getattr(e, 'problem', e)}", path, mark.line + 1 if mark else None) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataError(f"the file must hold {what}", path, 1)
    return data


def merge(base: object, over: object) -> object:
    """`over` on top of `base`: mappings merge key by key, anything else in `over` replaces (None keeps `base`)."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base.get(k), v)
        return out
    return base if over is None else over


def line_of(path: Path, key: str) -> int | None:
    """The first line where `key:` is written (quoted or not), for errors about a key's value."""
    import re

    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    pattern = re.compile(rf"\s*-?\s*['\"]?{re.escape(key)}['\"]?\s*:")
    return next((i for i, line in enumerate(lines, 1) if pattern.match(line)), None)
