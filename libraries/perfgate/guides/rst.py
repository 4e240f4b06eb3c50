"""A line-based reader for the TI performance guides: finds every table with the titles around it.

It knows the forms the five guides use: `.. csv-table::` directives, grid tables, the AM57x flat lists (a bold
title, row-key header lines, `**2017.05**`, the board, bold column headers, then one value a line) and the
cyclictest summary printed in a literal block. Section headings (any underline style, levels in order of
appearance), rubrics and `Table: **X**` captions give each table its section path and title. Every row keeps
the line it came from. docutils parses the grid tables; csv-table rows are read with docutils' csv dialect.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field

from docutils.parsers.rst.tableparser import GridTableParser, TableMarkupError
from docutils.statemachine import StringList

from perfgate.guides.rawtable import RawTable, Row

ADORNMENT = re.compile(r"^([=\-^\"~*+#`:.'_])\1{2,}\s*$")
RUBRIC = re.compile(r"^\.\.\s+rubric::\s*(.*?)\s*$")
CSV_TABLE = re.compile(r"^(\s*)\.\.\s+csv-table::\s*(.*?)\s*$")
CAPTION = re.compile(r"^Table:\s+(.*?)\s*$")
RELEASE = re.compile(r"^\*\*(\d{4}\.\d{2}(?:-[A-Za-z]+)?)\*\*\s*$")
BOLD_LINE = re.compile(r"^\*\*(.+?)\*\*\s*$")
SUMMARY = re.compile(r"^\s*#\s+([A-Za-z][A-Za-z ]*?):\s+(\S+)\s*$")
DOC_TITLE = re.compile(r"Linux\s+(\d+(?:\.\d+)+)\s+Performance Guide", re.IGNORECASE)


class CsvDialect(csv.Dialect):
    """docutils' csv-table dialect (docutils.parsers.rst.directives.tables.CSVTable.DocutilsDialect)."""

    delimiter = ","
    quotechar = '"'
    doublequote = True
    skipinitialspace = True
    strict = True
    lineterminator = "\n"
    quoting = csv.QUOTE_MINIMAL


def unescape(text: str) -> str:
    """The guides' escaped underscores (`af\\_unix` -> `af_unix`), non-breaking spaces, surrounding blanks.

    Only `\\_` is unescaped: `(mb\\s)` in the AM437x guide stays as printed (its unit is normalised)."""
    return text.replace("\\_", "_").replace("\xa0", " ").strip()


def strip_bold(text: str) -> str:
    text = text.strip()
    m = BOLD_LINE.match(text)
    return m.group(1).strip() if m else text


@dataclass
class Guide:
    """The tables of one guide, in document order, and what the reader learned about the guide."""

    tables: list[RawTable] = field(default_factory=list)
    release: str | None = None
    title: str | None = None


class _Sections:
    """Headings by level plus the rubrics seen since the last heading."""

    def __init__(self) -> None:
        self.styles: list[str] = []
        self.headings: list[str] = []
        self.rubrics: list[str] = []

    def heading(self, style: str, title: str) -> None:
        if style not in self.styles:
            self.styles.append(style)
        level = self.styles.index(style)
        self.headings = [*self.headings[:level], title]
        self.rubrics = []

    def rubric(self, title: str) -> None:
        self.rubrics.append(title)

    def path(self) -> list[str]:
        return [t for t in self.headings + self.rubrics if t]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def read(text: str) -> Guide:
    lines = text.splitlines()
    guide = Guide()
    sections = _Sections()
    # document order of tables and captions, and where sections changed, to attach `Table:` captions
    events: list[tuple[str, object]] = []
    prose: list[Row] = []  # text since the last heading or rubric: what a guide says about its next table
    i = 0
    n = len(lines)

    def add(table: RawTable) -> None:
        table.prose = list(prose)
        guide.tables.append(table)
        events.append(("table", table))

    while i < n:
        line = lines[i]
        stripped = line.strip()
        # headings: overlined title, then underlined title
        if (
            ADORNMENT.match(line)
            and i + 2 < n
            and lines[i + 1].strip()
            and ADORNMENT.match(lines[i + 2])
            and lines[i + 2].strip()[0] == stripped[0]
        ):
            title = unescape(lines[i + 1])
            sections.heading("over" + stripped[0], title)
            events.append(("section", title))
            prose = []
            if guide.title is None:
                guide.title = title
                m = DOC_TITLE.search(title)
                if m:
                    guide.release = m.group(1)
            i += 3
            continue
        if (
            stripped
            and not line.startswith((" ", "..", "+", "|"))
            and i + 1 < n
            and ADORNMENT.match(lines[i + 1])
            and len(lines[i + 1].strip()) >= min(3, len(stripped))
        ):
            title = unescape(line)
            sections.heading("under" + lines[i + 1].strip()[0], title)
            events.append(("section", title))
            prose = []
            i += 2
            continue
        m = RUBRIC.match(line)
        if m:
            title = strip_bold(unescape(m.group(1)))
            sections.rubric(title)
            events.append(("section", title))
            prose = []
            i += 1
            continue
        m = CSV_TABLE.match(line)
        if m:
            table, i = _csv_table(lines, i, m, sections.path())
            add(table)
            continue
        if line.startswith("+-") and i + 1 < n and lines[i + 1].startswith("|"):
            table, i = _grid_table(lines, i, sections.path())
            add(table)
            continue
        m = CAPTION.match(line)
        if m:
            events.append(("caption", strip_bold(unescape(m.group(1)))))
            i += 1
            continue
        m = RELEASE.match(stripped)
        if m:
            table, i = _flat_list(lines, i, m.group(1), sections.path())
            if guide.release is None:
                guide.release = m.group(1).split("-")[0]
            add(table)
            continue
        if stripped == "::" or (stripped.endswith("::") and not stripped.startswith("..")):
            prose.append(Row(i + 1, [line]))
            table, i = _literal_block(lines, i + 1, sections.path())
            if table is not None:
                add(table)
            continue
        if stripped:
            prose.append(Row(i + 1, [line]))
        i += 1
    _attach_captions(events)
    return guide


def _attach_captions(events: list[tuple[str, object]]) -> None:
    """A `Table:` caption titles the untitled table just before it (TI's usual order), or else the untitled
    table just after it (the AM62x low-power tables), never across a section or rubric."""
    for k, (kind, value) in enumerate(events):
        if kind != "caption":
            continue
        before = events[k - 1] if k > 0 else None
        after = events[k + 1] if k + 1 < len(events) else None
        for candidate in (before, after):
            if candidate and candidate[0] == "table":
                table = candidate[1]
                assert isinstance(table, RawTable)
                if table.title is None and table.kind in ("csv-table", "grid-table"):
                    table.title = str(value)
                    break


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """Index just past an indented directive body starting at `start` (blank lines included)."""
    j = start
    while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > indent):
        j += 1
    # do not swallow trailing blank lines
    while j > start and not lines[j - 1].strip():
        j -= 1
    return j


def _csv_rows(text_lines: list[tuple[int, str]]) -> tuple[list[Row], str | None, int | None]:
    """Parse csv lines (line number, text) with the docutils dialect; an error names the row's first line.

    The csv reader counts the lines it has consumed (`line_num`), so the next row starts at that index of
    `text_lines` (a quoted cell may span lines)."""
    rows: list[Row] = []
    reader = csv.reader((text + "\n" for _, text in text_lines), dialect=CsvDialect)
    while True:
        start = text_lines[reader.line_num][0] if reader.line_num < len(text_lines) else None
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            return rows, f"malformed csv row: {e}", start
        rows.append(Row(start or 0, [unescape(c) for c in cells]))
    return rows, None, None


def _csv_table(lines: list[str], i: int, m: re.Match, path: list[str]) -> tuple[RawTable, int]:
    indent = len(m.group(1))
    title = unescape(m.group(2)) or None
    body_end = _block_end(lines, i + 1, indent)
    table = RawTable(kind="csv-table", line=i + 1, sections=list(path), title=title)
    j = i + 1
    header_line = None
    header_text = None
    # options: `:name: value` lines (a value may continue on more indented lines)
    while j < body_end and lines[j].strip().startswith(":"):
        opt = re.match(r"^\s*:([\w-]+):\s*(.*)$", lines[j])
        name, value = (opt.group(1), opt.group(2)) if opt else ("", "")
        k = j + 1
        while k < body_end and lines[k].strip() and not lines[k].strip().startswith(":"):
            if _indent(lines[k]) <= _indent(lines[j]):
                break
            value += " " + lines[k].strip()
            k += 1
        if name == "header":
            header_line, header_text = j + 1, value
        j = k
    content = [(k + 1, lines[k].strip()) for k in range(j, body_end) if lines[k].strip()]
    if header_text is None:
        table.error, table.error_line = "csv-table without a :header: option", i + 1
        return table, body_end
    header_rows, err, _ = _csv_rows([(header_line or i + 1, header_text)])
    if err or len(header_rows) != 1:
        table.error, table.error_line = f"malformed :header: ({err})", header_line
        return table, body_end
    table.header = header_rows[0].cells
    rows, err, where = _csv_rows(content)
    if err:
        table.error, table.error_line = err, where
        return table, body_end
    for row in rows:
        if len(row.cells) > len(table.header):
            table.error = f"row has {len(row.cells)} cells, the header has {len(table.header)}"
            table.error_line = row.line
            return table, body_end
    table.rows = rows
    return table, body_end


def _grid_table(lines: list[str], i: int, path: list[str]) -> tuple[RawTable, int]:
    j = i
    while j < len(lines) and lines[j].startswith(("+", "|")):
        j += 1
    block = [ln.rstrip() for ln in lines[i:j]]
    table = RawTable(kind="grid-table", line=i + 1, sections=list(path))
    try:
        _widths, head, body = GridTableParser().parse(StringList(block))
    except (TableMarkupError, IndexError) as e:  # docutils raises IndexError on some misaligned borders
        table.error, table.error_line = f"malformed grid table: {e or 'misaligned cell borders'}", i + 1
        return table, j
    if len(head) != 1:
        table.error, table.error_line = f"grid table with {len(head)} header rows", i + 1
        return table, j
    table.header = [strip_bold(unescape(" ".join(cell[3]))) for cell in head[0]]
    for row in body:
        if any(cell[0] or cell[1] for cell in row):
            table.error, table.error_line = "grid table with spanning cells", i + 1 + row[0][2]
            return table, j
        table.rows.append(Row(i + 1 + row[0][2], [unescape(" ".join(cell[3])) for cell in row]))
    return table, j


def _is_list_end(line: str) -> bool:
    s = line.strip()
    return not s or s.startswith(("|", "..")) or s == "'"


def _flat_list(lines: list[str], r: int, release: str, path: list[str]) -> tuple[RawTable, int]:
    """An AM57x flat list around the release line at index r."""
    # look back: header lines up to a `'` marker, a bold title or a blank line
    head: list[tuple[int, str]] = []
    title = None
    k = r - 1
    while k >= 0:
        s = lines[k].strip()
        if not s or s == "'" or s.startswith(("..", "|")):
            break
        b = BOLD_LINE.match(s)
        if b:
            title = unescape(b.group(1))
            break
        head.insert(0, (k + 1, unescape(s)))
        k -= 1
    start = k + 1 if k >= 0 else 0
    table = RawTable(kind="flat-list", line=start + 1, sections=list(path), title=title, release=release)
    if r + 1 >= len(lines) or _is_list_end(lines[r + 1]):
        table.error, table.error_line = "release line without a board name after it", r + 1
        return table, r + 1
    table.board = lines[r + 1].strip()
    j = r + 2
    columns: list[str] = []
    while j < len(lines) and BOLD_LINE.match(lines[j].strip()):
        columns.append(strip_bold(unescape(lines[j])))
        j += 1
    body: list[tuple[int, str]] = []
    while j < len(lines) and not _is_list_end(lines[j]) and not BOLD_LINE.match(lines[j].strip()):
        body.append((j + 1, unescape(lines[j])))
        j += 1
    if not columns:
        # `name (unit)` / value pairs; the lines before the release name the list (a test id)
        table.kind = "flat-pairs"
        if table.title is None and head:
            table.title = " ".join(t for _, t in head)
        table.header = ["name", "value"]
        if len(body) % 2:
            table.error = f"{len(body)} lines: not name/value pairs"
            table.error_line = body[-1][0] if body else r + 1
            return table, j
        table.rows = [Row(body[p][0], [body[p][1], body[p + 1][1]]) for p in range(0, len(body), 2)]
        return table, j
    table.header = [t for _, t in head] + columns
    table.key_columns = len(head)
    table.rows = [Row(number, [text]) for number, text in body]  # one line a cell: the builder splits rows
    return table, j


def _literal_block(lines: list[str], i: int, path: list[str]) -> tuple[RawTable | None, int]:
    """A literal block; a cyclictest summary (`# Max Latencies: 00027`) in it is a table of its own."""
    j = i
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or _indent(lines[j]) == 0:
        return None, j
    end = _block_end(lines, j, 0)
    rows = []
    for k in range(j, end):
        m = SUMMARY.match(lines[k])
        if m:
            rows.append(Row(k + 1, [m.group(1).strip(), m.group(2)]))
    if len(rows) < 2:
        return None, end
    table = RawTable(kind="summary-block", line=j + 1, sections=list(path), rows=rows, header=["name", "value"])
    histogram = sum(1 for k in range(j, end) if re.match(r"^\s*\d+\s+\d+\s*$", lines[k]))
    if histogram:
        table.notes.append(f"{histogram} histogram bins (a distribution, not a published result) not imported")
    return table, end
