"""Parsers for every workload tool.

Each tool is a module perfgate.tools.<name> with:
    parse(text: str, command: str | None = None) -> dict[str, float]
        the metrics in the guides' names; raises perfgate.errors.ParseError (with a line number when it can)
        on output it does not recognise. Never returns zeros for what it did not find.
    warnings(text: str, command: str | None = None) -> list[str]   (optional)
        what a reader of the numbers must be told although they parsed (openssl speed without -elapsed).

What the simulated board prints for each tool lives apart, in perfgate.sim.tools.<name>: nothing here imports the
simulator (tests/sim/test_sim_wall.py).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from perfgate.errors import ParseError

TOOLS = [
    "lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark-pro", "multibench",
    "cyclictest", "netperf", "iperf", "iperf3", "fio", "openssl", "glmark2", "alsa", "uboot", "boot",
    "gfxbench", "glbenchmark", "gstreamer", "modetest", "v4l2", "power", "rpmsg", "resume", "cpuload",
]  # fmt: skip


def module(tool: str) -> ModuleType:
    if tool not in TOOLS:
        raise ParseError(f"unknown tool {tool!r}; known tools: {', '.join(TOOLS)}")
    return importlib.import_module(f"perfgate.tools.{tool.replace('-', '_')}")


def parse(tool: str, text: str, command: str | None = None) -> dict[str, float]:
    return module(tool).parse(text, command=command)


def warnings(tool: str, text: str, command: str | None = None) -> list[str]:
    """The parser's warnings about an output it did read (none for a tool that declares no `warnings`)."""
    check = getattr(module(tool), "warnings", None)
    return list(check(text, command=command)) if check else []
