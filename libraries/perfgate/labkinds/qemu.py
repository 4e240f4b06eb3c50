"""`kind: qemu`: the QEMU arm64 board (`python -m perfgate qemu serve`, the lab's `start:`; its `qemu:` and `image:`
data are perfgate.qemu.recipe's), started and stopped by the gate."""

from __future__ import annotations

from perfgate.labkinds.base import LabFile, register
from perfgate.labkinds.console import ConsoleKind


@register
class Qemu(ConsoleKind):
    name = "qemu"
    order = 1

    def banner(self, lab: LabFile) -> str | None:
        return f"LAB={lab.name}: QEMU virtual board, not hardware" if lab.virtual else None
