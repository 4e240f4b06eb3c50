"""variables/units.yaml: the normalised unit of a criterion from the text the guide prints."""

from __future__ import annotations

from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError
from perfgate.guides.config import line_of, load_yaml, pattern


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
        self.unprinted = []
        for r in data.get("unprinted") or []:
            if (
                not isinstance(r, dict)
                or not r.get("suite")
                or not r.get("unit")
                or not (r.get("row") or r.get("metric"))
            ):
                raise DataError(f"unprinted: needs suite, unit and row or metric (not {r!r})", self.path,
                                line_of(self.path, "unprinted:"))  # fmt: skip
            self.unprinted.append((
                str(r["suite"]),
                pattern(self.path, r.get("metric") or ".*", "unprinted"),
                pattern(self.path, r.get("row") or ".*", "unprinted"),
                str(r["unit"]),
            ))  # fmt: skip

    def unit(self, metric: str, row: str, suite: str) -> str:
        """From the column header first, then the row key, then what the same column or row prints in other
        versions of TI's guides (`unprinted`), then the suite's default; '' when nothing says."""
        for text in (metric, row):
            if not text:
                continue
            for rx, unit in self.rules:
                if rx.search(text):
                    return unit
        for in_suite, metric_rx, row_rx, unit in self.unprinted:
            if in_suite == suite and metric_rx.search(metric) and row_rx.search(row):
                return unit
        return self.by_suite.get(suite, "")
