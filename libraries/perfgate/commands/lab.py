"""`perfgate lab check <lab> [--board B] [--release R]`: check a lab file (and a board's criteria in it) without
touching the hardware. Every problem is one `file:line: key: message` line; exit 1 when there is any."""

from __future__ import annotations

import argparse
import sys

from perfgate import labcheck


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="action")
    check = sub.add_parser("check", help="check a lab file, what it names on this host, and a board in it")
    check.add_argument("lab", help="a lab name (variables/labs/<name>.yaml) or a lab file path")
    check.add_argument("--board", help="also check this board: its criteria and the suites the lab can run")
    check.add_argument("--release", help="the release the board is judged against (default: the newest)")
    check.add_argument("--no-resolve", action="store_true", help="do not look host names up")


def run(args: argparse.Namespace) -> int:
    report = labcheck.check(args.lab, args.board, args.release, resolve_hosts=not args.no_resolve)
    for line in report.lines():
        print(line, file=sys.stderr if line.startswith("problem") else sys.stdout)
    what = f"LAB={args.lab}" + (f" BOARD={args.board}" if args.board else "")
    if report.problems:
        print(f"perfgate lab check: {what}: {len(report.problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"perfgate lab check: {what}: no problem found")
    return 0
