"""Loading the importer's data files (variables/*.yaml) with errors that name the file and line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from perfgate.errors import DataError


def load_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError("missing data file", path) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise DataError(f"not valid YAML: {e}", path, mark.line + 1 if mark else None) from None


def line_of(path: Path, needle: str) -> int | None:
    """The first line of a data file that contains `needle` (to point an error at a rule)."""
    try:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if needle in text:
                return number
    except OSError:
        return None
    return None


def pattern(path: Path, text: object, where: str) -> re.Pattern[str]:
    if not isinstance(text, str):
        raise DataError(f"{where}: expected a regular expression, got {text!r}", path, None)
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as e:
        raise DataError(f"{where}: bad regular expression {text!r}: {e}", path, line_of(path, text)) from None
