"""`python -m perfgate compare <run A> <run B>`: what regressed or improved beyond tolerance from A to B.

Runs are directories or `<board>/<run>`, `<board>/latest`, `<board>/previous`, `<board>` under results/ (the
board's hardware runs), or `virtual/<board>/...` (its runs on a virtual board). A virtual run is never compared with
a hardware run unless --mix is given, and then the output says so.
Each criterion both runs measured (and each suite) is also judged by the two-sample rule of a run's comparison with
its baseline (variables/baseline.yaml; README "Against the board's own baseline"): its change with an interval, and
worse, better, the same within its tolerance, or no detectable change (with the smallest regression it could find).
Exit status: 0 when nothing regressed, 1 when something regressed beyond tolerance, is no longer measured or is worse
by the two-sample rule, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from perfgate.report import compare, rundir
from perfgate.report.html import fmt


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("run_a", help="the reference run (older release, or the other board)")
    parser.add_argument("run_b", help="the run compared with it")
    parser.add_argument("--tolerance", type=float, help="one tolerance for every criterion (fraction, 0.05 = 5 %%)")
    parser.add_argument("--suite", action="append", help="only this suite (repeatable)")
    parser.add_argument("--all", action="store_true", help="also list the criteria that did not move")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.add_argument("--mix", action="store_true", help="compare a virtual run with a hardware run anyway")


def _line(c: compare.Change) -> str:
    change = f"{c.change_pct:+7.1f} %" if c.change_pct is not None else "      — "
    arrow = {"higher": "↑", "lower": "↓"}.get(c.direction, "=")
    verdicts = f"{c.verdict_a or '—'} → {c.verdict_b or '—'}"
    return (
        f"  {c.suite:<14} {c.name[:56]:<56} {arrow} {fmt(c.a):>12} → {fmt(c.b):>12} {c.unit:<10} {change}"
        f"  (±{c.tolerance * 100:.0f} %)  {verdicts}"
    )


STAT_WORDS = {"worse": "WORSE", "better": "better", "same": "same", "undecided": "no detectable change"}


def _stat(stat: dict | None) -> str:
    """The two-sample rule's change of a criterion or suite: verdict, change and interval, what it could detect."""
    if not stat:
        return ""
    word = STAT_WORDS.get(str(stat.get("verdict")), str(stat.get("verdict")))
    if not isinstance(stat.get("change_pct"), int | float):
        return f"{word} ({stat.get('reason') or 'no change computed'})"
    text = f"{word} {stat['change_pct']:+.1f} %"
    if isinstance(stat.get("low_pct"), int | float):
        text += f" [{stat['low_pct']:+.1f}, {stat['high_pct']:+.1f}] ({(stat.get('level') or 0.9) * 100:.0f} %)"
    if isinstance(stat.get("detectable_pct"), int | float) and stat.get("verdict") in ("undecided", "same"):
        text += f", detects {stat['detectable_pct']:.1f} %"
    return text


def _two_sample(result: compare.Comparison) -> None:
    """The two-sample rule's sections: worse, better, and how many read the same or undecided; the suites."""
    print(f"\nBy the two-sample rule (variables/baseline.yaml: each change with its interval; held to "
          f"{len([c for c in result.changes if c.stat]) + len(result.suites)} comparisons):")  # fmt: skip
    for title, verdict in (("Worse", "worse"), ("Better", "better")):
        changes = result.stat(verdict)
        print(f"  {title}: {len(changes)}")
        for c in changes:
            print(f"    {c.suite:<14} {c.name[:56]:<56} {_stat(c.stat)}")
    undecided = result.stat("undecided")
    print(f"  The same within tolerance: {len(result.stat('same'))}; no detectable change: {len(undecided)}")
    for c in sorted(undecided, key=lambda c: -(c.stat or {}).get("detectable_pct", 0) or 0)[:5]:
        print(f"    {c.suite:<14} {c.name[:56]:<56} {_stat(c.stat)}")
    if result.suites:
        print("  Suites (their rows averaged; + is better):")
        for suite, stat in result.suites.items():
            print(f"    {suite:<14} {_stat(stat)}")


def run(args: argparse.Namespace) -> int:
    a = rundir.load(rundir.resolve(args.run_a))
    b = rundir.load(rundir.resolve(args.run_b))
    if args.suite:
        a.entries = [e for e in a.entries if e.get("suite") in args.suite]
        b.entries = [e for e in b.entries if e.get("suite") in args.suite]
    result = compare.compare(a, b, args.tolerance, mix=args.mix)
    warnings = ([f"MIXED KINDS (--mix): {result.mixed}"] if result.mixed else []) + result.notes
    for w in warnings:
        print(f"perfgate compare: {w}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
        return 1 if result.regressed else 0
    for tag, r in (("A", a), ("B", b)):
        print(
            f"{tag}: {r.label} ({r.meta.get('lab', '?')}{', virtual' if r.virtual else ''}, "
            f"{r.meta.get('guide', '?')}); judged against SDK release {r.meta.get('release') or '?'}"
        )
    for w in warnings:
        print(f"WARNING: {w}")
    sections = [
        ("Regressed beyond tolerance", result.of("regressed")),
        ("No longer measured", result.of("lost")),
        ("Improved beyond tolerance", result.of("improved")),
        ("Newly measured", result.of("gained")),
    ]
    if args.all:
        sections.append(("Unchanged within tolerance", result.of("unchanged")))
    for title, changes in sections:
        print(f"\n{title}: {len(changes)}")
        for c in changes:
            print(_line(c))
    _two_sample(result)
    flips = [c for c in result.changes if c.verdict_a != c.verdict_b]
    print(f"\nVerdict changes: {len(flips)}")
    for c in flips:
        print(_line(c))
    if result.only_a or result.only_b:
        print(f"\nOnly in A: {len(result.only_a)} criteria; only in B: {len(result.only_b)} criteria")
    n_reg = len(result.of("regressed", "lost"))
    print(
        f"\n{n_reg} regressed, {len(result.of('improved', 'gained'))} improved, {len(result.of('unchanged'))} unchanged"
        f"; by the two-sample rule {len(result.stat('worse'))} worse, {len(result.stat('better'))} better"
    )
    return 1 if result.regressed else 0
