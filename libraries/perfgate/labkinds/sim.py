"""`kind: sim`: the simulated board (`python -m perfgate sim`, the lab's `start:`), started and stopped by the gate;
never reported as hardware (perfgate.board.lab refuses `virtual: false`)."""

from __future__ import annotations

from perfgate.labkinds.base import LabFile, register
from perfgate.labkinds.console import ConsoleKind


@register
class Sim(ConsoleKind):
    name = "sim"
    order = 0

    def banner(self, lab: LabFile) -> str | None:
        return f"LAB={lab.name}: simulated board, not hardware"
