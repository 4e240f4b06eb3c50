"""`python -m perfgate boards [--json]`: every board with its guide, release and criteria per suite."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from perfgate import boards, criteria


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON array")


def summary() -> list[dict]:
    out = []
    for board in boards.known():
        cs = criteria.load(board)
        out.append(
            {
                "board": board,
                "guide": ", ".join(sorted({c.guide for c in cs})) or "-",
                "release": ", ".join(sorted({c.release for c in cs})) or "-",
                "criteria": len(cs),
                "suites": dict(sorted(Counter(c.suite for c in cs).items())),
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    rows = summary()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max([len(r["board"]) for r in rows] + [5])
    gwidth = max([len(r["guide"]) for r in rows] + [5])
    print(f"{'board':{width}}  {'guide':{gwidth}}  {'release':18}  criteria  per suite")
    for r in rows:
        suites = ", ".join(f"{s} {n}" for s, n in r["suites"].items())
        print(f"{r['board']:{width}}  {r['guide']:{gwidth}}  {r['release']:18}  {r['criteria']:8}  {suites}")
    return 0
