"""variables/sections.yaml: which suite a table belongs to, which columns are settings, which tables are skipped."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError
from perfgate.guides.config import line_of, load_yaml, pattern


@dataclass(frozen=True)
class SuiteRule:
    match: re.Pattern[str] | None  # searched in the titles around the table
    suite: str
    header: re.Pattern[str] | None = None  # or: searched in the table's first header cell


@dataclass(frozen=True)
class TableBoard:
    guide: re.Pattern[str] | None  # the guide's file name, or
    identity: re.Pattern[str] | None  # the guide's identity (perfgate.guides.identity): every version of it
    title: re.Pattern[str]
    board: str
    reason: str


@dataclass(frozen=True)
class FlatColumns:
    title: re.Pattern[str]
    columns: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class RunLength:
    suite: str
    match: re.Pattern[str]  # searched in the text before the table; group 1: the number (with its unit, or not)
    unit: str


@dataclass(frozen=True)
class Decision:
    suite: str | None
    chapter: str | None
    by: str | None  # the title that decided
    skip: str | None = None  # reason when the table is not a results table


class Sections:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.variables() / "sections.yaml"
        data = load_yaml(self.path)
        if not isinstance(data, dict):
            raise DataError("expected a mapping with skip, suites, chapters, settings", self.path, 1)
        self.skips = [
            (pattern(self.path, s.get("title"), "skip"), str(s.get("reason", ""))) for s in data.get("skip") or []
        ]
        self.rules = [
            SuiteRule(
                pattern(self.path, r.get("match"), "suites") if r.get("match") is not None else None,
                str(r.get("suite")),
                pattern(self.path, r.get("header"), "suites") if r.get("header") is not None else None,
            )
            for r in data.get("suites") or []
        ]
        self.reviewed_skips = [
            (pattern(self.path, s.get("title"), "reviewed_skips"), " ".join(str(s.get("reason", "")).split()))
            for s in data.get("reviewed_skips") or []
        ]
        self.row_keys = [pattern(self.path, k, "row_keys") for k in data.get("row_keys") or []]
        for t in data.get("table_boards") or []:
            if not isinstance(t, dict) or (t.get("guide") is None) == (t.get("identity") is None):
                raise DataError("table_boards: each entry needs one of guide (a file name) or identity (every "
                                "version of a guide: `am62x linux`)", self.path,
                                line_of(self.path, "table_boards:"))  # fmt: skip
        self.table_boards = [
            TableBoard(
                pattern(self.path, t["guide"], "table_boards") if t.get("guide") is not None else None,
                pattern(self.path, t["identity"], "table_boards") if t.get("identity") is not None else None,
                pattern(self.path, t.get("title"), "table_boards"),
                str(t.get("board")),
                " ".join(str(t.get("reason", "")).split()),
            )
            for t in data.get("table_boards") or []
        ]
        self.chapter_of: dict[str, str] = {}
        for chapter, suites in (data.get("chapters") or {}).items():
            for suite in suites or []:
                self.chapter_of[str(suite)] = str(chapter)
        for rule in self.rules:
            if rule.suite not in self.chapter_of:
                raise DataError(
                    f"suite {rule.suite!r} has no chapter (add it under chapters)",
                    self.path,
                    line_of(self.path, f"suite: {rule.suite}"),
                )
        self.settings = [
            (pattern(self.path, s.get("match"), "settings"), str(s.get("why", ""))) for s in data.get("settings") or []
        ]
        self.per_core = [pattern(self.path, k, "per_core") for k in data.get("per_core") or []]
        self.run_lengths = []
        for r in data.get("run_lengths") or []:
            unit = str(r.get("unit", "s"))
            if unit not in ("s", "m", "h", "d") or not r.get("suite"):
                raise DataError(f"run_lengths: needs suite, match and unit s, m, h or d (not {unit!r})", self.path,
                                line_of(self.path, str(r.get("match", "run_lengths"))))  # fmt: skip
            rx = pattern(self.path, r.get("match"), "run_lengths")
            if rx.groups != 1:
                raise DataError(f"run_lengths: {rx.pattern!r} needs one group (the number)", self.path,
                                line_of(self.path, "run_lengths"))  # fmt: skip
            self.run_lengths.append(RunLength(str(r["suite"]), rx, unit))
        self.flat_columns = [
            FlatColumns(
                pattern(self.path, f.get("title"), "flat_columns"),
                tuple(str(c) for c in f.get("columns") or []),
                " ".join(str(f.get("reason", "")).split()),
            )
            for f in data.get("flat_columns") or []
        ]

    def run_length(self, suite: str | None, prose: list[str]) -> str | None:
        """How long the guide says it ran a table of `suite` (`6h`, `4h`), from the text before the table."""
        text = " ".join(line.strip() for line in prose)
        for rule in self.run_lengths:
            m = rule.match.search(text) if rule.suite == suite else None
            if m:
                value = m.group(1)
                return value if value[-1:].isalpha() else value + rule.unit
        return None

    def decide(self, title: str | None, sections: list[str], is_board, header: list[str] | None = None) -> Decision:
        """Suite of a table: a rule on its first header cell (`header:`), else its title and enclosing titles,
        innermost first; board-named titles are skipped."""
        if title:
            for rx, reason in self.skips:
                if rx.search(title):
                    return Decision(None, None, title, skip=reason)
        first = (header or [""])[0].strip()
        for rule in self.rules:
            if rule.header is not None and rule.header.search(first):
                return Decision(rule.suite, self.chapter_of[rule.suite], f"header {first!r}")
        titles = ([title] if title else []) + list(reversed(sections))
        for t in titles:
            if not t or is_board(t):
                continue
            for rule in self.rules:
                if rule.match is not None and rule.match.search(t):
                    return Decision(rule.suite, self.chapter_of[rule.suite], t)
        return Decision(None, None, None)

    def reviewed_skip(self, title: str) -> str | None:
        """A reviewer's reason why a skipped table that holds numbers has none that can be judged."""
        return next((reason for rx, reason in self.reviewed_skips if rx.search(title)), None)

    def is_row_key(self, column: str) -> bool:
        return any(rx.search(column.strip()) for rx in self.row_keys)

    def table_board(self, guide: str, title: str, sections: list[str], identity: str = "") -> tuple[str, str] | None:
        """A reviewer's decision: the board of a table whose columns name none, in a guide of several boards;
        keyed by the guide's file name or by its identity (every version of the guide)."""
        for t in self.table_boards:
            keyed = t.guide.search(guide) if t.guide else bool(t.identity and t.identity.fullmatch(identity))
            if keyed and any(t.title.search(x) for x in [title, *sections] if x):
                return t.board, t.reason
        return None

    def is_per_core(self, column: str) -> bool:
        return any(rx.search(column.strip()) for rx in self.per_core)

    def is_setting(self, column: str) -> bool:
        return any(rx.search(column) for rx, _ in self.settings)

    def flat_override(self, title: str | None) -> FlatColumns | None:
        if not title:
            return None
        for f in self.flat_columns:
            if f.title.search(title):
                return f
        return None
