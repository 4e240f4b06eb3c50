"""A table or row a guide prints twice: identical copies collapse into one criterion; copies that differ are
reported (file:line of each copy, the reason, the remedy) and none of them is imported: which one TI meant is
not for the importer to guess."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfgate.errors import PerfgateError


def _key(gi: Any, tr: Any, v: Any) -> tuple:
    return (id(gi), v.board, tr.suite, " ".join(v.table.casefold().split()), " ".join(v.row.casefold().split()),
            " ".join(v.metric.casefold().split()), v.value, v.min, v.max, tuple(v.context))  # fmt: skip


def collapse(values: list[tuple[Any, Any, Any]]) -> list[tuple[Any, Any, Any]]:
    """The values without their later identical copies (same guide, board, suite, table, row, metric, numbers
    and context); each guide's report notes how many copies collapsed and where."""
    first: dict[tuple, int] = {}
    out = []
    for gi, tr, v in values:
        key = _key(gi, tr, v)
        if key in first:
            gi.collapsed += 1
            tr.notes.append(f"line {v.line}: a copy of line {first[key]} (same row, metric and number): one criterion")
            continue
        first[key] = v.line
        out.append((gi, tr, v))
    return out


@dataclass
class Clash:
    """Values (indices) that would share one test name or id: TI printed them twice with different numbers."""

    what: str  # "test name" or "id"
    key: tuple[str, str, str, str]  # board, release, suite, the shared name
    members: list[int]


def by_tables(clashes: list[Clash], values: list[tuple[Any, Any, Any]]) -> list[list[Clash]]:
    """The clashes grouped by the tables their copies are in: a table printed twice is one problem."""
    groups: dict[tuple, list[Clash]] = {}
    seen: set[frozenset[int]] = set()
    for c in clashes:  # a clash of test names is most often one of ids too: the same copies, once
        if frozenset(c.members) in seen:
            continue
        seen.add(frozenset(c.members))
        tables = tuple(sorted({id(values[k][1]) for k in c.members}))
        groups.setdefault((id(values[c.members[0]][0]), tables), []).append(c)
    return list(groups.values())


def error(group: list[Clash], values: list[tuple[Any, Any, Any]]) -> PerfgateError:
    """One report for the copies of one or more rows, naming every copy's line and number."""
    first = group[0]
    gi, _, v = values[first.members[0]]
    _, release, suite, _ = first.key
    shown = []
    for c in group[:3]:
        copies = ", ".join(f"line {values[k][2].line} = {values[k][2].value:g}" for k in c.members)
        shown.append(f"{c.key[0]} {c.key[3]!r} ({copies})")
    more = f" and {len(group) - 3} more rows" if len(group) > 3 else ""
    lines = sorted({values[k][1].table.line for c in group for k in c.members})
    return PerfgateError(
        f"a table printed {len(lines)} times (lines {', '.join(map(str, lines))}) with numbers that differ, "
        f"release {release}, suite {suite}: {'; '.join(shown)}{more}: none of these imported; "
        "remedy: correct the guide, or name the copies apart (a distinct table title or section)",
        gi.name,
        v.line,
    )
