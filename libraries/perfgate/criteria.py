"""Threshold files: variables/thresholds/<board>/<release>/<suite>.csv, one criterion a row, read directly by
DataDriver.

Releases are a dimension of the criteria: every imported release of a board has its own folder (the SDK release
as the guide states it, `-RT` for the RT-Linux guides: `09.01.00`, `11.02`, `12.00.00-RT`). A board measured
with `perfgate baseline` (no guide) keeps its files directly in `variables/thresholds/<board>/`: one release,
named `baseline`. `select(board, spec)` chooses what one run is judged against: the newest release by default,
one named release, or several (`a,b`: newest wins per criterion id).

The first column is the test name (DataDriver's `*** Test Cases ***`), then one `${field}` column per criterion
field, then `[Tags]` and `[Documentation]`. Files are written with `\\n` line ends so that they regenerate
byte-for-byte.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from perfgate import custom, paths
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


BASELINE = "baseline"  # the release name of threshold files kept directly in the board's folder
SAFE_RELEASE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


def board_dir(board: str) -> Path:
    """The board's folder; files directly in it are the `baseline` release (perfgate baseline)."""
    return paths.thresholds() / board


def release_dir(board: str, release: str) -> Path:
    if release == BASELINE:
        return board_dir(board)
    if not SAFE_RELEASE.match(release):
        raise DataError(f"release {release!r} cannot name a folder (letters, digits, . _ + - only)")
    return board_dir(board) / release


def release_key(release: str) -> tuple:
    """Order of releases, oldest first: year-style SDKs (2017.05) before numbered ones (09.01.00 < 11.02 <
    12.00.00); a release whose guide states none (`unstated`) and `baseline` come first."""
    m = re.match(r"^(\d+(?:\.\d+)*)", release)
    if not m:
        return (0, (), release)
    numbers = tuple(int(x) for x in m.group(1).split("."))
    return (1 if numbers[0] >= 1990 else 2, numbers, release)


def releases(board: str) -> list[str]:
    """The board's releases that hold criteria, newest first; at equal version the one publishing more numbers."""
    d = board_dir(board)
    if not d.is_dir():
        return []
    found = {p.name: len(_rows(p)) for p in d.iterdir() if p.is_dir() and any(p.glob("*.csv"))}
    if any(d.glob("*.csv")):
        found[BASELINE] = len(_rows(d))
    return sorted(found, key=lambda r: (release_key(r)[:2], found[r], r), reverse=True)


def _rows(d: Path) -> list[str]:
    return [line for f in d.glob("*.csv") for line in f.read_text(encoding="utf-8").splitlines()[1:] if line]


def default_release(board: str) -> str | None:
    """The newest release that publishes numbers for the board (None: the board has no criteria)."""
    found = releases(board)
    return found[0] if found else None


def suites_of(board: str, release: str | None = None) -> list[str]:
    release = release or default_release(board)
    d = release_dir(board, release) if release else None
    return sorted(p.stem for p in d.glob("*.csv")) if d and d.is_dir() else []


def load(board: str, suite: str | None = None, release: str | None = None) -> list[Criterion]:
    """Criteria of a canonical board name (or one suite of it) at one release (default: the newest).
    A missing suite file means no criteria."""
    release = release or default_release(board)
    if release is None:
        return []
    d = release_dir(board, release)
    files = [d / f"{suite}.csv"] if suite else sorted(d.glob("*.csv"))
    out: list[Criterion] = []
    for f in files:
        if f.exists():
            out.extend(read(f))
    return out


def load_all(board: str) -> dict[str, list[Criterion]]:
    """Every release of the board, newest first: release -> its criteria."""
    return {r: load(board, release=r) for r in releases(board)}


class Selection:
    """What one run is judged against: the releases asked for (newest first) and the criteria, one per id."""

    def __init__(self, board: str, requested: list[str], criteria: list[Criterion], default: bool) -> None:
        self.board = board
        self.releases = requested
        self.criteria = criteria
        self.default = default  # no release was asked for: the newest was chosen

    @property
    def mixed(self) -> bool:
        return len(self.releases) > 1

    @property
    def label(self) -> str:
        return ",".join(self.releases)

    def describe(self) -> str:
        if not self.releases:
            return f"no release of {self.board} holds criteria"
        if self.mixed:
            used = Counter(c.release for c in self.criteria)
            parts = ", ".join(f"{r} ({used.get(r, 0)} criteria)" for r in self.releases)
            return f"releases {parts}: newest wins per criterion"
        how = " (the newest that publishes numbers for the board)" if self.default else ""
        return f"release {self.releases[0]}{how}"

    def by_suite(self) -> dict[str, list[Criterion]]:
        out: dict[str, list[Criterion]] = {}
        for c in self.criteria:
            out.setdefault(c.suite, []).append(c)
        return out


def parse_release_spec(spec: str | None) -> list[str]:
    if spec is None or not str(spec).strip() or str(spec).strip().upper() == "NONE":
        return []
    return [r.strip() for r in str(spec).split(",") if r.strip()]


def select(board: str, spec: str | None = None) -> Selection:
    """The criteria of one run: the release(s) asked for (`released`), and the board's own criteria that no guide
    publishes (variables/custom/<board>.yaml, perfgate.custom), whatever the release."""
    chosen = released(board, spec)
    chosen.criteria = [*chosen.criteria, *custom.criteria(board)]
    return chosen


def released(board: str, spec: str | None = None) -> Selection:
    """The criteria of one run's release(s). `spec`: None/empty (the newest release), `R`, or `R1,R2,...` (mixed
    explicitly: for each criterion id the newest of the listed releases that publishes it). An unknown release is a
    DataError listing the board's releases."""
    known = releases(board)
    asked = parse_release_spec(spec)
    if not asked:
        chosen = known[:1]
        return Selection(board, chosen, load(board, release=chosen[0]) if chosen else [], True)
    unknown = [r for r in asked if r not in known]
    if unknown:
        raise DataError(
            f"RELEASE {', '.join(unknown)}: {board} has no such release; its releases: "
            + (", ".join(known) or "none (no criteria)")
        )
    ordered = sorted(dict.fromkeys(asked), key=known.index)  # newest first
    if len(ordered) == 1:
        return Selection(board, ordered, load(board, release=ordered[0]), False)
    taken: dict[tuple[str, ...], Criterion] = {}
    for r in ordered:
        for key, c in _identities(load(board, release=r)):
            taken.setdefault(key, c)
    merged = list(taken.values())
    if len(ordered) > 1:
        merged = _unique_names(merged)
    return Selection(board, ordered, merged, False)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _identities(cs: list[Criterion]) -> list[tuple[tuple[str, ...], Criterion]]:
    """What makes two releases' criteria the same number: suite, row and column (guides retitle their tables
    between releases: `LM Bench Metrics` became `LMBench Benchmarks`); the table too where a
    release prints the same row and column in two tables (UDP egress and ingress); the criterion's own id where
    even that is not unique (rows that differ only in case: `Kernel boot` and `kernel boot`), so that a release
    never loses one of its own criteria."""
    short = Counter((c.suite, _slug(c.row), _slug(c.metric)) for c in cs)
    long = Counter((c.suite, _slug(c.row), _slug(c.metric), _slug(c.table)) for c in cs)
    out: list[tuple[tuple[str, ...], Criterion]] = []
    for c in cs:
        key: tuple[str, ...] = (c.suite, _slug(c.row), _slug(c.metric))
        if short[key] > 1:
            key = (*key, _slug(c.table))
            if long[key] > 1:
                key = (c.suite, "id", c.id)
        out.append((key, c))
    return out


def _unique_names(cs: list[Criterion]) -> list[Criterion]:
    """Test names stay unique within a suite when releases mix: a clashing name gets its release appended."""
    count = Counter((c.suite, c.name.casefold()) for c in cs)
    return [
        replace(c, name=f"{c.name} (SDK {c.release})") if count[(c.suite, c.name.casefold())] > 1 else c for c in cs
    ]
