"""What each workload tool prints on the simulated board.

One module per tool, perfgate.sim.tools.<tool>, beside the tool's parser perfgate.tools.<tool>:
    render(command: str, values: dict[str, float], rng: random.Random) -> str
        what the real tool prints for `command`, with the given metrics (parser names) drawn around `values`.

The renderers live here, and not beside the parsers, so that nothing the gate runs against a real board (planning,
parsing, judging) can depend on what the simulator prints: perfgate.sim may import the judge, never the reverse
(tests/sim/test_sim_wall.py).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

from perfgate.tools import TOOLS
from perfgate.tools import module as parser_module


def module(tool: str) -> ModuleType:
    parser_module(tool)  # an unknown tool is named the same way for the sim as for the parser
    return importlib.import_module(f"perfgate.sim.tools.{tool.replace('-', '_')}")


def printed(values: dict[str, float], key: str, default: float, rng: random.Random, jitter: float = 0.01) -> float:
    """What the board prints for `key`: the value perfgate.sim.values drew for it as it is (all its noise is there: a
    jitter added again made a 0.5 % row stray 0.77 %), else `default` within +-`jitter` (a figure no criterion
    publishes)."""
    if key in values:
        return values[key]
    return default * (1 + rng.uniform(-jitter, jitter))


def render(tool: str, command: str, values: dict[str, float], rng: random.Random | None = None) -> str:
    return module(tool).render(command, values, rng or random.Random())


__all__ = ["TOOLS", "module", "printed", "render"]
