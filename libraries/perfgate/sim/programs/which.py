"""command -v, which, type: a program, a wrapper, a support binary or a tool the board answers (not one a fault
removed)."""

from __future__ import annotations

from perfgate.sim import answers as answers_mod
from perfgate.sim.programs.base import PROGRAMS, WRAPPER_ARGS, Out, Shell, program


@program("command", "which", "type")
async def _which(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    names = [a for a in args if not a.startswith("-")]
    status = 0
    for n in names:
        tool = s.board.answers.tool_of_binary(n)
        base = n.rsplit("/", 1)[-1]
        present = n in PROGRAMS or n in WRAPPER_ARGS or base in answers_mod.SUPPORT or tool is not None
        if tool and tool in s.board.data.faults.missing_tool:
            present = False
        if present:
            await out.write((n if "/" in n else (n if n in PROGRAMS else f"/usr/bin/{n}")) + "\n")
        else:
            status = 1
    return status
