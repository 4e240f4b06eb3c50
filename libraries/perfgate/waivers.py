"""Waivers: published numbers that cannot serve as a threshold (variables/waivers.yaml), skipped with the reason."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import yaml

from perfgate import paths
from perfgate.errors import DataError


def load(path: Path | None = None) -> dict[str, str]:
    path = path or paths.variables() / "waivers.yaml"
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise DataError(f"not valid YAML: {getattr(e, 'problem', e)}", path, mark.line + 1 if mark else None) from None
    if not isinstance(data, dict) or not all(isinstance(v, str) and v.strip() for v in data.values()):
        raise DataError("waivers are `<criterion id glob>: <reason>` pairs, each with a reason", path, 1)
    return {str(k): " ".join(v.split()) for k, v in data.items()}


def reason(criterion_id: str, waivers: dict[str, str]) -> str | None:
    for glob, why in waivers.items():
        if fnmatch.fnmatchcase(criterion_id, glob):
            return why
    return None
