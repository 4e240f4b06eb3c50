"""`python -m perfgate parse <tool> <file> [--command "..."]`: print the metrics parsed from a raw workload output as a
JSON object `{"<guide metric name>": <number>, ...}`.

Some outputs are named by the command that produced them (LMBench's `bw_mem 1M rd` prints only `1.05 1301.12`; the
CoreMark-PRO contexts come from `XCMD='-c2'`): give it with --command, as the gate's evidence index records it
(results/<board>/<run>/raw/<suite>/index.tsv). `-` reads standard input. Output the parser does not recognise exits
2 with the file, the line and the reason. What the reader of the numbers must know although they parsed (openssl
speed without -elapsed) is printed on standard error as `perfgate parse: warning: <file>: ...`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from perfgate import tools
from perfgate.errors import ParseError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("tool", choices=tools.TOOLS, metavar="tool", help="one of: " + ", ".join(tools.TOOLS))
    parser.add_argument("file", help="the raw output (stdout and stderr together); - for standard input")
    parser.add_argument(
        "--command", dest="tool_command", default=None, help="the command line that produced the output"
    )


def read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    p = Path(path)
    if not p.is_file():
        raise ParseError("no such file", path)
    return p.read_text(encoding="utf-8", errors="replace")


def run(args: argparse.Namespace) -> int:
    text = read(args.file)
    try:
        metrics = tools.parse(args.tool, text, command=args.tool_command)
    except ModuleNotFoundError as e:
        raise ParseError(f"perfgate has no parser for {args.tool!r} yet ({e.name})", args.file) from None
    except ParseError as e:
        if e.path:
            raise
        message = re.sub(r"^line \d+: ", "", e.message)
        line = e.line
        if line is None:  # what it expected is nowhere: it read to the end of the output
            line = max(1, len(text.splitlines()))
            message += f" (read to the end, line {line})" if text.strip() else " (the output is empty)"
        raise ParseError(f"{args.tool}: {message}", "<stdin>" if args.file == "-" else args.file, line) from None
    where = "<stdin>" if args.file == "-" else args.file
    for warning in tools.warnings(args.tool, text, command=args.tool_command):
        print(f"perfgate parse: warning: {where}: {warning}", file=sys.stderr)
    json.dump(metrics, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0
