"""What the rst reader hands to the criteria builder: a table as the guide prints it, with line numbers."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Row:
    line: int  # 1-based line of the row in the guide
    cells: list[str]


@dataclass
class RawTable:
    """One table of a guide, before any interpretation of its columns.

    `header` names every column. For csv-tables the value columns are `<board>: <metric>` or a bare board;
    for grid tables and flat lists `board` names the one board the whole table is about.
    """

    kind: str  # csv-table | grid-table | flat-list | flat-pairs | flat-boards | summary-block
    line: int  # first line of the table (directive, border, title or list start)
    sections: list[str]  # enclosing titles, outermost first: section headings, then rubrics
    title: str | None = None  # the guide's own title (directive argument, Table: caption, bold title)
    header: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    board: str | None = None  # grid tables and flat lists: the board named by the list or the rubric
    release: str | None = None  # flat lists print their release (`**2017.05**`)
    transposed: bool = False  # the columns past the first are boards (TI's 2018 export): one row a metric
    key_columns: int | None = None  # flat lists: number of row-key columns (None: decided by the builder)
    context: dict[str, str] = field(default_factory=dict)  # settings printed beside the table
    error: str | None = None  # why the table cannot be read (reported, never guessed)
    error_line: int | None = None
    row_errors: list[tuple[int, str, int]] = field(default_factory=list)  # line, why a row is left out, its numbers
    notes: list[str] = field(default_factory=list)  # things dropped on purpose, for the import report
    prose: list[Row] = field(default_factory=list)  # the text between the last heading or rubric and the table
