"""Direction of every criterion (higher, lower, match) from the ordered rules in variables/directions.yaml.

A rule gives regular expressions for some of `metric`, `unit`, `row`, `suite`, `table` (case-insensitive,
searched) and a `direction`; the first rule whose fields all match decides. `overrides` pin criteria by id.
A criterion that no rule matches is an error: the mapping must be complete, never defaulted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError
from perfgate.guides.config import line_of, load_yaml, pattern

DIRECTIONS = ("higher", "lower", "match")
FIELDS = ("metric", "unit", "row", "suite", "table")


@dataclass(frozen=True)
class Rule:
    fields: tuple[tuple[str, re.Pattern[str]], ...]
    direction: str
    why: str
    line: int | None

    def matches(self, values: dict[str, str]) -> bool:
        return all(rx.search(values.get(name, "")) for name, rx in self.fields)


class Directions:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.variables() / "directions.yaml"
        data = load_yaml(self.path)
        if not isinstance(data, dict):
            raise DataError("expected a mapping with rules and overrides", self.path, 1)
        self.rules: list[Rule] = []
        for k, raw in enumerate(data.get("rules") or [], 1):
            if not isinstance(raw, dict):
                raise DataError(f"rule {k}: expected a mapping", self.path, None)
            direction = raw.get("direction")
            where = f"rule {k}"
            line = line_of(self.path, str(raw.get("why", ""))) if raw.get("why") else None
            if direction not in DIRECTIONS:
                raise DataError(f"{where}: direction {direction!r} is not one of {DIRECTIONS}", self.path, line)
            unknown = set(raw) - {*FIELDS, "direction", "why"}
            if unknown:
                raise DataError(f"{where}: unknown keys {sorted(unknown)}", self.path, line)
            fields = tuple((name, pattern(self.path, raw[name], where)) for name in FIELDS if name in raw)
            if not fields:
                raise DataError(f"{where}: a rule needs at least one of {FIELDS}", self.path, line)
            self.rules.append(Rule(fields, direction, str(raw.get("why", "")), line))
        self.overrides: dict[str, str] = {}
        for cid, direction in (data.get("overrides") or {}).items():
            if direction not in DIRECTIONS:
                raise DataError(
                    f"override {cid}: direction {direction!r} is not one of {DIRECTIONS}",
                    self.path,
                    line_of(self.path, str(cid)),
                )
            self.overrides[str(cid)] = direction

    def rule_for(self, *, metric: str, unit: str, row: str, suite: str, table: str) -> Rule | None:
        values = {"metric": metric, "unit": unit, "row": row, "suite": suite, "table": table}
        for rule in self.rules:
            if rule.matches(values):
                return rule
        return None

    def find(self, *, id: str, metric: str, unit: str, row: str, suite: str, table: str) -> str | None:
        """The criterion's direction, or None when no rule or override says (the caller reports it)."""
        if id in self.overrides:
            return self.overrides[id]
        rule = self.rule_for(metric=metric, unit=unit, row=row, suite=suite, table=table)
        return rule.direction if rule else None

    def direction(self, *, id: str, metric: str, unit: str, row: str, suite: str, table: str) -> str:
        if id in self.overrides:
            return self.overrides[id]
        rule = self.rule_for(metric=metric, unit=unit, row=row, suite=suite, table=table)
        if rule is None:
            raise DataError(
                f"no direction rule matches {id} (metric {metric!r}, unit {unit!r}, row {row!r}); "
                "add a rule or an override",
                self.path,
            )
        return rule.direction


_default: Directions | None = None


def default() -> Directions:
    """The rules of variables/directions.yaml (loaded once)."""
    global _default
    if _default is None or _default.path != paths.variables() / "directions.yaml":
        _default = Directions()
    return _default
