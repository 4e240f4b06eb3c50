"""ip and ethtool: the board's interfaces as perfgate.sim.interfaces answers them from the board and lab data."""

from __future__ import annotations

from perfgate.sim import interfaces as sim_interfaces
from perfgate.sim.programs.base import Out, Shell, program


async def _interface_tool(answer: tuple[str, str, int], out: Out) -> int:
    """Write what sim.interfaces answered for `ip` or `ethtool` (stdout, stderr, exit status)."""
    text, err, status = answer
    if text:
        await out.write(text)
    if err:
        await out.write(err, True)
    return status


@program("ip")
async def _ip(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    return await _interface_tool(sim_interfaces.ip(args, s.board.data.profile, s.board.data.lab), out)


@program("ethtool")
async def _ethtool(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    answer = sim_interfaces.ethtool(args, s.board.data.profile, s.board.data.lab)
    if answer[2] < 0:  # only `ethtool -i` is answered on its own (pacing runs inside an answered command line)
        await out.write("sh: ethtool: not found\n", True)
        return 127
    return await _interface_tool(answer, out)
