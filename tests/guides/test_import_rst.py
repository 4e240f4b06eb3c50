"""perfgate.guides.rst on small samples: titles, captions before and after, line numbers, errors."""

from __future__ import annotations

from perfgate.guides import rst

SAMPLE = """\
======================================
 Linux 12.34 Performance Guide
======================================

Storage
-------

Board-X
^^^^^^^

.. csv-table::
    :header: "Buffer size (bytes)","am62xx_sk-fs: Write (MB/s)"

    "1m","59.70"
    "4k","49.80 (min 40.0, max 50.0)"

Table:  **Caption after**

Table:  **Caption before**

.. csv-table::
    :header: "Rail name","am62xx_sk-fs"

    "vdd_core","7.95"

.. rubric:: A rubric
   :name: a-rubric

+-----------+------------------+
| **Key**   | **Rate (in\xa0%)**  |
+===========+==================+
| 102400    | 87.33            |
+-----------+------------------+
| 1048576   | 86.99            |
+-----------+------------------+

Table:  **Grid caption**

::

    # Total: 100
    # Max Latencies: 00027
    000001 000002
"""


def test_titles_sections_and_lines():
    g = rst.read(SAMPLE)
    assert (g.title, g.release) == ("Linux 12.34 Performance Guide", "12.34")
    first, second, grid, summary = g.tables
    assert (first.kind, first.title, first.line) == ("csv-table", "Caption after", 11)
    assert first.sections == ["Linux 12.34 Performance Guide", "Storage", "Board-X"]
    assert [(r.line, r.cells) for r in first.rows] == [
        (14, ["1m", "59.70"]),
        (15, ["4k", "49.80 (min 40.0, max 50.0)"]),
    ]
    assert (second.title, second.header) == ("Caption before", ["Rail name", "am62xx_sk-fs"])
    assert (grid.kind, grid.title, grid.header) == ("grid-table", "Grid caption", ["Key", "Rate (in %)"])
    assert grid.sections[-1] == "A rubric"
    assert [(r.line, r.cells) for r in grid.rows] == [(32, ["102400", "87.33"]), (34, ["1048576", "86.99"])]
    assert (summary.kind, [(r.line, r.cells) for r in summary.rows]) == (
        "summary-block",
        [(41, ["Total", "100"]), (42, ["Max Latencies", "00027"])],
    )
    assert summary.notes == ["1 histogram bins (a distribution, not a published result) not imported"]


def test_unbalanced_quote_points_at_the_row_that_opens_it():
    text = """\
.. csv-table:: T
    :header: "a","b: c"

    "1","2"
    "3","4
    "5","6"
"""
    (t,) = rst.read(text).tables
    assert t.error and t.error.startswith("malformed csv row")
    assert t.error_line == 5


def test_multiline_header_option_and_escapes():
    text = """\
.. csv-table:: T
    :header: "Benchmarks",
        "am43xx-gpevm: perf"

    "pipe\\_bandwidth (mb\\s)","341.01"
"""
    (t,) = rst.read(text).tables
    assert t.header == ["Benchmarks", "am43xx-gpevm: perf"]
    assert t.rows[0].cells == ["pipe_bandwidth (mb\\s)", "341.01"]


def test_a_misaligned_grid_table_is_an_error_not_a_crash():
    text = "+-----+-----+\n| a   | b  |\n+=====+=====+\n| 1   | 2   |\n+-----+-----+\n"
    (t,) = rst.read(text).tables
    assert t.error and t.error.startswith("malformed grid table")
    assert t.error_line == 1
