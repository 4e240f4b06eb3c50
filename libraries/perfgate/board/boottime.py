"""Boot-time capture: boot the board N times through the strategy and return the console of each boot with host-side
timestamps per chunk, in the format perfgate.tools.boot reads (grabserial -t -d style, with a header)."""

from __future__ import annotations

import time

from perfgate.board.commands import Commands
from perfgate.board.strategy import Board


def timed_boot(board: Board, variant: str) -> tuple[float, int, int, int]:
    """Power-cycle and boot once (default: autoboot to the login prompt; init_sh: stop autoboot, set the boot
    arguments at the U-Boot prompt, boot to the shell prompt). Returns (host start time, console offsets: boot,
    kernel, prompt)."""
    t0 = time.monotonic()
    since = board.power_cycle()
    if variant == "init_sh":
        board.stop_autoboot(since)
        commands = Commands(board)
        for cmd in board.traits.init_sh_setup:
            commands.uboot_command(board.traits.fill(cmd))
        kstart, kend = board.boot("init_sh")
    else:
        board.wait_autoboot(since, booting=True)
        kstart, kend = board.boot("default", since=since)
    return t0, since, kstart, kend


def capture(board: Board, variant: str, cycles: int) -> str:
    """default = power-cycle and autoboot to the login prompt; init_sh = stop autoboot, set the boot arguments, boot
    to the shell prompt. `time-scale` = the virtual board's speed. A failed cycle is retried once after a power-cycle
    when the lab can cycle the power."""
    t = board.traits
    end_marker = t.sh_prompt if variant == "init_sh" else t.login_prompt
    console = board.console
    body = []
    markers = []
    for cycle in range(1, cycles + 1):
        try:
            t0, since, kstart, kend = timed_boot(board, variant)
        except AssertionError as first:
            if not board.power.can_cycle:
                raise
            board.log(f"boot cycle {cycle} failed ({first}); power-cycling and retrying it once")
            try:
                t0, since, kstart, kend = timed_boot(board, variant)
            except AssertionError as second:
                raise type(second)(f"{second} (also before a power-cycle and one retry: {first})") from None
        end = console.text().find("\n", kend)
        end = end if end >= 0 else console.mark()
        body.append(f"# cycle {cycle}")
        body.append(console.timestamped(since, end, t0))
        markers.append(board.kernel_marker)
        secs = (console.time_at(kend) - console.time_at(kstart)) * board.speed
        board.log(f"boot cycle {cycle}/{cycles} ({variant}): {secs:.3f} s from `{board.kernel_marker}` to the prompt")
    if len(set(markers)) > 1:
        raise AssertionError(f"the kernel start marker changed between boot cycles ({', '.join(markers)}): "
                             "boot times measured from different points cannot be averaged")  # fmt: skip
    header = [
        f"# perfgate boot capture: board={board.name} lab={board.lab.name} variant={variant} cycles={cycles}",
        f"# start: {markers[0]}",
        f"# end: {t.fill(end_marker)}",
        f"# time-scale: {board.speed:g}",
    ]
    if markers[0] != t.kernel_start[0]:
        header.append(f"# no `{t.kernel_start[0]}` on this board: boot time is measured from `{markers[0]}`")
    if board.speed != 1:
        header.append(f"# LAB={board.lab.name} runs {board.speed:g}x faster than real time: host seconds below are "
                      f"multiplied by {board.speed:g}")  # fmt: skip
    return "\n".join(header + body) + "\n"
