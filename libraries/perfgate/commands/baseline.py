"""`python -m perfgate baseline <run dir>... --board <name>`: a board's thresholds from its own measured runs.

For a board no guide covers (the QEMU board, a custom board), the criteria are what the board itself measured:
each criterion's value is the mean (or median) of its measurements over the given runs (every sample of a run
made with REPEAT > 1 counts), `min`/`max` are the spread of those measurements, `guide` is `baseline:<runs>`
and `source` names the run directories. The files are written with perfgate.criteria.write into
variables/thresholds/<board>/<suite>.csv, so the suites read them like any imported guide.

The criteria's shape (suite, table, row, metric, unit, direction, context) comes from the runs' own criteria
files (results/<board>/<run>/criteria/<suite>.csv), so the workloads plan exactly the commands that were measured.

Only clean, finished runs make a baseline: a run with injected FAULTS, a run whose verdict is not pass (fail,
inconclusive, or incomplete: interrupted or killed) is refused, and so are virtual and hardware runs together unless
--mix (which the output and the thresholds' `release` then say). The record runs of `--record` are judged against
template values that are not the board's, so their fail verdicts are ignored; FAULTS and incomplete still refuse.

`--record N` makes those runs first: it runs the gate N times on the board in a record mode, with template
criteria named in the board profile's `record:` section (rows of guide boards whose workloads the board can run;
their published values are not used), then writes the thresholds from the N runs. See docs/custom-board.md.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import statistics
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfgate import boards, criteria, custom, paths
from perfgate.decision.verdict import PASSING, RunVerdict, Verdict
from perfgate.errors import DataError
from perfgate.model import Criterion

MEASURED_VERDICTS = PASSING | {Verdict.FAIL}  # a judged measurement; not-measured and skip carry no value


@dataclass
class Samples:
    criterion: Criterion
    values: list[float] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("runs", nargs="*", type=Path, help="run directories (results/<board>/<run>)")
    parser.add_argument("--board", required=True, help="the board whose thresholds are written")
    parser.add_argument("--statistic", choices=["mean", "median"], default="mean", help="the value (default mean)")
    parser.add_argument(
        "--tighten", action="append", default=[], metavar="GLOB=PERCENT",
        help="move matching criteria PERCENT %% in their better direction (to check that the gate fails them)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, help="write here instead of variables/thresholds/<board>/")
    parser.add_argument(
        "--scratch-root", type=Path, metavar="DIR",
        help="write a scratch repository root with these thresholds, for PERFGATE_ROOT=DIR robot ... DIR/suites",
    )  # fmt: skip
    parser.add_argument("--force", action="store_true", help="replace thresholds that came from a guide")
    parser.add_argument("--record", type=int, metavar="N", help="first run the gate N times in record mode")
    parser.add_argument("--lab", default="qemu", help="the lab for --record (default qemu)")
    parser.add_argument("--robot-arg", action="append", default=[], help="extra argument for robot (--record)")
    parser.add_argument("--mix", action="store_true", help="accept virtual and hardware runs together (says so)")


def run(args: argparse.Namespace) -> int:
    board = boards.resolve(args.board)
    runs = list(args.runs)
    recorded: list[Path] = []
    if args.record:
        recorded = record(board, args.lab, args.record, args.robot_arg)
        runs += recorded
    if not runs:
        raise DataError("no run directories given (and no --record N)")
    mixed = check_runs(runs, recorded, args.mix)
    if mixed:
        print(f"perfgate baseline: MIXED (--mix): {mixed}", file=sys.stderr)
    samples = collect(runs, board)
    if not samples:
        raise DataError(f"the runs {', '.join(map(str, runs))} measured no criterion of {board}")
    made = thresholds(samples, runs, args.statistic)
    if mixed:
        made = [replace(c, release=c.release + ", virtual and hardware runs mixed") for c in made]
    for spec in args.tighten:
        made = tighten(made, spec)
    if args.scratch_root:
        scratch_root(board, args.scratch_root, made)
        print(f"{args.scratch_root}: run PERFGATE_ROOT={args.scratch_root} robot -v BOARD:{board} ... "
              f"{args.scratch_root / 'suites'}")  # fmt: skip
        return 0
    out = args.out or criteria.board_dir(board)
    if not args.force and args.out is None:
        guard(board)
    written = write(made, out)
    for suite, n in written.items():
        print(f"{out / (suite + '.csv')}: {n} criteria from {len(runs)} run(s)")
    return 0


def check_runs(runs: list[Path], recorded: list[Path] | None = None, mix: bool = False) -> str:
    """Refuse a run that is no clean measurement (DataError naming its run.json): injected FAULTS, not finished
    (interrupted, killed), or a verdict other than pass (except the record runs' verdicts, judged against template
    values); and virtual runs beside hardware runs unless `mix`. Returns how the kinds were mixed ("" if not)."""
    from perfgate.report import rundir
    from perfgate.report.metrics import verdict_reason

    kinds: dict[bool, list[str]] = {}
    records = {Path(r).resolve() for r in recorded or []}
    for run_dir in runs:
        run_dir = Path(run_dir)
        if not (run_dir / "run.json").exists():
            raise DataError("not a finished run (no run.json): a baseline takes only complete, clean runs", run_dir)
        run = rundir.load(run_dir)
        where = run_dir / "run.json"
        if run.faults:
            raise DataError(
                f"this run had FAULTS injected ({run.faults}): it measured a broken board on purpose", where
            )
        if run.state != "finished":
            raise DataError(f"this run did not finish ({run.state}): its verdict is INCOMPLETE", where)
        verdict = run.verdict
        if verdict != RunVerdict.PASS and run_dir.resolve() not in records:
            raise DataError(f"this run's verdict is {verdict.upper()}, not PASS: a baseline takes only passing runs "
                            f"({verdict_reason(run.meta, run.entries, run.never_ran())})", where)  # fmt: skip
        kinds.setdefault(run.virtual, []).append(run.label)
    if len(kinds) < 2:
        return ""
    how = f"virtual runs {', '.join(kinds[True])} with hardware runs {', '.join(kinds[False])}"
    if not mix:
        raise DataError(f"will not mix {how}: a virtual board says nothing about hardware (--mix to force)")
    return how


def collect(runs: list[Path], board: str) -> dict[str, Samples]:
    """Every measured value of every criterion of `board` in the runs, in the order of the runs' criteria files."""
    out: dict[str, Samples] = {}
    for run_dir in runs:
        run_dir = Path(run_dir)
        metrics_file = run_dir / "metrics.json"
        if not metrics_file.exists():
            raise DataError("not a run directory (no metrics.json)", run_dir)
        run_board = _run_board(run_dir)
        if run_board and boards.canonical(run_board) != board:
            raise DataError(f"this run is of board {run_board!r}, not {board!r}", run_dir / "run.json", 1)
        try:
            entries = json.loads(metrics_file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise DataError(f"not valid JSON: {e.msg}", metrics_file, e.lineno) from None
        if not isinstance(entries, list):
            raise DataError("metrics.json must be a list of entries", metrics_file, 1)
        shapes = _run_criteria(run_dir)
        for n, e in enumerate(entries, 1):
            if not isinstance(e, dict) or not e.get("id"):
                raise DataError(f"entry {n} has no id", metrics_file)
            if e.get("verdict") not in MEASURED_VERDICTS or e.get("measured") is None:
                continue
            if e.get("suite") == custom.SUITE:  # the board's own criteria stay in their file (perfgate.custom)
                continue
            values = [float(v) for v in (e.get("samples") or []) if v is not None] or [float(e["measured"])]
            c = shapes.get(e["id"]) or _from_entry(e, metrics_file, n)
            if c.board != board:
                raise DataError(f"entry {e['id']} is of board {c.board!r}, not {board!r}", metrics_file)
            s = out.setdefault(c.id, Samples(c))
            s.values += values
            s.runs.append(run_dir.name)
    order = {}
    for run_dir in runs:
        for i, cid in enumerate(_run_criteria(Path(run_dir))):
            order.setdefault(cid, i)
    return dict(sorted(out.items(), key=lambda kv: (kv[1].criterion.suite, order.get(kv[0], 1 << 30))))


def _run_board(run_dir: Path) -> str | None:
    f = run_dir / "run.json"
    if not f.exists():
        return None
    try:
        return json.loads(f.read_text(encoding="utf-8")).get("board")
    except json.JSONDecodeError as e:
        raise DataError(f"not valid JSON: {e.msg}", f, e.lineno) from None


def _run_criteria(run_dir: Path) -> dict[str, Criterion]:
    d = run_dir / "criteria"
    out: dict[str, Criterion] = {}
    for f in sorted(d.glob("*.csv")) if d.is_dir() else []:
        for c in criteria.read(f):
            out[c.id] = c
    return out


def _from_entry(e: dict, path: Path, n: int) -> Criterion:
    missing = [k for k in ("name", "board", "suite", "chapter", "table", "row", "metric", "direction") if not e.get(k)]
    if missing:
        raise DataError(f"entry {n} ({e['id']}) lacks {', '.join(missing)} and the run has no criteria file", path)
    return Criterion(
        id=e["id"], name=e["name"], board=e["board"], guide=e.get("guide") or "", release=e.get("release") or "",
        chapter=e["chapter"], suite=e["suite"], table=e["table"], row=e["row"], metric=e["metric"],
        unit=e.get("unit") or "", value=float(e.get("published") or 0.0), direction=e["direction"],
        context=e.get("context") or "", source=e.get("source") or "",
    )  # fmt: skip


def _num(x: float) -> float:
    return float(f"{x:.6g}")


def thresholds(samples: dict[str, Samples], runs: list[Path], statistic: str = "mean") -> list[Criterion]:
    names = ",".join(Path(r).name for r in runs)
    results = paths.results()
    sources = []
    for r in runs:
        try:
            sources.append(str(Path(r).resolve().relative_to(results.resolve())))
        except ValueError:
            sources.append(str(r))
    made = []
    for s in samples.values():
        value = statistics.median(s.values) if statistic == "median" else statistics.fmean(s.values)
        spread = len(s.values) > 1
        made.append(
            replace(
                s.criterion,
                guide=f"baseline:{names}",
                release=f"baseline {statistic} of {len(s.values)}",
                value=_num(value),
                min=_num(min(s.values)) if spread else None,
                max=_num(max(s.values)) if spread else None,
                source=";".join(sources),
            )
        )
    return made


def tighten(made: list[Criterion], spec: str) -> list[Criterion]:
    glob, _, pct = spec.partition("=")
    try:
        factor = float(pct) / 100
    except ValueError:
        raise DataError(f"--tighten {spec!r}: use <id glob>=<percent>") from None
    hits = 0
    out = []
    for c in made:
        if fnmatch.fnmatchcase(c.id, glob) and c.direction in ("higher", "lower"):
            hits += 1
            sign = 1 if c.direction == "higher" else -1
            c = replace(c, value=_num(c.value * (1 + sign * factor)), min=None, max=None,
                        release=c.release + f", tightened {pct}%")  # fmt: skip
        out.append(c)
    if not hits:
        raise DataError(f"--tighten {spec!r} matches no criterion with a direction")
    return out


def guard(board: str) -> None:
    """Refuse to overwrite thresholds imported from a guide."""
    for c in criteria.load(board):
        if not c.guide.startswith("baseline:"):
            raise DataError(
                f"{board}'s thresholds come from the guide {c.guide}: a baseline would replace them "
                f"(use --force, or --out <dir>)",
                criteria.board_dir(board) / f"{c.suite}.csv",
            )


def write(made: list[Criterion], out: Path) -> dict[str, int]:
    by_suite: dict[str, list[Criterion]] = {}
    for c in made:
        by_suite.setdefault(c.suite, []).append(c)
    for suite, cs in by_suite.items():
        criteria.write(out / f"{suite}.csv", cs)
    return {s: len(cs) for s, cs in by_suite.items()}


# -- record mode: the first runs of a board that has no thresholds yet ------------------------------------------
def templates(board: str) -> list[Criterion]:
    """The criteria a record run measures, from the board profile's `record:` section:

    record:
      <suite>: {from: <guide board>, ids: [<id glob after "<board>.">, ...]}

    Each matching criterion of the guide board is taken with the recorded board's name and id; its published value
    is carried along only because a criterion must have one: the record run's verdicts are ignored, and the
    baseline writes the measured values."""
    profile = boards.profile(board)
    path = paths.boards() / f"{board}.yaml"
    spec = profile.get("record")
    if not isinstance(spec, dict) or not spec:
        raise DataError(f"board {board} has no `record:` section: what should a record run measure?", path)
    out: list[Criterion] = []
    for suite, item in spec.items():
        if not isinstance(item, dict) or not isinstance(item.get("from"), str) or not item.get("ids"):
            raise DataError(f"record.{suite} must be {{from: <guide board>, ids: [<id globs>]}}", path)
        source = boards.resolve(item["from"])
        found = [
            c for c in criteria.load(source, suite)
            if any(fnmatch.fnmatchcase(c.id[len(source) + 1 :], g) for g in item["ids"])
        ]  # fmt: skip
        if not found:
            raise DataError(f"record.{suite}: no criterion of {source} matches {item['ids']}", path)
        for c in found:
            out.append(replace(c, board=board, id=board + c.id[len(source) :], guide=f"record-template:{c.guide}"))
    return out


def scratch_root(board: str, where: Path, made: list[Criterion]) -> Path:
    """A scratch repository root (PERFGATE_ROOT) that is this one except for the board's thresholds (`made`)."""
    real = paths.root()
    where.mkdir(parents=True, exist_ok=True)
    for name in ("suites", "resources", "build", "libraries"):
        if (real / name).exists():
            (where / name).symlink_to(real / name)
    (where / "variables").mkdir()
    for item in (real / "variables").iterdir():
        if item.name != "thresholds":
            (where / "variables" / item.name).symlink_to(item)
    (where / "variables" / "thresholds").mkdir()
    for suite in sorted({c.suite for c in made}):
        criteria.write(
            where / "variables" / "thresholds" / board / f"{suite}.csv", [c for c in made if c.suite == suite]
        )
    return where


def _run_dirs(results: Path) -> set[Path]:
    return {d for d in results.iterdir() if (d / "metrics.json").exists()} if results.is_dir() else set()


def _virtual_lab(lab: str, board: str) -> bool:
    from perfgate.board.lab import load

    return load(lab, board).virtual


def record(board: str, lab: str, n: int, robot_args: list[str]) -> list[Path]:
    """Run the gate n times on the board with its template criteria; returns the run directories."""
    import os
    import subprocess
    import tempfile

    results = paths.board_results(board, _virtual_lab(lab, board))
    runs: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="perfgate-record-") as tmp:
        root = scratch_root(board, Path(tmp) / "root", templates(board))
        suites = sorted({c.suite for c in templates(board)})
        env = {**os.environ, "PERFGATE_ROOT": str(root), "PERFGATE_RESULTS": str(paths.results())}
        for i in range(1, n + 1):
            before = _run_dirs(results)
            cmd = [sys.executable, "-m", "robot", "-v", f"BOARD:{board}", "-v", f"LAB:{lab}",
                   "--outputdir", str(Path(tmp) / f"robot-{i}"), "--console", "dotted",
                   *(a for s in suites for a in ("--suite", s)), *robot_args, str(root / "suites")]  # fmt: skip
            print(f"perfgate baseline: record run {i} of {n}: {' '.join(cmd[2:])}", file=sys.stderr, flush=True)
            subprocess.run(cmd, env=env, check=False)
            new = sorted(_run_dirs(results) - before)
            if not new:
                raise DataError(f"record run {i} left no run directory in {results}")
            runs.append(new[-1])
    return runs
