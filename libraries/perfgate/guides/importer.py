"""Import guides into criteria and threshold files; compare with the committed files (`--check`)."""

from __future__ import annotations

import csv
import functools
import io
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import boards, criteria, paths
from perfgate.directions import Directions
from perfgate.errors import DataError, PerfgateError
from perfgate.guides import duplicates, identity, newboards, rst
from perfgate.guides.build import Builder, TableResult, Value, numbers_in
from perfgate.guides.sections import Sections
from perfgate.guides.units import Units
from perfgate.model import Criterion

SEP = " · "
RELEASE_IN_NAME = re.compile(r"-(\d{4}\.\d{2}|\d{2}\.\d{2}(?:\.\d{2})?)-")


@dataclass
class GuideImport:
    path: Path
    release: str
    identity: str = ""  # which guide this is a version of (perfgate.guides.identity): `am62x linux`
    results: list[TableResult] = field(default_factory=list)
    criteria: list[Criterion] = field(default_factory=list)
    errors: list[PerfgateError] = field(default_factory=list)
    reported: int = 0  # published numbers not imported, each under a reported reason (errors, skipped tables)
    collapsed: int = 0  # published numbers that are identical copies of another (one criterion for all copies)
    modules: dict[str, str | None] = field(default_factory=dict)  # Evaluation Modules name -> board (None: unknown)
    warnings: list[str] = field(default_factory=list)
    descriptions: dict[str, str] = field(default_factory=dict)  # Evaluation Modules name -> its description
    new_boards: dict[str, str] = field(default_factory=dict)  # Evaluation Modules name -> board id with no profile
    generated: list[newboards.NewBoard] = field(default_factory=list)  # their generated profiles (after run())

    @property
    def name(self) -> str:
        return self.path.name


@functools.cache
def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def guide_files() -> list[Path]:
    """The guides perfgate ships with: every .rst in perfgate.paths.guides() and in its current/ folder."""
    root = paths.guides()
    return sorted(root.glob("*.rst")) + sorted((root / "current").glob("*.rst"))


def guide_release(path: Path, stated: str | None, title: str | None) -> str:
    """The release a guide's numbers belong to: as the guide states it (its title, else its file name, else
    `unstated`), with `-RT` for an RT-Linux guide (a different SDK from the Linux one of the same version)."""
    release = stated or _release_from_name(path.name) or "unstated"
    rt = path.name.lower().startswith("rt-") or bool(re.match(r"\s*RT[- ]", title or "", re.IGNORECASE))
    if rt and not release.upper().endswith("-RT"):
        release += "-RT"
    return release


class Importer:
    def __init__(self, variables: Path | None = None) -> None:
        v = variables or paths.variables()
        self.boards_dir = v / "boards"
        self.sections = Sections(v / "sections.yaml")
        self.units = Units(v / "units.yaml")
        self.directions = Directions(v / "directions.yaml")
        self.builder = Builder(self.sections, self._profile_boards(v), boards.aliases(v / "boards"))
        self.module_names = boards.module_names(v / "boards")

    @staticmethod
    def _profile_boards(v: Path) -> set[str]:
        d = v / "boards"
        return {p.stem for p in d.glob("*.yaml") if not p.stem.startswith("_")} if d.is_dir() else set()

    def read(self, path: Path) -> GuideImport:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise PerfgateError(f"cannot read guide: {e.strerror}", path) from None
        guide = rst.read(text)
        result = GuideImport(path, guide_release(path, guide.release, guide.title))
        result.modules, result.descriptions = self._modules(guide.tables)
        for name, board in list(result.modules.items()):
            if board is None:  # a board no profile lists: its id the way TI names boards, its profile generated
                try:
                    result.new_boards[name] = result.modules[name] = newboards.board_id(name)[0]
                except DataError:
                    continue
        self.builder.known_boards |= set(result.new_boards.values())
        self.builder.guide = path.name
        self.builder.identity = result.identity = identity.identity(path, guide.title)
        self.builder.modules = sorted({b for b in result.modules.values() if b})
        known = self.builder.guide_boards(guide.tables)
        for table in guide.tables:
            tr = self.builder.build(table, known)
            result.results.append(tr)
            if tr.error:
                result.errors.append(PerfgateError(f"{tr.skipped} (table skipped)", path.name, tr.error_line))
            if tr.skipped:
                result.reported += numbers_in(table)
            for line, message in tr.cell_errors:
                result.errors.append(PerfgateError(message, path.name, line))
            result.reported += len(tr.cell_errors) - len(table.row_errors) + tr.dropped
        self._warn_foreign_boards(result)
        return result

    def _modules(self, tables) -> tuple[dict[str, str | None], dict[str, str]]:
        """The guide's Evaluation Modules table: each name and the board whose profile lists it (`evm:`), and each
        name's description."""
        out: dict[str, str | None] = {}
        descriptions: dict[str, str] = {}
        for t in tables:
            if (t.title or (t.sections[-1] if t.sections else "")).strip().lower() != "evaluation modules":
                continue
            for row in t.rows:
                name = " ".join(row.cells[0].split()) if row.cells else ""
                if name:
                    out[name] = self.module_names.get(name.lower())
                    descriptions[name] = " ".join(row.cells[1].split()) if len(row.cells) > 1 else ""
        return out, descriptions

    def _warn_foreign_boards(self, gi: GuideImport) -> None:
        """A guide that publishes rows for a board not among its own Evaluation Modules (TI's copy-paste: the
        AM65x RT guide's `am43xx-gpevm` rows) is imported as printed, with a warning in the report."""
        unknown = [name for name, board in gi.modules.items() if board is None]
        for name, board in gi.new_boards.items():
            gi.warnings.append(f"Evaluation Module {name!r} matches no board profile: new board {board} "
                               f"(its profile is generated: variables/boards/{board}.yaml)")  # fmt: skip
        for name in unknown:
            gi.warnings.append(f"Evaluation Module {name!r} matches no board profile (`evm:` in variables/boards/)")
        if not gi.modules:
            return
        mine = {b for b in gi.modules.values() if b}
        lines: dict[str, list[int]] = defaultdict(list)
        for tr in gi.results:
            for v in tr.values:
                if v.board not in mine:
                    lines[v.board].append(v.line)
        names = ", ".join(gi.modules)
        for board, at in sorted(lines.items()):
            gi.warnings.append(
                f"{len(at)} numbers for {board}, which is not among the guide's Evaluation Modules ({names}): "
                f"lines {min(at)}-{max(at)}"
            )

    def run(self, guides: Iterable[Path]) -> list[GuideImport]:
        """Every guide's criteria. A value the data cannot complete (no direction rule) or that clashes with
        another (a table or row printed twice, with different numbers) is reported once per problem, with
        file:line, reason and remedy, and left out; everything else imports (identical copies collapse)."""
        imports = [self.read(Path(g)) for g in guides]
        values: list[tuple[GuideImport, TableResult, Value]] = [
            (gi, tr, v) for gi in imports for tr in gi.results for v in tr.values
        ]
        values = duplicates.collapse(values)
        dropped: set[int] = set()
        names, clashes = _names(values)
        ids, id_clashes = _ids(values)
        for group in duplicates.by_tables([*clashes, *id_clashes], values):
            members = list(dict.fromkeys(k for c in group for k in c.members if k not in dropped))
            if not members:
                continue
            dropped |= set(members)
            gi = values[members[0]][0]
            gi.errors.append(duplicates.error(group, values))
            gi.reported += len(members)
        unknown: dict[tuple[int, str, str, str], list[int]] = defaultdict(list)
        made: list[tuple[int, str, str]] = []  # index, unit, direction
        for k, ((gi, tr, v), cid) in enumerate(zip(values, ids, strict=True)):
            if k in dropped:
                continue
            assert tr.suite and tr.chapter
            unit = self.units.unit(v.metric, v.row, tr.suite)
            direction = self.directions.find(
                id=cid, metric=v.metric, unit=unit, row=v.row, suite=tr.suite, table=v.table
            )
            if direction is None:  # reported once per metric and unit of a guide, never guessed
                unknown[(id(gi), tr.suite, v.metric, unit)].append(k)
                continue
            made.append((k, unit, direction))
        for (_, _, metric, unit), members in unknown.items():
            gi, tr, v = values[members[0]]
            lines = sorted({values[k][2].line for k in members})
            rows = list(dict.fromkeys(values[k][2].row for k in members))
            more = ", ..." if len(rows) > 3 else ""
            gi.errors.append(PerfgateError(
                f"{len(members)} numbers of metric {metric or v.row!r} (unit {unit or 'none'!r}, suite {tr.suite}, "
                f"lines {lines[0]}-{lines[-1]}; rows {', '.join(map(repr, rows[:3]))}{more}) "
                f"have no direction rule: not imported; remedy: a unit rule in "
                f"variables/units.yaml or a direction rule in variables/directions.yaml", gi.name, v.line))  # fmt: skip
            gi.reported += len(members)
        for k, unit, direction in made:
            gi, tr, v = values[k]
            assert tr.suite and tr.chapter
            gi.criteria.append(
                Criterion(
                    id=ids[k],
                    name=names[k],
                    board=v.board,
                    guide=gi.name,
                    release=gi.release,
                    chapter=tr.chapter,
                    suite=tr.suite,
                    table=v.table,
                    row=v.row,
                    metric=v.metric,
                    unit=unit,
                    value=v.value,
                    min=v.min,
                    max=v.max,
                    direction=direction,
                    context="; ".join(f"{key}={val}" for key, val in v.context),
                    source=f"{gi.name}:{v.line}",
                )
            )
        self._generate(imports)
        return imports

    def _generate(self, imports: list[GuideImport]) -> None:
        """One generated profile per new board, from every guide that names it (the peripherals of all their
        suites; the first guide and description)."""
        made: dict[str, newboards.NewBoard] = {}
        for gi in imports:
            for name, board in gi.new_boards.items():
                if board not in made:
                    named = [g for g in imports if board in g.new_boards.values()]
                    suites = {c.suite for g in named for c in g.criteria if c.board == board}
                    description = next((g.descriptions.get(name, "") for g in named if g.descriptions.get(name)), "")
                    made[board] = newboards.make(name, description, gi.name, suites, self.boards_dir)
                gi.generated.append(made[board])


def _release_from_name(name: str) -> str | None:
    m = RELEASE_IN_NAME.search(name)
    return m.group(1) if m else None


def _section(v: Value, table_result: TableResult) -> str:
    for s in reversed(v.sections):
        if s != v.table and boards.canonical(s) != v.board:
            return s
    return ""


def _names(values: list[tuple[GuideImport, TableResult, Value]]) -> tuple[list[str], list[duplicates.Clash]]:
    """Test names unique within each board's suite file: the row (one value column) or `row · metric`,
    prefixed with the table title, then also the section, for the tables whose names would clash."""
    metrics: dict[tuple[int, str], set[str]] = defaultdict(set)
    for _, tr, v in values:
        metrics[(id(tr), v.board)].add(v.metric)

    def base(tr: TableResult, v: Value) -> str:
        single = len(metrics[(id(tr), v.board)]) == 1 or not v.metric
        return v.row if single else f"{v.row}{SEP}{v.metric}"

    def name(level: int, tr: TableResult, v: Value) -> str:
        b = base(tr, v)
        if level >= 1:
            b = f"{v.table}{SEP}{b}"
        if level >= 2:
            b = f"{_section(v, tr)}{SEP}{b}"
        return b

    return _resolve(values, name, "test name")


def _ids(values: list[tuple[GuideImport, TableResult, Value]]) -> tuple[list[str], list[duplicates.Clash]]:
    def make(level: int, tr: TableResult, v: Value) -> str:
        table = slug(v.table) if level < 2 else slug(f"{_section(v, tr)} {v.table}")
        parts = [v.board, tr.suite or "", table, slug(v.row), slug(v.metric)]
        return ".".join(p for p in parts if p)

    return _resolve(values, make, "id")


def key_of(x: tuple[GuideImport, TableResult, Value], name: str) -> tuple[str, str, str, str]:
    gi, tr, v = x
    return (v.board, gi.release, tr.suite or "", " ".join(name.casefold().split()))


def _resolve(values, make, what: str) -> tuple[list[str], list[duplicates.Clash]]:
    """Raise the qualification level of every table involved in a clash until names are unique per file.

    Names are compared case-insensitively (Robot Framework does). Rows of one table that stay equal after
    that (the AM62x boot-time table prints `Kernel boot time ...` and `kernel boot time ...`) are numbered
    in guide order: the second one gets ` #2`. Values that still clash across tables (a table printed twice with
    other numbers) are returned as clashes, for the caller to report."""
    level: dict[int, int] = defaultdict(int)
    made: dict[tuple[int, int], str] = {}

    def name(i: int, tr: TableResult, v: Value) -> str:
        key = (level[id(tr)], i)
        if key not in made:
            made[key] = make(key[0], tr, v)
        return made[key]

    while True:
        out = [name(i, tr, v) for i, (_, tr, v) in enumerate(values)]
        owners: dict[tuple[str, str, str, str], set[int]] = defaultdict(set)
        count: dict[tuple[str, str, str, str], int] = defaultdict(int)
        for (gi, tr, v), n in zip(values, out, strict=True):
            key = key_of((gi, tr, v), n)
            owners[key].add(id(tr))
            count[key] += 1
        clashing = {k for k, c in count.items() if c > 1}
        if not clashing:
            return out, []
        involved = {t for k in clashing for t in owners[k] if level[t] < 2}
        for t in involved:
            level[t] += 1
        if involved:
            continue
        found: list[duplicates.Clash] = []
        for k in sorted(clashing):
            if len(owners[k]) > 1:  # copies in several tables: TI printed the table twice, with other numbers
                members = [i for i, (x, n) in enumerate(zip(values, out, strict=True)) if key_of(x, n) == k]
                found.append(duplicates.Clash(what, k, members))
        taken = {i for c in found for i in c.members}
        seen: dict[tuple[str, str, str, str], int] = defaultdict(int)
        sep = " #" if what == "test name" else "-"
        for i, ((gi, tr, v), n) in enumerate(zip(values, out, strict=True)):
            key = key_of((gi, tr, v), n)
            if key in clashing and i not in taken:
                seen[key] += 1
                if seen[key] > 1:
                    out[i] = f"{n}{sep}{seen[key]}"
        return out, found


def grouped_criteria(imports: list[GuideImport]) -> dict[Path, list[Criterion]]:
    """Threshold file path -> its criteria in guide order, for every board and suite the guides publish."""
    grouped: dict[tuple[str, str, str], list[Criterion]] = defaultdict(list)
    for gi in imports:
        for c in gi.criteria:
            grouped[(c.board, c.release, c.suite)].append(c)
    return {
        criteria.release_dir(board, release) / f"{suite}.csv": cs
        for (board, release, suite), cs in sorted(grouped.items())
    }


def render_files(imports: list[GuideImport]) -> dict[Path, str]:
    """Threshold file path -> content (perfgate.criteria.render, the format DataDriver reads)."""
    return {p: criteria.render(cs) for p, cs in grouped_criteria(imports).items()}


def _guides_of(path: Path) -> set[str]:
    """The guides named in a threshold file's `${guide}` column (empty when it cannot be read)."""
    try:
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
        column = rows[0].index("${guide}")
    except (OSError, UnicodeDecodeError, csv.Error, IndexError, ValueError):
        return set()
    return {row[column] for row in rows[1:] if len(row) > column}


def stale_files(files: Iterable[Path], guides: Iterable[str]) -> list[Path]:
    """Threshold files that came from these guides but that the guides no longer produce. Files of other
    guides and of boards no guide covers (`perfgate baseline`) are never stale."""
    names = set(guides)
    files = set(files)
    root = paths.thresholds()
    if not root.is_dir():
        return []
    candidates = sorted([*root.glob("*/*.csv"), *root.glob("*/*/*.csv")])
    return [p for p in candidates if p not in files and _guides_of(p) & names]


def differences(files: dict[Path, str], guides: Iterable[str]) -> list[str]:
    """What differs between the committed threshold files and `files` (missing, changed, stale)."""
    out = []
    for p, content in files.items():
        if not p.exists():
            out.append(f"missing: {p}")
        elif p.read_text(encoding="utf-8") != content:
            out.append(f"differs: {p}")
    out += [f"stale: {p} (the guide no longer publishes this suite for this board)" for p in stale_files(files, guides)]
    return out


def protected(imports: list[GuideImport]) -> set[tuple[str, str, str]]:
    """(guide, release, suite) whose files an import with errors must leave as they are: the suites of the tables
    that could not be read. An error in a table no rule places protects every file of its guide."""
    out: set[tuple[str, str, str]] = set()
    for gi in imports:
        for tr in gi.results:
            if tr.error or tr.cell_errors:
                out.add((gi.name, gi.release, tr.suite or "*"))
    return out


def _is_protected(path: Path, cs: list[Criterion] | None, keep: set[tuple[str, str, str]]) -> bool:
    if not keep:
        return False
    guides = {c.guide for c in cs} if cs else _guides_of(path)
    suite = path.stem
    return any(g in guides and s in (suite, "*") for g, _, s in keep)


def write_files(imports: list[GuideImport]) -> list[Path]:
    """Write the changed files with perfgate.criteria.write; remove the threshold files these guides produced
    before and no longer produce. A suite with a table the import could not read keeps its earlier file
    (written, stale or not): an error never loses thresholds that were there before."""
    files = grouped_criteria(imports)
    keep = protected(imports)
    stale = [p for p in stale_files(files, [gi.name for gi in imports]) if not _is_protected(p, None, keep)]
    written = []
    for p, cs in files.items():
        if _is_protected(p, cs, keep) and p.exists():
            continue
        if not p.exists() or p.read_text(encoding="utf-8") != criteria.render(cs):
            criteria.write(p, cs)
            written.append(p)
    for p in stale:
        p.unlink()
        written.append(p)
        folder = p.parent
        while folder != paths.thresholds() and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()  # a release (or board) folder the guides no longer publish
            folder = folder.parent
    return written
