"""From the raw tables of a guide to criteria: boards, key/setting/value columns, units, names, ids.

One criterion per published number: a value cell of a board in a results table. Settings (per
variables/sections.yaml) become the criterion's context. Cells without a number (`n/a`, missing cells of a
short row) are counted in the report, never filled in. A table that cannot be read unambiguously is reported
with its reason and skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from perfgate.boards import canonical
from perfgate.guides.rawtable import RawTable
from perfgate.guides.sections import Sections

NUMBER = re.compile(
    r"^(-?\d+(?:\.\d+)?)\s*%?(?:\s*\(\s*min\s+(-?\d+(?:\.\d+)?)\s*%?\s*,\s*max\s+(-?\d+(?:\.\d+)?)\s*%?\s*\))?$"
)
# a cell that says "no result here": empty, n/a, NA, a dash. Any other text in a value column is an error.
NO_RESULT = re.compile(r"^\s*(|n/?a|-+|–|—|none|not (?:applicable|available|supported))\s*$", re.IGNORECASE)
PER_CORE = re.compile(r"^\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+\s*$")
BOARD_COLUMN = re.compile(r"^([a-z0-9]+(?:[_-][a-z0-9]+)*):\s*(.*)$", re.IGNORECASE)
BARE_BOARD = re.compile(r"^[a-z0-9]+(?:[_-][a-z0-9]+)*-fs$")


def parse_number(text: str) -> tuple[float, float | None, float | None] | None:
    m = NUMBER.match(text.strip())
    if not m:
        return None
    lo = float(m.group(2)) if m.group(2) is not None else None
    hi = float(m.group(3)) if m.group(3) is not None else None
    return float(m.group(1)), lo, hi


def numbers_in(table: RawTable) -> int:
    """The numbers a table prints in its rows (what a skipped table takes out of the import)."""
    return sum(1 for r in table.rows for c in r.cells if parse_number(c) is not None)


@dataclass
class Value:
    """One published number with everything needed to make it a criterion (name and id come later)."""

    board: str
    table: str
    sections: list[str]
    row: str
    metric: str
    value: float
    min: float | None
    max: float | None
    context: list[tuple[str, str]]
    line: int
    release: str | None


@dataclass
class TableResult:
    table: RawTable
    suite: str | None = None
    chapter: str | None = None
    title: str = ""
    values: list[Value] = field(default_factory=list)
    skipped: str | None = None  # reason the whole table is not imported
    error: bool = False  # skipped because the table is malformed (an error, not a decision)
    error_line: int | None = None
    notes: list[str] = field(default_factory=list)
    cell_errors: list[tuple[int, str]] = field(default_factory=list)  # (line, message): value cells that are text
    dropped: int = 0  # numbers in the rows the reader left out (RawTable.row_errors)


class Builder:
    def __init__(self, sections: Sections, known_boards: set[str], aliases: dict[str, str] | None = None) -> None:
        self.sections = sections
        self.known_boards = known_boards
        self.aliases = aliases or {}
        self.guide = ""  # the guide being built (file name), for variables/sections.yaml table_boards
        self.identity = ""  # and its identity (perfgate.guides.identity): `am62x linux`
        self.modules: list[str] = []  # the boards of the guide's Evaluation Modules table

    def board(self, text: str) -> str:
        """The board a guide's board name means (profiles' aliases folded: am64xx-hsevm is am64xx_evm)."""
        c = canonical(text)
        return self.aliases.get(c, c)

    # -- boards -------------------------------------------------------------------------------------

    def is_board(self, text: str, guide_boards: set[str]) -> bool:
        c = canonical(text)
        return c in guide_boards or c in self.known_boards or c in self.aliases

    def guide_boards(self, tables: list[RawTable]) -> set[str]:
        boards: set[str] = set()
        for t in tables:
            if t.board:
                boards.add(canonical(t.board))
            if t.transposed:
                boards |= {canonical(h) for h in t.header[1:]}
            elif t.kind in ("csv-table", "grid-table", "flat-boards"):
                for h in t.header:
                    m = BOARD_COLUMN.match(h)
                    if m:
                        boards.add(canonical(m.group(1)))
                    elif BARE_BOARD.match(h):
                        boards.add(canonical(h))
        return boards

    # -- tables -------------------------------------------------------------------------------------

    def build(self, table: RawTable, guide_boards: set[str]) -> TableResult:
        result = TableResult(table=table, notes=list(table.notes))
        result.cell_errors += [(line, message) for line, message, _ in table.row_errors]
        result.dropped = sum(n for _, _, n in table.row_errors)

        def is_board(text: str) -> bool:
            return self.is_board(text, guide_boards)

        result.title = table.title or next((s for s in reversed(table.sections) if not is_board(s)), "(untitled)")
        decision = self.sections.decide(table.title, table.sections, is_board, table.header)
        if decision.skip:
            result.skipped = decision.skip
            return result
        if table.error:
            result.skipped, result.error, result.error_line = table.error, True, table.error_line
            return result
        if decision.suite is None and not numbers_in(table):
            result.skipped = "no published numbers in it (and no suite in variables/sections.yaml matches its titles)"
            return result
        if decision.suite is None:
            # a results table the data cannot place is a gap in variables/sections.yaml: an error, not a skip
            result.skipped = "no suite in variables/sections.yaml matches its titles: " + " / ".join(
                [*table.sections, result.title]
            )
            result.error, result.error_line = True, table.line
            return result
        result.suite, result.chapter = decision.suite, decision.chapter
        kind = table.kind
        if kind == "grid-table" and any(self._names_board(h, guide_boards) for h in table.header[1:]):
            kind = "csv-table"  # a grid table whose columns name boards reads like a csv-table (2018 export)
        reader = {
            "csv-table": self._csv,
            "flat-boards": self._csv,
            "grid-table": self._grid,
            "flat-pairs": self._pairs,
            "summary-block": self._pairs,
            "flat-list": self._flat,
        }[kind]
        reader(table, result, guide_boards)
        run = self.sections.run_length(result.suite, [r.cells[0] for r in table.prose])
        for v in result.values if run else []:  # the guide's run length, as its text states it
            v.context.append(("run", run))
        numbers = numbers_in(table)
        if not result.values and not result.skipped:
            result.skipped = "no published numbers in it"
            if numbers:  # a table with numbers the builder could not place is an error, never a quiet skip
                result.skipped = f"{numbers} numbers in it, none of them placed under a board"
                result.error, result.error_line = True, table.line
        elif result.skipped and numbers and not result.error:
            # only a reviewer's decision (variables/sections.yaml reviewed_skips) skips a table that holds numbers
            reviewed = self.sections.reviewed_skip(result.title)
            if reviewed:
                result.skipped += f"; {reviewed}"
            else:
                result.skipped += f"; it holds {numbers} numbers: not skipped without a reviewer's decision in " + (
                    "variables/sections.yaml reviewed_skips"
                )
                result.error, result.error_line = True, table.line
        return result

    def _cell(self, result: TableResult, board: str, row: str, metric: str, header: str, cell: str, line: int,
              context: list[tuple[str, str]]) -> bool:  # fmt: skip
        """A value cell: a number becomes a criterion; a cell saying "no result" is counted; text is an error."""
        if self._value(result, board, row, metric, cell, line, context):
            return True
        if PER_CORE.match(cell) and self.sections.is_per_core(metric):  # "5,5,5,5": CPU 0, CPU 1, ...
            for n, number in enumerate(cell.split(",")):
                self._value(result, board, row, f"CPU {n}", number.strip(), line, context)
            return True
        if not NO_RESULT.match(cell):
            result.cell_errors.append(
                (line, f"value {cell.strip()!r} in column {header!r} (row {row!r}) is not a number")
            )
        return False

    def _unprefixed_board(self, table: RawTable, result: TableResult) -> str | None:
        """The board of a table whose columns name none: a reviewer's decision in variables/sections.yaml
        (table_boards), else the guide's one Evaluation Module; None (and the reason) otherwise."""
        decided = self.sections.table_board(self.guide, table.title or "", table.sections, self.identity)
        if decided:
            board, reason = decided
            result.notes.append(f"columns name no board: {board} per variables/sections.yaml table_boards ({reason})")
            return board
        if len(self.modules) == 1:
            result.notes.append(f"columns name no board: the guide's one Evaluation Module, {self.modules[0]}")
            return self.modules[0]
        result.skipped = (
            f"its columns name no board and the guide has {len(self.modules)} Evaluation Modules "
            f"({', '.join(self.modules) or 'none known'}): record the board in variables/sections.yaml table_boards "
            f"(identity: '{self.identity}')"
        )
        return None

    def _value(
        self,
        result: TableResult,
        board: str,
        row: str,
        metric: str,
        cell: str,
        line: int,
        context: list[tuple[str, str]],
    ) -> bool:
        parsed = parse_number(cell)
        if parsed is None:
            return False
        value, lo, hi = parsed
        result.values.append(
            Value(
                self.board(board),
                result.title,
                result.table.sections,
                row,
                metric,
                value,
                lo,
                hi,
                list(context),
                line,
                result.table.release,
            )
        )
        return True

    def _names_board(self, header: str, guide_boards: set[str]) -> bool:
        m = BOARD_COLUMN.match(header)
        return (
            bool(m and self.is_board(m.group(1), guide_boards))
            or bool(BARE_BOARD.match(header))
            or (self.is_board(header, guide_boards))
        )

    def _csv(self, table: RawTable, result: TableResult, guide_boards: set[str]) -> None:
        keys: list[int] = []
        common_settings: list[int] = []
        columns: list[tuple[int, str, str, bool]] = []  # index, board, metric, is setting
        for k, h in enumerate(table.header):
            m = BOARD_COLUMN.match(h)
            if m and self.is_board(m.group(1), guide_boards):
                columns.append((k, m.group(1), m.group(2).strip(), self.sections.is_setting(m.group(2).strip())))
            elif BARE_BOARD.match(h) or self.is_board(h, guide_boards):
                columns.append((k, h, "", False))
            elif self.sections.is_setting(h):
                common_settings.append(k)
            else:
                keys.append(k)
        if not columns and keys:
            # no board in any column (single-board guides): the first column and the declared row-key columns
            # are keys, the others are the guide's board's values
            board = self._unprefixed_board(table, result)
            if board is None:
                return
            values = [k for k in keys[1:] if not self.sections.is_row_key(table.header[k])]
            keys = [k for k in keys if k not in values]
            columns = [(k, board, table.header[k].strip(), False) for k in values]
        if not keys and common_settings:
            # a table keyed by a setting (ICSSM `UDP Datagram Size(bytes)`): the setting is the row key, and context
            keys = list(common_settings)
            result.notes.append(f"keyed by the setting {', '.join(table.header[k] for k in keys)}")
        if not keys:
            result.skipped = "no row-key column"
            return
        blank = 0
        # a transposed table (one column a board, one row a metric) prints its settings as rows: their context
        transposed = table.transposed and len(keys) == 1
        setting_rows = [r for r in table.rows if transposed and r.cells and self.sections.is_setting(r.cells[0])]
        row_ctx = {k: [(r.cells[0], r.cells[k]) for r in setting_rows if k < len(r.cells) and r.cells[k].strip()]
                   for k, _, _, _ in columns}  # fmt: skip
        for row in table.rows:
            if row in setting_rows:
                continue
            cells = row.cells
            key = " / ".join(cells[k] for k in keys if k < len(cells))
            base_ctx = list(
                dict.fromkeys(  # a setting printed once per board (2018: `Test Number` thrice) once
                    (table.header[k], cells[k]) for k in common_settings if k < len(cells) and cells[k].strip()
                )
            )
            ctx_by_board: dict[str, list[tuple[str, str]]] = {board: list(base_ctx) for _, board, _, _ in columns}
            for k, board, metric, setting in columns:
                if setting and k < len(cells) and cells[k].strip():
                    ctx_by_board[board].append((metric, cells[k]))
            for k, board, metric, setting in columns:
                if setting:
                    continue
                cell = cells[k] if k < len(cells) else ""
                ctx = row_ctx[k] + ctx_by_board[board]
                if not self._cell(result, board, key, metric, table.header[k], cell, row.line, ctx):
                    blank += 1
        if blank:
            result.notes.append(f"{blank} cells without a number (missing or n/a)")

    def _board_of(self, table: RawTable, result: TableResult, guide_boards: set[str]) -> str | None:
        if table.board:
            return table.board
        for text in [table.title or "", *reversed(table.sections)]:
            for b in sorted(guide_boards):
                if canonical(text).startswith(b) or canonical(text) == b:
                    return b
        if len(guide_boards) == 1:
            return next(iter(guide_boards))
        result.skipped = "no board named in the table, its title or its sections"
        return None

    def _grid(self, table: RawTable, result: TableResult, guide_boards: set[str]) -> None:
        board = self._board_of(table, result, guide_boards)
        if board is None:
            return
        settings = [k for k in range(1, len(table.header)) if self.sections.is_setting(table.header[k])]
        values = [k for k in range(1, len(table.header)) if k not in settings]
        for row in table.rows:
            ctx = [(table.header[k], row.cells[k]) for k in settings if row.cells[k].strip()]
            for k in values:
                self._cell(result, board, row.cells[0], table.header[k], table.header[k], row.cells[k], row.line, ctx)

    def _pairs(self, table: RawTable, result: TableResult, guide_boards: set[str]) -> None:
        board = self._board_of(table, result, guide_boards)
        if board is None:
            return
        ctx = [(r.cells[0], r.cells[1]) for r in table.rows if self.sections.is_setting(r.cells[0])]
        blank = 0
        for r in table.rows:
            if self.sections.is_setting(r.cells[0]):
                continue
            if not self._value(result, board, r.cells[0], "", r.cells[1], r.line, ctx):
                blank += 1
        if blank:
            result.skipped = f"{blank} names without a number after them"
            result.values.clear()

    def _flat(self, table: RawTable, result: TableResult, guide_boards: set[str]) -> None:
        """A flat list with bold column headers: split the one-cell lines into rows of keys + values."""
        board = table.board or ""
        nk = table.key_columns or 0
        columns = table.header[nk:]
        lines = [(r.line, r.cells[0]) for r in table.rows]
        width = nk + len(columns)
        rows: list[tuple[int, list[str], list[str], list[str]]] = []  # line, keys, columns, values
        numeric = [parse_number(text) is not None for _, text in lines]
        if not any(numeric):
            result.skipped = f"no values: {len(lines)} lines under {', '.join(columns)}, none of them a number"
            return
        if (
            lines
            and len(lines) % width == 0
            and all(numeric[r + nk + c] for r in range(0, len(lines), width) for c in range(len(columns)))
        ):
            for r in range(0, len(lines), width):
                chunk = [t for _, t in lines[r : r + width]]
                rows.append((lines[r][0], chunk[:nk], list(columns), chunk[nk:]))
        elif nk == 1 and not numeric[0]:
            # rows start at each line that is not a number: a key and the values after it
            groups: list[tuple[int, str, list[str]]] = []
            for (number, text), is_num in zip(lines, numeric, strict=True):
                if is_num:
                    groups[-1][2].append(text)
                else:
                    groups.append((number, text, []))
            counts = sorted({len(g[2]) for g in groups})
            override = self.sections.flat_override(table.title)
            if (
                len(counts) == 1
                and counts[0] < len(columns)
                and override
                and len(override.columns) == counts[0]
                and all(c in columns for c in override.columns)
            ):
                result.notes.append(
                    f"{counts[0]} value a row under {len(columns)} column headers: read as "
                    f"{', '.join(override.columns)} per variables/sections.yaml flat_columns ({override.reason})"
                )
                for number, key, vals in groups:
                    rows.append((number, [key], list(override.columns), vals))
            else:
                result.skipped = (
                    f"rows carry {'/'.join(map(str, counts))} values under {len(columns)} column headers "
                    f"({', '.join(columns)}): cannot tell which columns the values belong to"
                )
                return
        else:
            fits = [k for k in range(1, len(columns)) if len(lines) % (nk + k) == 0]
            shape = f"; rows of {nk} key(s) and {' or '.join(map(str, fits))} values would fit" if fits else ""
            result.skipped = (
                f"{len(lines)} lines do not make rows of {nk} key(s) and {len(columns)} values{shape} "
                f"under {len(columns)} column headers ({', '.join(columns)}): "
                "cannot tell which column each value belongs to"
            )
            return
        for number, keys, cols, vals in rows:
            key = " / ".join(keys)
            ctx = [(c, v) for c, v in zip(cols, vals, strict=True) if self.sections.is_setting(c)]
            for c, v in zip(cols, vals, strict=True):
                if not self.sections.is_setting(c):
                    self._value(result, board, key, c, v, number, ctx)
