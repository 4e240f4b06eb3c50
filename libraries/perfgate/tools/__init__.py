"""Parsers for every workload tool, one card each.

Each tool is a module perfgate.tools.<name> that ends with `CARD = Card(...)` (perfgate.tools.card): the tool's
name, the binaries the board runs for it, and its parser:
    parse(text: str, command: str | None = None) -> dict[str, float]
        the metrics in the guides' names; raises perfgate.errors.ParseError (with a line number when it can)
        on output it does not recognise. Never returns zeros for what it did not find.
    warnings(text: str, command: str | None = None) -> list[str]   (optional)
        what a reader of the numbers must be told although they parsed (openssl speed without -elapsed).
`TOOLS` (the tool names) and `binaries()` (program name -> tool) are read from the cards: adding a tool is adding
its module.

What the simulated board prints for each tool lives apart, in perfgate.sim.tools.<name>: nothing here imports the
simulator (tests/sim/test_sim_wall.py).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NOT_TOOLS = frozenset({"card", "common"})  # modules of the package that are no tool


@cache
def cards() -> dict[str, Card]:
    """Every tool's card, by tool name, in the order of their modules' names."""
    out: dict[str, Card] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name in NOT_TOOLS or info.name.startswith("_"):
            continue
        card = getattr(importlib.import_module(f"{__name__}.{info.name}"), "CARD", None)
        if not isinstance(card, Card):
            raise TypeError(f"perfgate/tools/{info.name}.py declares no CARD = Card(...)")
        if card.name.replace("-", "_") != info.name:
            raise TypeError(f"perfgate/tools/{info.name}.py: its card is named {card.name!r}, not after its module")
        out[card.name] = card
    return out


def binaries() -> dict[str, str]:
    """Program name -> the tool whose card declares it."""
    return {b: card.name for card in cards().values() for b in card.binaries}


def __getattr__(name: str) -> object:  # TOOLS: read from the cards when first asked for
    if name == "TOOLS":
        return list(cards())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def card(tool: str) -> Card:
    found = cards().get(tool)
    if found is None:
        raise ParseError(f"unknown tool {tool!r}; known tools: {', '.join(cards())}")
    return found


def module(tool: str) -> ModuleType:
    """The tool's module (where its card is declared, with what else it offers: `keys_for`...)."""
    return importlib.import_module(card(tool).parse.__module__)


def parse(tool: str, text: str, command: str | None = None) -> dict[str, float]:
    return card(tool).parse(text, command=command)


def warnings(tool: str, text: str, command: str | None = None) -> list[str]:
    """The parser's warnings about an output it did read (none for a tool that declares no `warnings`)."""
    check = card(tool).warnings
    return list(check(text, command=command)) if check else []
