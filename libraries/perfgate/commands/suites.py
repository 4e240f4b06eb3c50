"""`perfgate suites [suite ...]`: where the gate's Robot suites are, installed or in a checkout.

`robot -v BOARD:am62xx_sk $(perfgate suites)` runs the whole gate from any directory; `perfgate suites stream`
prints one suite file's path (`robot -v BOARD:am62xx_sk $(perfgate suites stream)`)."""

from __future__ import annotations

import argparse

from perfgate import paths
from perfgate.errors import PerfgateError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("suite", nargs="*", help="a suite's name (stream, openssl, ...): print its file instead")


def files() -> dict[str, str]:
    """Suite name -> its .robot file (the suites directory's __init__.robot is not a suite)."""
    d = paths.suites()
    return {p.stem: str(p) for p in sorted(d.rglob("*.robot")) if p.stem != "__init__"}


def run(args: argparse.Namespace) -> int:
    d = paths.suites()
    if not (d / "__init__.robot").is_file():
        raise PerfgateError(f"no suites in {d}: the package was installed without its suites (reinstall perfgate)")
    if not args.suite:
        print(d)
        return 0
    known = files()
    unknown = [s for s in args.suite if s not in known]
    if unknown:
        raise PerfgateError(f"unknown suite {', '.join(map(repr, unknown))}; known suites: {', '.join(known)}")
    for s in args.suite:
        print(known[s])
    return 0
