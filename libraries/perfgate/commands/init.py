"""`perfgate init <dir> [--from LAB]`: a directory for a user's own lab: a starting lab file (a copy of one of the
gate's example labs, named after the directory) and a README that says what to edit and how to run the gate on it.
The README's text is variables/init/README.md (placeholders $lab, $lab_file, $example)."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path
from string import Template

from perfgate import paths
from perfgate.board import lab as labs
from perfgate.errors import PerfgateError

DEFAULT_EXAMPLE = "example-ser2net"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="the directory to write (created if missing)")
    parser.add_argument("--from", dest="example", default=DEFAULT_EXAMPLE,
                        help=f"the lab to start from (default {DEFAULT_EXAMPLE}; see variables/labs/)")  # fmt: skip
    parser.add_argument("--force", action="store_true", help="overwrite lab.yaml and README.md if they exist")


def lab_text(example: Path, name: str) -> str:
    """The example lab's text with its `name:` set to the new lab's, under a header of its own in place of the
    example's leading comment (which tells how to copy it); the other comments and the layout kept."""
    lines = example.read_text(encoding="utf-8").splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    text = "".join(lines)
    header = (
        f"# Lab {name}: written by `perfgate init` from the gate's example lab {example.stem}; edit every key for\n"
        "# your bench (README.md beside this file says how to check and run it).\n"
    )
    new, n = re.subn(r"(?m)^name:.*$", f"name: {name}", text, count=1)
    return header + (new if n else f"name: {name}\n{text}")


def run(args: argparse.Namespace) -> int:
    d: Path = args.dir
    example = labs.lab_path(args.example)  # an unknown lab names the known ones
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", d.resolve().name).strip("-") or "my-lab"
    lab_file, readme = d / "lab.yaml", d / "README.md"
    existing = [str(p) for p in (lab_file, readme) if p.exists()]
    if existing and not args.force:
        raise PerfgateError(f"{', '.join(existing)} already exist(s); nothing written (--force overwrites)")
    template = paths.variables() / "init" / "README.md"
    if not template.is_file():
        raise PerfgateError(f"no README template at {template}")
    d.mkdir(parents=True, exist_ok=True)
    lab_file.write_text(lab_text(example, name), encoding="utf-8")
    quoted = shlex.quote(str(lab_file.resolve()))  # the README's commands work from any directory, any name
    text = Template(template.read_text(encoding="utf-8")).substitute(lab=name, lab_file=quoted, example=example.stem)
    readme.write_text(text, encoding="utf-8")
    print(f"wrote {lab_file} (from {example}) and {readme}")
    print(f"next: edit {lab_file}, then: robot -v BOARD:<board> -v LAB:{quoted} $(perfgate suites)")
    return 0
