"""variables/units.yaml: the normalised unit of a criterion from the text the guide prints."""

from __future__ import annotations

from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError
from perfgate.guides.config import load_yaml, pattern


class Units:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.variables() / "units.yaml"
        data = load_yaml(self.path)
        if not isinstance(data, dict):
            raise DataError("expected a mapping with rules and suites", self.path, 1)
        self.rules = [
            (pattern(self.path, r.get("match"), "rules"), str(r.get("unit"))) for r in data.get("rules") or []
        ]
        self.by_suite = {str(k): str(v) for k, v in (data.get("suites") or {}).items()}

    def unit(self, metric: str, row: str, suite: str) -> str:
        """From the column header first, then the row key, then the suite's default; '' when nothing says."""
        for text in (metric, row):
            if not text:
                continue
            for rx, unit in self.rules:
                if rx.search(text):
                    return unit
        return self.by_suite.get(suite, "")
