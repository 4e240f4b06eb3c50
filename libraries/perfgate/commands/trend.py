"""`python -m perfgate trend <board>|virtual/<board> [--metric M | --samples M | --suite S]`: a metric, one
criterion's samples, or a suite's ratio across the board's runs.

Reads results/<board>/history.jsonl (the board's hardware runs) or, with --virtual or `virtual/<board>` (as
`compare` names them), results/virtual/<board>/history.jsonl (its runs on a virtual board); a board with no hardware
run gets its virtual runs, and the output says so. --mix plots both kinds, each point marked, and says so; without
it the two never share a plot. --metric takes a criterion id or the guide's name, exactly, as a glob
(`'bw_mem-rd-*'`) or as a substring; several matches are plotted as ratios to their published values. --samples
plots one criterion's samples (each run of its command) as a distribution per run: a box and its dots, the judged
value, the published value and its tolerance band. --suite plots the suite's geometric-mean ratio to the published
numbers; with neither, every suite is plotted. Prints the values as a table and writes a PNG (or SVG, by --out's
suffix). The title counts the runs that have a value for the selection.

--changes lists where a change began in the history, for every criterion of the selection and each suite plotted:
change points by Apache Otava's method (e-divisive means with a t-test: perfgate/baseline/changes.py), each at least
the criterion's tolerance against its baseline (variables/baseline.yaml) and significant at --pvalue (default 0.001,
or 0.05 over the number of series examined when smaller), named by the run and release where it began; the plot
marks them. Exit status 0 (1 with --fail-on-change when any was found).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict
from pathlib import Path

from perfgate import boards, criteria
from perfgate.baseline import changes, config
from perfgate.baseline.pair import as_criterion
from perfgate.errors import PerfgateError
from perfgate.report import history, trend
from perfgate.report.html import fmt

MAX_SERIES = 12


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("board", help="board name (aliases work)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--metric", help="criterion id or guide name (glob or substring)")
    which.add_argument("--suite", help="a suite, e.g. lmbench")
    which.add_argument("--samples", metavar="CRITERION",
                       help="one criterion's samples (each run of its command) as a distribution per run")  # fmt: skip
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--virtual", action="store_true", help="the board's runs on a virtual board (sim, qemu)")
    kind.add_argument("--mix", action="store_true", help="virtual and hardware runs in one plot (marked)")
    parser.add_argument("--last", type=int, default=0, help="only the last N runs")
    parser.add_argument("--out", type=Path, help="image file (default results/<board>/trend-<selection>.png)")
    parser.add_argument("--json", action="store_true", help="print the series as JSON instead of a table")
    parser.add_argument("--no-plot", action="store_true", help="print only, write no image")
    parser.add_argument("--changes", action="store_true", help="list where each change began (change points)")
    parser.add_argument("--pvalue", type=float, help="a change point's significance (default: 0.001, or 0.05 over the "
                        "series examined when that is smaller)")  # fmt: skip
    parser.add_argument("--fail-on-change", action="store_true", help="with --changes: exit 1 when any was found")


def _board(name: str) -> str:
    try:
        return boards.resolve(name)
    except PerfgateError:
        if any(history.path_for(name, v).exists() for v in (False, True)):
            return name  # a board that only has results (e.g. a lab's custom board)
        raise


def _select(runs: list[dict], args: argparse.Namespace) -> tuple[list[trend.Series], str]:
    if args.samples:
        found = trend.find_metrics(runs, args.samples)
        if len(found) != 1:
            names = ", ".join(str(m.get("name")) for _, m in found[:8])
            raise PerfgateError(f"--samples needs one criterion: {len(found)} match {args.samples!r}"
                                + (f" ({names}{', ...' if len(found) > 8 else ''})" if found else ""))  # fmt: skip
        s = trend.metric_series(runs, found[0][0])
        return [s], f"{s.name} samples"
    if args.metric:
        found = trend.find_metrics(runs, args.metric)
        if not found:
            raise PerfgateError(f"no criterion matches {args.metric!r} in this board's history")
        if len(found) == 1:
            s = trend.metric_series(runs, found[0][0])
            return [s], s.name
        if len(found) > MAX_SERIES:
            names = ", ".join(str(m.get("name")) for _, m in found[:8])
            raise PerfgateError(f"{len(found)} criteria match {args.metric!r} ({names}, ...): narrow it down")
        series = []
        for cid, _ in found:
            s = trend.metric_series(runs, cid)
            for p in s.points:  # several metrics share one axis as ratios
                if p.value is not None and p.published:
                    p.value = p.value / p.published
            s.kind, s.unit = "ratio", "ratio"
            series.append(s)
        return series, args.metric
    if args.suite:
        if args.suite not in trend.suites_in(runs):
            raise PerfgateError(
                f"no suite {args.suite!r} in this board's history; suites: " + ", ".join(trend.suites_in(runs))
            )
        return [trend.suite_series(runs, args.suite)], args.suite
    return [trend.suite_series(runs, s) for s in trend.suites_in(runs)], "suites"


def _runs(board: str, args: argparse.Namespace) -> tuple[list[dict], str, Path]:
    """The history records to plot, what kind they are, and the file(s) they came from."""
    kinds = (False, True) if args.mix else (True,) if args.virtual else (False,)
    if not args.mix and not args.virtual and not _read(board, False)[0] and _read(board, True)[0]:
        kinds = (True,)
        print(f"perfgate trend: {board} has no hardware run: showing its VIRTUAL runs", file=sys.stderr)
    runs: list[dict] = []
    for virtual in kinds:
        runs += _read(board, virtual)[0]
    runs.sort(key=lambda r: (str(r.get("started") or ""), r["run"]))
    if args.mix:
        print(f"perfgate trend: MIXED (--mix): virtual and hardware runs of {board} in one plot", file=sys.stderr)
    what = "virtual and hardware" if args.mix else "virtual" if kinds == (True,) else "hardware"
    return runs, what, history.path_for(board, kinds[0])


def _read(board: str, virtual: bool) -> tuple[list[dict], list[str]]:
    """A history's runs of that kind (a history written before runs were filed by kind may hold both)."""
    h = history.read(history.path_for(board, virtual))
    return [r for r in h.runs if bool(r.get("virtual")) == virtual], h.problems


def _board_arg(args: argparse.Namespace) -> str:
    """The board as `compare` names a board's runs: `virtual/<board>` is its virtual runs (as --virtual)."""
    name = args.board.strip().rstrip("/")
    if name.startswith("virtual/"):
        name = name.removeprefix("virtual/")
        if not args.mix:
            args.virtual = True
    return name


def run(args: argparse.Namespace) -> int:
    board = _board(_board_arg(args))
    for virtual in (False, True):
        for problem in _read(board, virtual)[1]:
            print(f"perfgate trend: {problem}", file=sys.stderr)
    runs, what, where = _runs(board, args)
    runs = runs[-args.last :] if args.last > 0 else runs
    if not runs:
        raise PerfgateError(f"no {what} run of {board} yet", where)
    series, selection = _select(runs, args)
    found = _changes(board, runs, series, args) if args.changes else []
    if args.json and args.changes:
        print(json.dumps([{"label": label, "name": name, "run": b.run, "release": b.release, "started": b.started,
                           "index": b.point.index, "change_pct": round(b.point.change_pct, 3),
                           "pvalue": b.point.pvalue, "before": b.point.mean_before, "after": b.point.mean_after}
                          for label, name, _, b in found], indent=2))  # fmt: skip
    elif args.json:
        print(json.dumps([asdict(s) for s in series], indent=2))
    else:
        for s in series:
            print(f"{s.label} — {s.name} ({s.unit})")
            for p in s.points:
                pub = f"  published {fmt(p.published)}" if s.kind == "metric" else ""
                virtual = ("  (virtual)" if p.virtual else "") + (f"  SDK {p.release}" if p.release else "")
                spread = ""
                if args.samples and p.samples:
                    spread = f"  {len(p.samples)} samples {fmt(min(p.samples))} .. {fmt(max(p.samples))}"
                print(f"  {p.run:<18} {fmt(p.value):>14}{pub}  {p.verdict or ''}{spread}{virtual}")
    if args.changes and not args.json:
        print(f"\nWhere a change began ({len(found)}; e-divisive means with a t-test, p <= {args.pvalue:g}, each at "
              f"least its tolerance against its baseline):")  # fmt: skip
        for _, name, unit, b in found:
            print(f"  {name[:60]:<60} {b.describe(unit)}")
    if not args.no_plot:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", selection).strip("_")[:80]
        out = args.out or where.parent / f"trend-{slug}.png"
        shown = trend.runs_with_values(series)
        among = f" (of {len(runs)}; the others have no value for it)" if shown < len(runs) else ""
        title = f"{board}: {selection} across {shown} {what} runs{among}"
        plotted = {s.label for s in series}
        marks = [(b.run, f"{b.run} {b.point.change_pct:+.1f}%") for label, _, _, b in found if label in plotted]
        print(trend.plot(series, out, title, samples=bool(args.samples), marks=marks),
              file=sys.stderr if args.json else sys.stdout)  # fmt: skip
    return 1 if args.fail_on_change and found else 0


def _changes(board: str, runs: list[dict], series: list[trend.Series], args: argparse.Namespace) -> list[
        tuple[str, str, str, changes.Began]]:  # fmt: skip
    """(series label, name, unit, change point) for every criterion of the selection and every suite series."""
    cfg = config.load()
    known = {c.id: c for c in criteria.select(board, None).criteria} if board in boards.known() else {}
    ids = [cid for cid, _ in trend.find_metrics(runs, args.metric)] if args.metric else list(
        dict.fromkeys(cid for r in runs for cid, m in r["metrics"].items()
                      if not args.suite or (isinstance(m, dict) and m.get("suite") == args.suite)))  # fmt: skip
    n_series = len(ids) + sum(1 for s in series if s.kind == "suite")
    args.pvalue = args.pvalue or min(0.001, 0.05 / max(n_series, 1))
    out = []
    for cid in ids:
        s = trend.metric_series(runs, cid)
        last = next(r["metrics"][cid] for r in reversed(runs) if cid in r["metrics"])
        tol = cfg.of(known.get(cid) or as_criterion({**last, "id": cid})).tolerance
        for b in changes.in_history([(p.run, p.release, p.started, p.value) for p in s.points], args.pvalue, tol):
            out.append((cid, s.name, s.unit, b))
    for s in series:
        if s.kind == "suite":
            tols = sorted(cfg.of(c).tolerance for c in known.values() if c.suite == s.label) or [cfg.default.tolerance]
            for b in changes.in_history([(p.run, p.release, p.started, p.value) for p in s.points], args.pvalue,
                                        tols[len(tols) // 2]):  # fmt: skip
                out.append((s.label, f"suite {s.label}", "", b))
    return out
