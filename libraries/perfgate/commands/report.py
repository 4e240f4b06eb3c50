"""`python -m perfgate report <run dir>`: rebuild comparison.html (and summary.csv) from a run's metrics.json.

Use it for a run that was killed before it finished, or after changing the report. It also copies Robot's
output.xml, log.html and report.html into the run directory from where run.json says Robot wrote them (and
writes log.html with rebot when there is only an output.xml), so the page's links into the log work.
`--history` also appends the run to its board's history (a finished run is appended by the gate itself).
"""

from __future__ import annotations

import argparse
import time

from perfgate import procs
from perfgate.report import atomic, history, html, robotfiles, rundir
from perfgate.report.metrics import SUMMARY_CSV, summary_csv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.add_argument("run", help="a run directory, or <board>[/<run>|/latest|/previous] under results/")
    parser.add_argument("--history", action="store_true", help="append the run to the board's history.jsonl")
    parser.add_argument("--no-charts", action="store_true", help="tables only (no matplotlib)")
    parser.add_argument(
        "--after-pid",
        type=int,
        metavar="PID",
        help="first wait (at most --wait seconds) for that process to end: the gate uses it to copy Robot's files "
        "once robot has written them",
    )
    parser.add_argument("--wait", type=float, default=600.0, help=argparse.SUPPRESS)
    parser.add_argument(
        "--no-robot-files", action="store_true", help="do not copy Robot's output.xml/log.html into the run directory"
    )


def _wait_for(pid: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not procs.alive(pid):
            return
        time.sleep(0.2)


def run(args: argparse.Namespace) -> int:
    if args.after_pid:
        _wait_for(args.after_pid, args.wait)
    run_dir = rundir.resolve(args.run)
    r = rundir.load(run_dir)
    if not args.no_robot_files:
        for f in robotfiles.collect(run_dir, {k: r.meta.get(k) for k in robotfiles.NAMES}, r.meta):
            print(f)
    atomic.write_text(run_dir / SUMMARY_CSV, summary_csv(r.entries))
    page = html.build(run_dir, charts=not args.no_charts)
    print(page)
    if args.history:
        print(history.append(run_dir))
    return 0
