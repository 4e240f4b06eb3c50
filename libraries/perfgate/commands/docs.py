"""`perfgate docs [topic] [--path]`: the gate's documentation, from a checkout or an installed package.

No topic: every topic (docs/<topic>.md, and the notes in docs/notes/ as notes/<name>) with its title and file.
A topic: its text (`--path`: only its file's path, to open it elsewhere). The topics are the files, so a document
added to docs/ is a topic at once; the README names the ones to start with (labs: every key of a lab file)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from perfgate import paths
from perfgate.errors import PerfgateError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("topic", nargs="?", help="a topic (labs, lava, squad, ci, custom-board, architecture, ...)")
    parser.add_argument("--path", action="store_true", help="print the topic's file (or the docs folder) only")


def topics() -> dict[str, Path]:
    """Topic -> its file: docs/<topic>.md, then docs/notes/<name>.md as notes/<name>."""
    d = paths.docs()
    found = {p.stem: p for p in sorted(d.glob("*.md"))}
    found |= {f"notes/{p.stem}": p for p in sorted((d / "notes").glob("*.md"))}
    return found


def title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return ""


def run(args: argparse.Namespace) -> int:
    d = paths.docs()
    known = topics()
    if not known:
        raise PerfgateError(f"no documentation in {d}: the package was installed without docs/ (reinstall perfgate)")
    if not args.topic:
        if args.path:
            print(d)
            return 0
        width = max(map(len, known))
        for name, path in known.items():
            print(f"{name:<{width}}  {title(path)}  ({path})")
        return 0
    topic = args.topic.removesuffix(".md")
    if topic not in known:
        raise PerfgateError(f"no topic {args.topic!r}; topics: {', '.join(known)}")
    if args.path:
        print(known[topic])
    else:
        sys.stdout.write(known[topic].read_text(encoding="utf-8"))
    return 0
