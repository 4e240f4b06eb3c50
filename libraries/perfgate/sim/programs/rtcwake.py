"""rtcwake: set the RTC alarm, say so like rtcwake does, and suspend until it rings."""

from __future__ import annotations

import asyncio
import time

from perfgate.sim.programs.base import Out, Shell, program


@program("rtcwake")
async def _rtcwake(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    """Set the RTC alarm, say so like rtcwake does, and suspend (`-m mem|standby|freeze`) until it rings."""
    secs = float(args[args.index("-s") + 1]) if "-s" in args and args.index("-s") + 1 < len(args) else 0.0
    mode = args[args.index("-m") + 1] if "-m" in args and args.index("-m") + 1 < len(args) else "standby"
    await out.write(f'rtcwake: wakeup from "{mode}" using /dev/rtc0 at {time.strftime("%a %b %d %H:%M:%S %Y")}\n')
    if mode in ("mem", "standby", "freeze"):
        await s.board.enter_sleep(mode, secs)
    else:
        await asyncio.sleep(min(secs / s.board.speed, s.board.max_wait))
    return 0
