"""A tool's card: the one place that says what a workload tool is.

Each tool module perfgate.tools.<module> ends with `CARD = Card(...)`: the tool's name (as `perfgate parse`, a
workload's `Run.tool`, FAULTS' `missing-tool:` and variables/budget.yaml's `seconds:` name it), the binaries the
board runs for it, and its parser. The lists other parts used to keep by hand are read from the cards
(`perfgate.tools.cards()`): the tool names, the binaries the simulated board knows a tool by, the tools whose
planned seconds variables/budget.yaml may give. Planned seconds stay data, in variables/budget.yaml.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Parser = Callable[..., dict[str, float]]  # parse(text, command=None) -> {metric: value}; ParseError otherwise
Warner = Callable[..., list[str]]  # warnings(text, command=None) -> what a reader of the numbers must be told


@dataclass(frozen=True)
class Card:
    name: str  # the tool's name: `perfgate parse <name>`, Run.tool, `missing-tool:<name>`, budget.yaml seconds
    parse: Parser
    binaries: tuple[str, ...] = ()  # program names the board runs for it (the sim knows the tool by them)
    warnings: Warner | None = None

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower() or " " in self.name:
            raise ValueError(f"a tool card's name is one lower-case word, not {self.name!r}")
