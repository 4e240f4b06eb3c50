"""`python -m perfgate criteria <board> [--release R] [--suite S] [--json]`: a board's criteria at one release
(default: the newest; `a,b` mixes releases, newest wins per criterion) — board by any of its names."""

from __future__ import annotations

import argparse
import json
import sys

from perfgate import boards, criteria


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", help="board name or alias (am62xx_sk, am62xx_sk-fs, j721e-idk-gw, ...)")
    parser.add_argument("--release", help="the SDK release (default: the newest); `a,b`: mixed, newest wins")
    parser.add_argument("--suite", help="only this suite")
    parser.add_argument("--json", action="store_true", help="print a JSON array of criterion objects")


def run(args: argparse.Namespace) -> int:
    board = boards.resolve(args.board)
    selection = criteria.select(board, args.release)
    cs = [c for c in selection.criteria if not args.suite or c.suite == args.suite]
    if args.json:
        print(json.dumps([c.to_json() for c in cs], indent=2, ensure_ascii=False))
        print(f"{board}: {selection.describe()}", file=sys.stderr)
        return 0
    for c in cs:
        spread = f" (min {c.min:g}, max {c.max:g})" if c.min is not None and c.max is not None else ""
        print(f"{c.suite:12} {c.name}: {c.value:g}{spread} {c.unit} [{c.direction}]  SDK {c.release}  {c.source}")
    print(f"{len(cs)} criteria for {board}: {selection.describe()}")
    return 0
