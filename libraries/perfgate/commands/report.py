"""`python -m perfgate report <run dir>`: rebuild comparison.html (and summary.csv) from a run's metrics.json.

Use it for a run that was killed before it finished, or after changing the report. `--history` also appends the
run to its board's history (a finished run is appended by the gate itself).
"""

from __future__ import annotations

import argparse

from perfgate.report import atomic, history, html, rundir
from perfgate.report.metrics import SUMMARY_CSV, summary_csv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.add_argument("run", help="a run directory, or <board>[/<run>|/latest|/previous] under results/")
    parser.add_argument("--history", action="store_true", help="append the run to the board's history.jsonl")
    parser.add_argument("--no-charts", action="store_true", help="tables only (no matplotlib)")


def run(args: argparse.Namespace) -> int:
    run_dir = rundir.resolve(args.run)
    r = rundir.load(run_dir)
    atomic.write_text(run_dir / SUMMARY_CSV, summary_csv(r.entries))
    page = html.build(run_dir, charts=not args.no_charts)
    print(page)
    if args.history:
        print(history.append(run_dir))
    return 0
