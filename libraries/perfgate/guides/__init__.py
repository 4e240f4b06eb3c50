"""The guide importer: TI performance guides (rst) -> criteria -> variables/thresholds/<board>/<suite>.csv.

`python -m perfgate import [guide.rst ...] [--check]` (perfgate.commands.import_guides).

Pipeline:
- `rst.read` walks a guide line by line and returns its tables (`rawtable.RawTable`) with the line of every
  row and the titles around them: section headings (any underline style), rubrics, `Table: **X**` captions
  (attached to the untitled table just before, else just after), directive arguments, AM57x bold titles.
  Forms: `.. csv-table::` (docutils' csv dialect; an unbalanced quote or a row longer than the header is an
  error with file:line and only that table is skipped), grid tables (docutils' GridTableParser), AM57x flat
  lists (`**2017.05**` + board + bold column headers + one value a line, or `name (unit)` / value pairs),
  and the cyclictest summary in a literal block (`# Max Latencies: 00027`).
- `build.Builder` turns a table into published values: the board of each value column (`<board>: <metric>`,
  a bare `<board>-fs` column, or the board of a list / the rubric), row keys (non-board columns, joined with
  ` / `), settings kept as context (variables/sections.yaml `settings`), numbers `x (min a, max b)`. A cell
  without a number is counted, never filled; a short row misses its last cells. A flat list whose rows do
  not line up with its column headers is skipped with the reason, unless sections.yaml `flat_columns`
  records a reviewer's reading of it.
- `sections.Sections` places a table in a chapter and suite (variables/sections.yaml: innermost title
  first; board-named sections are skipped); a results table no rule places is an error.
- `importer.Importer` gives names (unique per board and suite file, case-insensitively: the row, or
  `row · metric`, prefixed with the table title and then the section where tables would clash), ids
  (`<board>.<suite>.<table>.<row>.<metric>` slugs), units (variables/units.yaml) and directions
  (perfgate.directions, variables/directions.yaml), and renders the files with perfgate.criteria.
- `report.render` is the per-guide import report: tables read, criteria per board, notes, skipped tables.

An import never stops as a whole (issue 33): a table, row or metric it cannot read is an error of that guide
(file:line, reason, remedy), counted in `GuideImport.reported`; a metric with no direction is reported once per
guide, suite and metric; identical copies of a value collapse (`duplicates.collapse`), copies that differ are
reported and none imported. `rst` also reads TI's 2018 export: multi-board flat lists (`flat-boards`), grid
tables without a header separator, transposed grids (a column a board), tab-indented options, emphasis around
titles; bold-header lists with no release or board are refused with the reason. Review decisions are keyed by the
guide's `identity` (device, Linux or RT). `history` imports many versions side by side (release stated or assumed,
the version a release's thresholds come from); `diff` compares two releases number by number.
"""
