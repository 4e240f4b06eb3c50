"""Parsers (and the simulated board's renderers) for every workload tool.

Each tool is a module perfgate.tools.<name> with:
    parse(text: str, command: str | None = None) -> dict[str, float]
        the metrics in the guides' names; raises perfgate.errors.ParseError (with a line number when it can)
        on output it does not recognise. Never returns zeros for what it did not find.
    render(command: str, values: dict[str, float], rng: random.Random) -> str
        what the real tool prints for `command`, with the given metrics (parser names) drawn around `values`;
        used only by the simulated board.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

from perfgate.errors import ParseError

TOOLS = [
    "lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark-pro", "multibench",
    "cyclictest", "netperf", "iperf", "iperf3", "fio", "openssl", "glmark2", "alsa", "uboot", "boot",
    "gfxbench", "glbenchmark", "gstreamer", "modetest", "v4l2", "power",
]  # fmt: skip


def module(tool: str) -> ModuleType:
    if tool not in TOOLS:
        raise ParseError(f"unknown tool {tool!r}; known tools: {', '.join(TOOLS)}")
    return importlib.import_module(f"perfgate.tools.{tool.replace('-', '_')}")


def parse(tool: str, text: str, command: str | None = None) -> dict[str, float]:
    return module(tool).parse(text, command=command)


def render(tool: str, command: str, values: dict[str, float], rng: random.Random | None = None) -> str:
    return module(tool).render(command, values, rng or random.Random())
