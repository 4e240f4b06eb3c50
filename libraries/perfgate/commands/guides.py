"""`python -m perfgate guides history <folder> --out <dir>` and `python -m perfgate guides diff <A> <B> [--board B]`.

history: import every version of TI's guides in a folder side by side (perfgate.guides.history: the release of
each version, stated or assumed, and the version each release's thresholds come from); exit 1 when a version was
imported only in part (its problems are reported, file:line, reason and remedy).
diff: what changed in the published numbers between two releases, number by number (perfgate.guides.diff), from
the committed thresholds or from a history's (`--thresholds <out>/variables/thresholds`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from perfgate import paths
from perfgate.guides import diff, history


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="action")
    h = sub.add_parser("history", help="import every version of the guides in a folder, side by side")
    h.add_argument("folder", type=Path, help="guide versions (*.rst), with a manifest.json (extract_history.py)")
    h.add_argument("--out", type=Path, required=True, help="where to write them (never variables/ of the checkout)")
    h.add_argument("--quiet", "-q", action="store_true", help="totals and problems only")
    d = sub.add_parser("diff", help="what changed in the published numbers between two releases")
    d.add_argument("release_a")
    d.add_argument("release_b")
    d.add_argument("--board", help="one board (default: every board publishing numbers in both releases)")
    d.add_argument("--thresholds", type=Path, help="a thresholds folder (default: the committed one)")
    d.add_argument("--all", action="store_true", help="also list the numbers that did not change")
    d.add_argument("--json", action="store_true", help="one JSON object per criterion, in an array")


def run(args: argparse.Namespace) -> int:
    return _history(args) if args.action == "history" else _diff(args)


def _history(args: argparse.Namespace) -> int:
    out = args.out.resolve()
    if out == paths.variables().resolve() or paths.variables().resolve() in out.parents:
        print(f"perfgate guides history: --out {out} is inside {paths.variables()}: choose another folder",
              file=sys.stderr)  # fmt: skip
        return 2
    h = history.import_history(args.folder, out)
    partial = 0
    for v in h.versions:
        mark = "*" if v.chosen else " "
        release = v.release + (" (assumed)" if v.assumed else "")
        if not args.quiet:
            print(f"{mark} {v.date[:10]} {v.revision[:8]} {v.identity:20} {release:28} {v.criteria:6} criteria"
                  f"{f', {len(v.problems)} problems' if v.problems else ''}  {v.source}")  # fmt: skip
        partial += bool(v.problems)
    for o in h.overlaps:
        print(f"overlap: {o}")
    releases = Counter((v.identity, v.release) for v in h.versions)
    assumed = sum(1 for v in h.versions if v.assumed)
    print(f"{len(h.versions)} versions of {len({v.identity for v in h.versions})} guides, {len(releases)} guide "
          f"releases ({assumed} versions with an assumed release), "
          f"{sum(v.criteria for v in h.versions)} criteria; {partial} versions imported in part "
          f"(their problems: {out / 'history.json'}); * = the version a release's thresholds come from: "
          f"{out / 'variables' / 'thresholds'}")  # fmt: skip
    return 1 if partial else 0


def _diff(args: argparse.Namespace) -> int:
    root = args.thresholds or paths.thresholds()
    changes = diff.diff(root, args.release_a, args.release_b, args.board)
    shown = [c for c in changes if args.all or c.verdict != "same"]
    if args.json:
        print(json.dumps([{**asdict(c), "percent": c.percent} for c in shown], indent=1))
        return 0
    for c in shown:
        a = "-" if c.a is None else f"{c.a:g}"
        b = "-" if c.b is None else f"{c.b:g}"
        pct = f" ({c.percent:+.1f} %)" if c.percent is not None else ""
        print(f"{c.verdict:8} {c.board} {c.suite}: {c.name}: {a} -> {b} {c.unit}{pct}  [{c.direction}]")
    counts = Counter(c.verdict for c in changes)
    print(f"{args.release_a} -> {args.release_b}: {len(changes)} criteria: "
          + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))  # fmt: skip
    return 0
