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


EMPHASIS = re.compile(r"^(\*{1,3})(\S.*?\S|\S)\1$")


def strip_bold(text: str) -> str:
    """A title or header without the emphasis marks around it: `**X**`, `*X*`, `***X***` (TI's 2018 export)."""
    text = text.strip()
    m = EMPHASIS.match(text)
    return m.group(2).strip() if m else text


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
    lines = [line.expandtabs(8) for line in text.splitlines()]  # tabs as docutils reads them (a tab-indented option)
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
            title = strip_bold(unescape(lines[i + 1]))
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
            title = strip_bold(unescape(line))
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
            caption = strip_bold(unescape(m.group(1)))
            if re.search(r"[A-Za-z0-9]", caption):  # TI's 2018 export captions some tables `'`: no title
                events.append(("caption", caption))
            i += 1
            continue
        if BOLD_LINE.match(stripped) and not RELEASE.match(stripped):
            table, end = _headers_only(lines, i, sections.path())
            if table is not None:
                add(table)
                i = end
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
    for t in guide.tables:
        if t.kind == "grid-table" and t.title is None and len(t.header) > 1 and all(map(_boardish, t.header[1:])):
            t.title = t.header[0]  # a transposed table (one column a board) is named by its first cell: a test id
        if t.kind == "grid-table" and len(t.header) > 1 and all(map(_boardish, t.header[1:])):
            t.transposed = True
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
    title = strip_bold(unescape(m.group(2))) or None
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
        return _counted(table, content), body_end
    header_rows, err, _ = _csv_rows([(header_line or i + 1, header_text)])
    if err or len(header_rows) != 1:
        table.error, table.error_line = f"malformed :header: ({err})", header_line
        return _counted(table, content), body_end
    table.header = header_rows[0].cells
    rows, err, where = _csv_rows(content)
    if err:
        table.error, table.error_line = err, where
        return _counted(table, content), body_end
    for row in rows:
        if len(row.cells) > len(table.header):
            table.error = f"row has {len(row.cells)} cells, the header has {len(table.header)}"
            table.error_line = row.line
            return _counted(table, content), body_end
    table.rows = rows
    return table, body_end


def _counted(table: RawTable, content: list[tuple[int, str]]) -> RawTable:
    """A table that cannot be read keeps its lines split leniently at commas, so that the import report can say
    how many published numbers it leaves out (the builder never reads them: the table has an error)."""
    table.rows = [Row(n, [c.strip().strip('"') for c in text.split(",")]) for n, text in content]
    return table


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
        return _counted(table, [(i + 1 + k, b.replace("|", ",")) for k, b in enumerate(block) if b.startswith("|")]), j
    if (
        not head
        and body
        and all(BOLD_LINE.match(" ".join(c[3]).strip()) for c in body[0][1:] if " ".join(c[3]).strip())
    ):
        # TI's 2018 export draws no `+===+` under the header: its first row, bold past the key column, is it
        head, body = [body[0]], body[1:]
        table.notes.append("no header separator: the first row (bold) read as the header")
    elif not head and body and len(body[0]) > 1 and all(_boardish(" ".join(c[3])) for c in body[0][1:]):
        head, body = [body[0]], body[1:]
        table.notes.append("no header separator: the first row (board names) read as the header")
    if len(head) != 1:
        table.error, table.error_line = f"grid table with {len(head)} header rows", i + 1
        return _counted(table, [(i + 1 + k, b.replace("|", ",")) for k, b in enumerate(block) if b.startswith("|")]), j
    table.header = [strip_bold(unescape(" ".join(cell[3]))) for cell in head[0]]
    for row in body:
        if any(cell[0] or cell[1] for cell in row):
            table.error, table.error_line = "grid table with spanning cells", i + 1 + row[0][2]
            table.rows = []
            return _counted(
                table, [(i + 1 + k, b.replace("|", ",")) for k, b in enumerate(block) if b.startswith("|")]
            ), j
        table.rows.append(Row(i + 1 + row[0][2], [unescape(" ".join(cell[3])) for cell in row]))
    return table, j


FLAT_VALUE = re.compile(r"^-?\d+(?:\.\d+)?(?:\s*\(min\s+[-\d.]+,\s*max\s+[-\d.]+\))?$")
BOARDISH = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")


def _boardish(text: str) -> bool:
    """A line or cell that is a board name the way TI's 2018 export prints it (`am335x-evm`, `omapl138-lcdk`)."""
    return bool(BOARDISH.match(unescape(text)))


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
            title = strip_bold(unescape(b.group(1)))
            break
        head.insert(0, (k + 1, unescape(s)))
        k -= 1
    start = k + 1 if k >= 0 else 0
    table = RawTable(kind="flat-list", line=start + 1, sections=list(path), title=title, release=release)
    if r + 1 >= len(lines) or _is_list_end(lines[r + 1]):
        table.error, table.error_line = "release line without a board name after it", r + 1
        return table, r + 1
    boards = []
    k = r + 1
    while k < len(lines) and _boardish(lines[k]):
        boards.append(unescape(lines[k]))
        k += 1
    if len(boards) > 1:
        return _flat_boards(lines, k, table, boards, [t for _, t in head])
    table.board = lines[r + 1].strip()
    j = r + 2
    columns, body, j = _columns_and_body(lines, j)
    if not columns:
        # `name (unit)` / value pairs; the lines before the release name the list (a test id)
        table.kind = "flat-pairs"
        if table.title is None and head:
            table.title = " ".join(t for _, t in head)
        table.header = ["name", "value"]
        if len(body) % 2:
            table.error = f"{len(body)} lines: not name/value pairs"
            table.error_line = body[-1][0] if body else r + 1
            table.rows = [Row(n, [t]) for n, t in body]  # counted in the report, never read
            return table, j
        table.rows = [Row(body[p][0], [body[p][1], body[p + 1][1]]) for p in range(0, len(body), 2)]
        return table, j
    table.header = [t for _, t in head] + columns
    table.key_columns = len(head)
    table.rows = [Row(number, [text]) for number, text in body]  # one line a cell: the builder splits rows
    return table, j


def _columns_and_body(lines: list[str], j: int) -> tuple[list[str], list[tuple[int, str]], int]:
    """A flat list's bold column headers from index j, then its lines (line number, text) up to the end of the
    list (a blank line, a table, a directive or a bold line); and the index past them."""
    columns: list[str] = []
    while j < len(lines) and BOLD_LINE.match(lines[j].strip()):
        columns.append(strip_bold(unescape(lines[j])))
        j += 1
    body: list[tuple[int, str]] = []
    while j < len(lines) and not _is_list_end(lines[j]) and not BOLD_LINE.match(lines[j].strip()):
        body.append((j + 1, unescape(lines[j])))
        j += 1
    return columns, body, j


def _headers_only(lines: list[str], i: int, path: list[str]) -> tuple[RawTable | None, int]:
    """Bold column headers and values with no release and board line before them (TI's 2018 export of the power
    tables: `**Power Rail**`, `**Voltage**`, one `**MPU OPP...**` and one `**Power (mW)**` per operating point):
    no board is named and the values do not say which header they fill, so the list is refused with the reason
    (its lines kept for the count). None when the lines are not such a list."""
    j = i
    while j < len(lines) and BOLD_LINE.match(lines[j].strip()):
        if RELEASE.match(lines[j].strip()):
            return None, i
        j += 1
    body = []
    k = j
    while k < len(lines) and not _is_list_end(lines[k]) and not BOLD_LINE.match(lines[k].strip()):
        body.append((k + 1, unescape(lines[k])))
        k += 1
    inside = i > 0 and bool(lines[i - 1].strip()) and not lines[i - 1].strip().startswith(("..", "|"))
    if (j - i < 2 and not inside) or not any(FLAT_VALUE.match(t) for _, t in body):
        return None, i  # one bold line is a title, unless it goes on a list (`**Total Power**` after the rails)
    header = [strip_bold(unescape(lines[n])) for n in range(i, j)]
    table = RawTable(kind="flat-list", line=i + 1, sections=list(path), header=header)
    table.rows = [Row(n, [t]) for n, t in body]
    table.error = (f"{len(header)} bold column headers ({', '.join(header)}) and {len(body)} lines, with no release "
                   "and board line: no board is named and the lines do not say which column each value fills"
                   if j - i > 1 else f"a list goes on under the bold line {header[0]!r} with {len(body)} lines: no "
                   "release, board or column headers say what its values are")  # fmt: skip
    table.error_line = i + 1
    return table, k


def _flat_boards(lines: list[str], j: int, table: RawTable, boards: list[str], head: list[str]) -> tuple[RawTable, int]:
    """TI's 2018 export of a multi-board list: the release, one board a line, the column headers (bold, the
    boards' columns in the boards' order, or none: one value a board), then the rows. A row is a metric's name
    (wrapped over lines, perhaps) and its values, or, when the list names its key columns above the release
    (`Sampling Rate (Hz)`), that many keys and the values. A row whose values do not fill the columns is
    reported on its own; the other rows import."""
    table.kind = "flat-boards"
    columns, body, j = _columns_and_body(lines, j)
    if columns and len(columns) % len(boards):
        table.error = (f"{len(boards)} boards but {len(columns)} column headers: cannot tell which board a column "
                       "is")  # fmt: skip
        table.error_line = table.line
        table.rows = [Row(n, [t]) for n, t in body]
        return table, j
    per = len(columns) // len(boards) if columns else 1
    names = [f"{b}: {columns[k * per + c]}" if columns else b for k, b in enumerate(boards) for c in range(per)]
    width = len(names)
    keyed = bool(head) and bool(body) and FLAT_VALUE.match(body[0][1]) is not None
    if table.title is None and head and not keyed:  # the lines above the release name the list: a test id
        table.title = " ".join(head)
    table.header = [*(head if keyed else ["name"]), *names]
    table.transposed = not columns
    if keyed:  # fixed-width rows: the keys, then the values
        nk = len(head)
        if len(body) % (nk + width):
            table.error = (f"{len(body)} lines do not make rows of {nk} key(s) and {width} values "
                           f"({', '.join(names)}): cannot tell which column each value belongs to")  # fmt: skip
            table.error_line = table.line
            table.rows = [Row(n, [t]) for n, t in body]
            return table, j
        for r in range(0, len(body), nk + width):
            table.rows.append(Row(body[r][0], [t for _, t in body[r : r + nk + width]]))
        return table, j
    groups: list[tuple[int, str, list[str]]] = []
    previous_name = False
    for number, text in body:
        if FLAT_VALUE.match(text):
            if groups:
                groups[-1][2].append(text)
            else:
                table.row_errors.append((number, f"value {text!r} before any metric name", 1))
            previous_name = False
        elif previous_name:  # a name wrapped over two lines
            line, name, vals = groups[-1]
            groups[-1] = (line, f"{name} {text}", vals)
        else:
            groups.append((number, text, []))
            previous_name = True
    counts = {len(vals) for _, _, vals in groups}
    if groups and len(counts) == 1 and width not in counts:  # no row fits: one problem, the table's
        table.error = (f"every row has {counts.pop()} values for {width} columns ({', '.join(names)}): cannot tell "
                       "which column each value belongs to")  # fmt: skip
        table.error_line = table.line
        table.rows = [Row(line, [name, *vals]) for line, name, vals in groups]
        return table, j
    for line, name, vals in groups:
        if len(vals) == width:
            table.rows.append(Row(line, [name, *vals]))
        elif vals:
            table.row_errors.append((line, f"{name!r} has {len(vals)} values for {width} columns "
                                     f"({', '.join(names)}): cannot tell which column each belongs to; row skipped",
                                     len(vals)))  # fmt: skip
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
