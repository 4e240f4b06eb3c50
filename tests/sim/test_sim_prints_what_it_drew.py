"""The simulated board prints the value perfgate.sim.values drew for a criterion as it is, to the tool's own print
precision: all of a row's noise is in that draw (its class, boots, tails). The renderers once added a 1 % jitter of
their own on top (sd 0.58 %), so lat_ops, NBench and Linpack rows (0.3-0.5 % on real boards) strayed 0.7-0.8 % end to
end. Each rendered output goes through the tool's real parser (perfgate.tools)."""

from __future__ import annotations

import random

import pytest

from perfgate import criteria
from perfgate import tools as parsers
from perfgate.sim import data as sim_data
from perfgate.sim import faults as sim_faults
from perfgate.sim import tools
from perfgate.sim.answers import Answers

BOARD = "am62xx_sk"


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


@pytest.mark.parametrize("tool", ["lmbench", "nbench", "linpack", "coremark-pro", "multibench", "fio"])
def test_what_the_board_prints_is_what_was_drawn(tool: str) -> None:
    data = sim_data.load(BOARD, sim_faults.parse(""), release=criteria.default_release(BOARD))
    answers = Answers(data, random.Random(1))
    checked = 0
    for answer in list(answers._index.values()):
        if answer.tool != tool:
            continue
        drawn = {k: v * 1.0123 for k, v in answer.values.items()}  # a draw: anything but the published value
        text = tools.render(tool, answer.command, drawn, random.Random(checked))
        parsed = parsers.parse(tool, text, answer.command)
        for key, value in drawn.items():
            if key not in parsed:
                continue
            # the tool's print precision: the parsed figure as the text shows it
            shown = next((w for w in text.replace(",", " ").split() if w.replace(".", "", 1).isdigit()
                          and abs(float(w) - parsed[key]) < 1e-9 * max(abs(parsed[key]), 1)), "")  # fmt: skip
            step = 10.0 ** -_decimals(shown) if shown else abs(value) * 1e-3
            assert abs(parsed[key] - value) <= step / 2 + 1e-9 * abs(value), (answer.command, key, value, parsed[key])
            checked += 1
    assert checked >= 1, f"{tool}: nothing checked"
