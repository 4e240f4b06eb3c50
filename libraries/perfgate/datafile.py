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


class _Loader(yaml.SafeLoader):
    """yaml.SafeLoader that refuses a key written twice in one mapping (YAML keeps the last one silently: a second
    `workloads:` block in a lab once dropped the first)."""


def _no_duplicates(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[object, int] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *anchor`
            continue
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is written twice (first at line {seen[key]})", key_node.start_mark
            )
        seen[key] = key_node.start_mark.line + 1
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


@cache
def _load(path: Path, mtime: int, what: str) -> dict:
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.load(text, Loader=_Loader)  # a SafeLoader
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
