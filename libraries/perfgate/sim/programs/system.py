"""The system's utilities as the board answers them from its data: uname, hostname, nproc, uptime, date, id,
sleep (in board time), dmesg (the kernel log), reboot, poweroff."""

from __future__ import annotations

import asyncio
import re
import time

from perfgate.sim.programs.base import Out, PowerOff, Reboot, Shell, program


@program("uname")
async def _uname(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    d = s.board.data
    rel = d.linux["kernel_release"]
    full = (f"Linux {d.hostname} {rel} #1 SMP PREEMPT Thu Jan  1 00:00:00 UTC 2024 aarch64 GNU/Linux"
            f" (perfgate simulated {d.board})")  # fmt: skip
    answer = {"-r": rel, "-n": d.hostname, "-m": "aarch64", "-s": "Linux", "-a": full}.get(args[0] if args else "-s")
    await out.write((answer or full) + "\n")
    return 0


@program("hostname")
async def _hostname(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    await out.write(("127.0.0.1 " if args[:1] == ["-I"] else s.board.data.hostname) + "\n")
    return 0


@program("nproc")
async def _nproc(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    await out.write(f"{s.board.data.profile.get('cpus', 2)}\n")
    return 0


@program("uptime")
async def _uptime(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    up = (time.monotonic() - s.board.booted_at) * s.board.speed
    await out.write(
        f" 00:{int(up // 60) % 60:02d}:{int(up) % 60:02d} up {int(up // 60)} min,  load average: 0.08, 0.03, 0.01\n"
    )
    return 0


@program("date")
async def _date(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    fmt = next((a[1:] for a in args if a.startswith("+")), None)
    await out.write((time.strftime(fmt) if fmt else time.strftime("%a %b %d %H:%M:%S UTC %Y")) + "\n")
    return 0


@program("id", "whoami")
async def _id(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    user = s.board.data.linux["user"]
    uid = 0 if user == "root" else 1000
    await out.write(f"uid={uid}({user}) gid={uid}({user})\n" if s.current == "id" else f"{user}\n")
    return 0


@program("sleep")
async def _sleep(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    try:
        secs = float(re.sub(r"[smhd]$", "", args[0])) if args else 0
    except ValueError:
        await out.write(f"sleep: invalid number '{args[0]}'\n", True)
        return 1
    await asyncio.sleep(min(secs / s.board.speed, s.board.max_wait * 2))
    return 0


@program("dmesg")
async def _dmesg(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    if args[:1] in (["-n"], ["--console-level"]) or any(a.startswith(("-n", "--console-level=")) for a in args):
        return 0  # sets the console loglevel: prints nothing (the simulated console shows every level)
    await out.write("".join(line + "\n" for line in s.board.dmesg))
    return 0


@program("reboot")
async def _reboot(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    raise Reboot()


@program("poweroff", "halt", "shutdown")
async def _poweroff(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    raise PowerOff()
