"""Waivers: published numbers that cannot serve as a threshold (variables/waivers.yaml), skipped with the reason."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.errors import DataError


def load(path: Path | None = None) -> dict[str, str]:
    path = path or paths.variables() / "waivers.yaml"
    if not path.exists():
        return {}
    data = load_mapping(path, "`<criterion id glob>: <reason>` pairs")
    if not all(isinstance(v, str) and v.strip() for v in data.values()):
        raise DataError("waivers are `<criterion id glob>: <reason>` pairs, each with a reason", path, 1)
    return {str(k): " ".join(v.split()) for k, v in data.items()}


def reason(criterion_id: str, waivers: dict[str, str]) -> str | None:
    for glob, why in waivers.items():
        if fnmatch.fnmatchcase(criterion_id, glob):
            return why
    return None
