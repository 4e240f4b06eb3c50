"""`python -m perfgate boards [--json]`: every board with its releases (newest first) and criteria per suite."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from perfgate import boards, criteria, paths
from perfgate.errors import PerfgateError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON array")


def summary() -> list[dict]:
    """One object per board: `releases` newest first, and per release its guides, criteria and suites; the
    top-level `guide`, `criteria` and `suites` are those of the default (newest) release."""
    out = []
    for board in boards.known():
        per_release = []
        for release, cs in criteria.load_all(board).items():
            per_release.append(
                {
                    "release": release,
                    "guide": ", ".join(sorted({c.guide for c in cs})) or "-",
                    "criteria": len(cs),
                    "suites": dict(sorted(Counter(c.suite for c in cs).items())),
                }
            )
        newest = per_release[0] if per_release else {"release": "-", "guide": "-", "criteria": 0, "suites": {}}
        out.append(
            {
                "board": board,
                "releases": [r["release"] for r in per_release],
                "release": newest["release"],
                "guide": newest["guide"],
                "criteria": newest["criteria"],
                "suites": newest["suites"],
                "per_release": per_release,
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    rows = summary()
    if not rows:
        raise PerfgateError(
            f"no boards: no board profile in {paths.boards()} and no thresholds in {paths.thresholds()} "
            "(an installation without its variables: reinstall perfgate; a checkout: run `perfgate import`)"
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max([len(r["board"]) for r in rows] + [5])
    entries = [(r["board"], rel) for r in rows for rel in r["per_release"]] or []
    gwidth = max([len(rel["guide"]) for _, rel in entries] + [5])
    print(f"{'board':{width}}  {'release':12}  {'guide':{gwidth}}  criteria  per suite")
    for r in rows:
        if not r["per_release"]:
            print(f"{r['board']:{width}}  {'-':12}  {'-':{gwidth}}  {0:8}")
        for k, rel in enumerate(r["per_release"]):
            suites = ", ".join(f"{s} {n}" for s, n in rel["suites"].items())
            mark = "*" if k == 0 else " "
            print(
                f"{r['board'] if k == 0 else '':{width}}  {rel['release'] + mark:12}  {rel['guide']:{gwidth}}  "
                f"{rel['criteria']:8}  {suites}"
            )
    print("* the release a run is judged against by default (the newest); choose another with -v RELEASE:<release>")
    return 0
