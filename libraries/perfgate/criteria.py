"""Threshold files: variables/thresholds/<board>/<suite>.csv, one criterion a row, read directly by DataDriver.

The first column is the test name (DataDriver's `*** Test Cases ***`), then one `${field}` column per criterion
field, then `[Tags]` and `[Documentation]`. Files are written with `\\n` line ends so that they regenerate
byte-for-byte.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError
from perfgate.model import FIELDS, Criterion

NAME_COLUMN = "*** Test Cases ***"
DATA_FIELDS = [f for f in FIELDS if f != "name"]
HEADER = [NAME_COLUMN, *(f"${{{f}}}" for f in DATA_FIELDS), "[Tags]", "[Documentation]"]
FLOAT_FIELDS = {"value", "min", "max"}


def _fmt(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def documentation(c: Criterion) -> str:
    spread = f" (min {c.min:g}, max {c.max:g})" if c.min is not None and c.max is not None else ""
    return (
        f"Published {c.value:g}{spread} {c.unit} for {c.board} in {c.guide} (SDK {c.release}), "
        f"table '{c.table}', row '{c.row}', column '{c.metric}'; {c.direction} is better. Source: {c.source}"
    )


def render(criteria: Iterable[Criterion]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(HEADER)
    for c in criteria:
        d = c.to_json()
        w.writerow([c.name, *(_fmt(d[f]) for f in DATA_FIELDS), ",".join(c.tags), documentation(c)])
    return out.getvalue()


def write(path: Path, criteria: Iterable[Criterion]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(criteria), encoding="utf-8")


def read(path: Path) -> list[Criterion]:
    """Read one threshold file; a malformed row is a DataError naming the file and line."""
    text = path.read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise DataError("empty threshold file (no header)", path, 1) from None
    if header[: len(HEADER) - 2] != HEADER[: len(HEADER) - 2]:
        raise DataError(f"unexpected header {header!r}; expected {HEADER!r}", path, 1)
    result: list[Criterion] = []
    for row in reader:
        line = reader.line_num
        if not row:
            continue
        if len(row) != len(header):
            raise DataError(f"{len(row)} cells, the header has {len(header)}", path, line)
        values: dict[str, object] = {"name": row[0]}
        for field, cell in zip(DATA_FIELDS, row[1 : 1 + len(DATA_FIELDS)], strict=True):
            if field in FLOAT_FIELDS:
                if cell == "" and field != "value":
                    values[field] = None
                    continue
                try:
                    values[field] = float(cell)
                except ValueError:
                    raise DataError(f"{field} {cell!r} is not a number", path, line) from None
            else:
                values[field] = cell
        result.append(Criterion(**values))  # type: ignore[arg-type]
    return result


def board_dir(board: str) -> Path:
    return paths.thresholds() / board


def suites_of(board: str) -> list[str]:
    d = board_dir(board)
    return sorted(p.stem for p in d.glob("*.csv")) if d.is_dir() else []


def load(board: str, suite: str | None = None) -> list[Criterion]:
    """All criteria of a canonical board name (or one suite of it). A missing suite file means no criteria."""
    files = [board_dir(board) / f"{suite}.csv"] if suite else sorted(board_dir(board).glob("*.csv"))
    out: list[Criterion] = []
    for f in files:
        if f.exists():
            out.extend(read(f))
    return out
