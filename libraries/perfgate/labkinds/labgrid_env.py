"""`kind: labgrid-env`: the user's own labgrid environment file (the one their pytest-labgrid tests use). The lab's
`labgrid_env:` mapping is checked by perfgate.board.lab_labgrid_env; `start` activates the target's console and
power drivers in this process (perfgate.board.labgrid_env); a target with no power driver: the lab's `power`."""

from __future__ import annotations

from collections.abc import Callable

from perfgate.board import lab_labgrid_env
from perfgate.errors import PerfgateError
from perfgate.labkinds.base import LabFile, Opening, register
from perfgate.labkinds.console import ConsoleKind, Reach


@register
class LabgridEnvKind(ConsoleKind):
    name = lab_labgrid_env.KIND
    keys = (lab_labgrid_env.KEY,)
    takes = "takes its board from a labgrid environment file"
    hardware = True
    own_console = False
    order = 4

    def validate(self, lab: LabFile) -> None:
        lab_labgrid_env.validate(lab)

    def check(self, lab: LabFile, command_problem: Callable[[object], str | None],
              resolves: Callable[[str, tuple[str, ...]], None]) -> list[PerfgateError]:  # fmt: skip
        """The environment file, its target, its devices and commands: nothing activated."""
        from perfgate.board import labgrid_env

        return list(labgrid_env.check(lab, command_problem))

    def reach(self, opening: Opening) -> Reach:
        from perfgate.board.labgrid_env import LabgridEnv

        try:
            env = LabgridEnv.from_lab(opening.lab)
        except PerfgateError as e:
            raise AssertionError(str(e)) from None
        return Reach(console=lambda serial: env.console(int(serial.get("baud", 115200)), opening.transcript),
                     power=env.power, closers=[env.close])  # fmt: skip
