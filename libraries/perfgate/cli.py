"""`perfgate <command>` (the console script) or `python -m perfgate <command>`. Each command lives in
perfgate.commands.<module> (or the full module path given here: the simulated board's and the simulated PDU's own
commands live in perfgate.sim, which nothing else outside perfgate.sim may import) with `add_arguments(parser)` and
`run(args) -> int`, imported only when it is used."""

from __future__ import annotations

import argparse
import importlib
import sys

from perfgate import __version__
from perfgate.errors import PerfgateError

COMMANDS: dict[str, tuple[str, str]] = {
    "import": ("import_guides", "import the guides into variables/thresholds (--check compares)"),
    "guides": ("guides", "import every version of the guides side by side (guides history), or diff two releases"),
    "boards": ("boards", "list every board with its guide, release and criteria per suite"),
    "criteria": ("criteria", "print a board's criteria (--json)"),
    "parse": ("parse", "parse a workload's raw output into the guide's metric names (JSON)"),
    "sim": ("perfgate.sim.command", "run the simulated board (serial on a pseudo-terminal, SSH on 127.0.0.1)"),
    "sim-power": ("sim_power", "power a running simulated board on, off or cycle it"),
    "sim-pdu": ("perfgate.sim.pdu_command", "a simulated network PDU (labgrid's rest model) switching sim boards"),
    "farm-guard": ("farm_guard", "give a labgrid place back when the gate that holds it dies (started by the gate)"),
    "report": ("report", "(re)build comparison.html for a run directory"),
    "trend": ("trend", "plot a metric or a suite across a board's runs"),
    "compare": ("compare", "list what regressed or improved between two runs"),
    "ab": ("ab", "gate build B against build A on one board, their boots interleaved"),
    "bisect": ("bisect", "find the build of an ordered list (good ... bad) that brought a regression in"),
    "baseline": ("baseline", "write a board's thresholds from measured runs"),
    "publish": ("publish", "publish a finished run to a results server (publish squad <run>: SQUAD)"),
    "lab": ("lab", "check a lab file and a board in it without touching the hardware (lab check <lab>)"),
    "qemu": ("qemu", "build or start the QEMU arm64 virtual board"),
    "suites": ("suites", "print the gate's suites directory (robot -v BOARD:<b> $(perfgate suites)) or a suite's file"),
    "init": ("init", "write a starting lab file and a README for your own lab into a directory"),
    "docs": ("docs", "print the gate's documentation: a topic (labs, lava, squad, ci...), or every topic"),
}


def _prog() -> str:
    """`perfgate` when run as the console script, `python -m perfgate` otherwise (what the user typed)."""
    name = sys.argv[0].rsplit("/", 1)[-1] if sys.argv and sys.argv[0] else ""
    return "perfgate" if name == "perfgate" else "python -m perfgate"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=_prog(), description=__doc__)
    parser.add_argument("--version", action="version", version=f"perfgate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")
    argv = sys.argv[1:] if argv is None else argv
    wanted = argv[0] if argv and not argv[0].startswith("-") else None
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        if name == wanted:
            try:
                module = importlib.import_module(
                    module_name if "." in module_name else f"perfgate.commands.{module_name}"
                )
            except ModuleNotFoundError as e:
                print(f"perfgate: command {name!r} is not available: {e}", file=sys.stderr)
                return 2
            module.add_arguments(p)
            modules[name] = module
    args = parser.parse_args(argv)
    try:
        return int(modules[args.command].run(args) or 0)
    except PerfgateError as e:
        print(f"perfgate {args.command}: {e}", file=sys.stderr)
        return 2
