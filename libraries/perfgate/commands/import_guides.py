"""`python -m perfgate import [guide.rst ...] [--check]`: the guides' tables -> variables/thresholds/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from perfgate import paths
from perfgate.errors import PerfgateError
from perfgate.guides import importer, newboards, report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("guides", nargs="*", type=Path, help=f"guide .rst files (default: all of {paths.guides()})")
    parser.add_argument("--check", action="store_true", help="only compare: exit 1 when the committed files differ")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only errors and differences")


def run(args: argparse.Namespace) -> int:
    guides = args.guides or importer.guide_files()
    if not guides:
        raise PerfgateError(f"no guides given and none found in {paths.guides()}")
    imports = importer.Importer().run(guides)
    errors = [e for gi in imports for e in gi.errors]
    if not args.quiet:
        for gi in imports:
            print(report.render(gi))
    for e in errors:
        print(f"perfgate import: {e}", file=sys.stderr)
    if errors:
        lost = sum(gi.reported for gi in imports)
        print(f"perfgate import: partial: {len(errors)} problems reported above, {lost} published numbers not "
              "imported; everything else imported (exit status 1)", file=sys.stderr)  # fmt: skip
    files = importer.render_files(imports)
    total = sum(len(gi.criteria) for gi in imports)
    generated = {nb.board: nb for gi in imports for nb in gi.generated}
    if args.check:
        diffs = importer.differences(files, [gi.name for gi in imports])
        for nb in generated.values():
            p = paths.boards() / f"{nb.board}.yaml"
            if not p.exists():
                diffs.append(f"missing: {p} (the generated profile of a new board)")
        for d in diffs:
            print(f"perfgate import --check: {d}", file=sys.stderr)
        if diffs:
            print(
                f"{len(diffs)} threshold files differ from the guides: run `python -m perfgate import`", file=sys.stderr
            )
        else:
            print(f"{len(files)} threshold files ({total} criteria) match the guides")
        return 1 if diffs or errors else 0
    if paths.installed():  # the package's own data is not the place for a user's thresholds
        raise PerfgateError(
            f"perfgate import writes variables/thresholds/ of a checkout, not of the installed package "
            f"({paths.variables()}): run it in a clone of perfgate, or set PERFGATE_ROOT to one (--check only reads)"
        )
    written = [p for nb in generated.values() if (p := newboards.write(nb, paths.boards()))]
    for p in written:
        print(f"new board: {p.stem}: generated profile {p}")
    written += importer.write_files(imports)
    print(f"{total} criteria in {len(files)} threshold files; {len(written)} written or removed")
    return 1 if errors else 0
