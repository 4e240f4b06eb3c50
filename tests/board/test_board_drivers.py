"""Each board driver on its own, over a real pseudo-terminal: the U-Boot driver and the shell driver talk to a
console (perfgate.board.console.Console on the pty's slave path) with no strategy, no power and no lab.

The board side is a short script per test, CONSTRUCTED to reproduce traits described in issue 11: the autoboot
countdown redrawn with CR and ESC[K, BeaglePlay's `Press SPACE to abort autoboot`, the getty prompt followed by
Arago 2025's GPL-3.0 notice on the same line, a kernel message glued after the shell prompt, a prompt in another
directory, CR LF line ends."""

from __future__ import annotations

import re
import time

import pytest

from perfgate.board.console import Console, ConsoleTimeout
from perfgate.board.shell import CommandTimeout, ShellDriver
from perfgate.board.traits import Traits
from perfgate.board.uboot import UBootDriver
from ptyboard import PtyBoard

TRAITS = Traits.from_profile(
    {
        "hostname": "am64xx-evm",
        "uboot": {"autoboot": ["Hit any key to stop autoboot", "Press SPACE to abort autoboot"]},
        "linux": {"kernel_start": ["Starting kernel ...", "Booting Linux on physical CPU"]},
    }
)


class Pty(PtyBoard):
    """The board end of a pty: `answer(pattern, text)` rules, applied to each line the gate types."""

    def __init__(self) -> None:
        super().__init__()
        self.rules: list[tuple[re.Pattern[str], str]] = []
        self.on_key: str | None = None  # U-Boot's countdown: any key (no line end) stops it, answered with this
        self.start()

    def answer(self, pattern: str, text: str) -> None:
        self.rules.append((re.compile(pattern), text))

    def received(self) -> None:
        if self.on_key is not None and b"\r" not in self.inbuf:
            self.send(self.on_key)
            self.on_key, self.inbuf = None, b""
        super().received()

    def line(self, text: str) -> None:
        for pattern, answer in self.rules:
            found = pattern.fullmatch(text)
            if found:
                self.send(found.expand(answer))
                break


@pytest.fixture
def pty():
    p = Pty()
    console = Console(p.path)
    console.open()
    yield p, console
    console.close()
    p.close()


@pytest.mark.parametrize(
    "countdown",
    [
        "Hit any key to stop autoboot:  2 \r\x1b[KHit any key to stop autoboot:  1 ",  # CR and ESC[K
        "Press SPACE to abort autoboot in 2 seconds\b\b\b\b\b\b\b\b\b1 second ",  # BeaglePlay, backspaces
    ],
    ids=["cr-esc-k", "beagleplay"],
)
def test_uboot_driver_catches_autoboot_and_runs_a_command(pty, countdown):
    board, console = pty
    board.on_key = "\n=> "  # the key stops the countdown at the prompt
    board.answer(r"version", "U-Boot 2025.01 (constructed)\n=> ")
    uboot = UBootDriver(console, TRAITS)
    since = console.mark()
    board.send("U-Boot 2025.01\n" + countdown)
    uboot.wait_autoboot(since, 3)
    uboot.interrupt(3)
    assert uboot.command("version", 3).strip() == "U-Boot 2025.01 (constructed)"


def test_uboot_driver_names_what_it_waited_for(pty):
    _, console = pty
    with pytest.raises(ConsoleTimeout, match=r"'Hit any key to stop autoboot' or 'Press SPACE to abort autoboot'"):
        UBootDriver(console, TRAITS).wait_autoboot(console.mark(), 0.5)


def test_shell_driver_boots_logs_in_and_runs_commands(pty):
    board, console = pty
    notice = "If you do not wish to distribute GPL-3.0 components please remove the above packages."
    prompt = "\x1b7root@am64xx-evm:~/.cache/x# \x1b8[   15.000001] random: crng init done\n"
    board.answer(r"root", prompt)
    board.answer(r'echo PG""READY-(\d+)', "PGREADY-\\1\n" + prompt)
    board.answer(r'uname -r; echo PG""END-(\d+)-\$\?', "6.12.17-ti\nPGEND-\\1-0\n" + prompt)
    board.answer(r'sleep 60; echo PG""END-(\d+)-\$\?', "")
    shell = ShellDriver(console, TRAITS)
    since = console.mark()
    board.send("[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd034]\n")
    start = shell.wait_kernel(since, 3)
    assert start.text == "Booting Linux on physical CPU"  # no `Starting kernel ...`: the first kernel line
    board.send(f"\x1b]3008;start=1;type=boot\x1b\\am64xx-evm login: {notice}\n")
    shell.wait_prompt(start.end, 3)
    shell.login(3)
    assert shell.run("uname -r", 3) == ("6.12.17-ti\n", 0)
    with pytest.raises(CommandTimeout, match=r"did not finish within 0\.5 s"):
        shell.run("sleep 60", 0.5)
    deadline = time.monotonic() + 2
    while b"\x03" not in board.got and time.monotonic() < deadline:
        time.sleep(0.05)
    assert b"\x03" in board.got  # Ctrl-C gave the shell back


def test_shell_driver_pokes_a_quiet_console_for_the_login_prompt(pty):
    board, console = pty
    board.answer(r"", "am64xx-evm login: ")  # the getty prints its prompt again for an empty line
    shell = ShellDriver(console, TRAITS)
    t0 = time.monotonic()
    shell.wait_prompt(console.mark(), 5, poke=0.3)
    assert time.monotonic() - t0 < 2 and b"\r" in board.got
