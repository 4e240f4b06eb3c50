"""The power meter (the `power` tool: INA read-outs of the board's rails) on a board that can sleep: awake, Linux
running draws far more than in any low-power mode."""

from __future__ import annotations

import dataclasses

from perfgate.sim.answers import Answer
from perfgate.sim.programs.base import answer_hook
from perfgate.sim.shared import Board

AWAKE_POWER = 10.0  # the INA read-out of an awake board, times the mode's rails


@answer_hook("power")
def awake_rails(answer: Answer, board: Board) -> Answer:
    """The rails of a board that can sleep but is awake (constructed: the factor only has to make a reading taken
    too early fail)."""
    if board.suspend is not None and board.asleep is None:
        return dataclasses.replace(answer, values={k: v * AWAKE_POWER for k, v in answer.values.items()})
    return answer
