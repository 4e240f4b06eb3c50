"""Bring-up over a real pseudo-terminal against consoles that reproduce what real TI boards print.

Every console here is CONSTRUCTED: it reproduces a trait described in issue 11 ("Real boards, real output"), which
was reported from consoles captured on real TI boards by other people; no byte of it is a capture. Each test names the
trait it reproduces. The gate's side is the real code: perfgate.board.console.Console on the pty's slave path (like a
USB-serial adapter), the real drivers and strategy, and power by a real shell command (the lab's power driver).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from perfgate.board import boottime
from perfgate.board.commands import Commands
from perfgate.board.console import Console, ConsoleSilent
from perfgate.board.lab import load
from perfgate.board.strategy import Board, BringUpError
from perfgate.tools import boot as boot_tool
from ptyboard import PoweredBoard, PtyBoard, write_lab

ESC = "\x1b"
# systemd (v256+) wraps its output in OSC 3008 context sequences; shells save/restore the cursor around prompts
OSC_3008 = f"{ESC}]3008;start=1b3c4d;type=boot;user=root{ESC}\\"
GPL_NOTICE = (
    "If you do not wish to distribute GPL-3.0 components please remove the above packages prior to distribution."
)


class TraitBoard(PoweredBoard):
    """A board on the master side of a pty that prints what it is told to (CR LF line ends, as a real UART)."""

    def __init__(self, trait: dict) -> None:
        super().__init__()
        self.t = {
            "uboot": "\nU-Boot SPL 2025.01 (constructed)\nU-Boot 2025.01\n",
            "countdown": "backspace",  # backspace | cr-esck | none (Falcon mode, an SBL: no autoboot line)
            "autoboot": "Hit any key to stop autoboot",
            "kernel_start": True,
            "login": "am64xx-evm login: ",
            "login_needs_poke": False,
            "prompt": "root@am64xx-evm:~# ",
            "after_login": "",
            "hang_after_uboot": False,
            **trait,
        }
        self.pokes = 0

    def power_on(self) -> None:
        t = self.t
        self.send(t["uboot"])
        if t["hang_after_uboot"]:
            return
        if t["countdown"] != "none":
            if self.countdown():
                self.send("\n=> ")
                while (line := self.readline()) is not None:
                    if line == "boot":
                        break
                    self.send("=> ")
                else:
                    return
            if t["kernel_start"]:
                self.send("Starting kernel ...\n\n")
        self.send("[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd034]\n")
        self.send(f"[    1.100000] systemd[1]: Started Journal Service.\n{OSC_3008}")
        if t["login_needs_poke"]:  # the prompt went out before anyone listened: only a line end brings it back
            self.send("[    2.000000] systemd[1]: Started Serial Getty on ttyS2.\n")
            while (line := self.readline(echo=False)) is not None and not line.strip():
                self.pokes += 1
                break
            if line is None:
                return
            self.send("\n")
        self.send(t["login"])
        while (user := self.readline()) is not None:
            if user.strip():
                break
            self.pokes += 1
            self.send("\n" + t["login"])
        else:
            return
        self.send(t["after_login"])
        self.shell()

    def countdown(self) -> bool:
        """The autoboot line and its countdown (redrawn with backspaces, or with CR and ESC[K); True if stopped."""
        t = self.t
        for n in (2, 1, 0):
            if t["countdown"] == "cr-esck":
                self.send(f"\r{ESC}[K{t['autoboot']}: {n} ")
            else:
                self.send(f"{t['autoboot']}: {n} " if n == 2 else f"\b\b\b {n} ")
            if self.key_within(0.3 if n < 2 else 0):  # the first redraw follows at once
                return True
        self.send("\n")
        return False

    def prompt(self) -> None:
        self.send(f"{OSC_3008}{ESC}7{self.t['prompt']}{ESC}8{ESC}[6n")

    def shell(self) -> None:
        self.prompt()
        while (line := self.readline()) is not None:
            for part in [p.strip() for p in line.split(";")]:
                m = re.fullmatch(r'echo PG""(END-\d+-)\$\?', part) or re.fullmatch(r'echo PG""(READY-\d+)', part)
                if m:
                    self.send(f"PG{m.group(1)}{'0' if m.group(1).startswith('END') else ''}\n")
                elif part == "uname -r":
                    self.send("6.12.17-ti\n")
                elif part == "ip -4 -o addr show":
                    self.send("1: lo    inet 127.0.0.1/8 scope host lo\n2: eth0    inet 192.168.10.21/24 brd x\n")
                elif part:
                    self.send(f"-sh: {part.split()[0]}: not found\n")
            self.prompt()


PROFILE = {
    "name": "am64xx_evm",
    "hostname": "am64xx-evm",
    "network": True,  # the board has one; the lab (`ssh: none`) reaches it over its console only
    "uboot": {"prompt": "=> ", "autoboot": ["Hit any key to stop autoboot", "Press SPACE to abort autoboot"]},
    "linux": {
        "kernel_start": ["Starting kernel ...", "Booting Linux on physical CPU"],
        "prompt": "root@{hostname}:~# ",
    },
    "timeouts": {"autoboot": 4, "uboot_command": 3, "boot": 8, "login": 3, "power": 5, "poke": 0.4, "silence": 1.5},
}


@pytest.fixture
def rig(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    started: list[tuple[TraitBoard, Console]] = []

    def make(trait: dict | None = None, profile: dict | None = None) -> tuple[Board, TraitBoard]:
        tb = TraitBoard(trait or {})
        power_file = tmp_path / f"power-{len(started)}"
        write_lab(tmp_path, {"name": "traits", "kind": "hardware", "serial": {"port": tb.path}, "ssh": "none",
                             "power": {"cycle": f"touch {power_file}"}})  # fmt: skip
        console = tb.plug_in(power_file, tmp_path / "serial.log")  # the lab's power command touches the file
        started.append((tb, console))
        messages: list[str] = []
        board = Board("am64xx_evm", profile or PROFILE, load("traits", "am64xx_evm"), console, log=messages.append)
        board.messages = messages  # type: ignore[attr-defined]
        return board, tb

    yield make
    for tb, console in started:
        console.close()
        tb.close()


def reach_shell(board: Board) -> None:
    board.transition("shell")
    assert board.state == "shell"
    out, status = Commands(board).run("uname -r", 3)
    assert (out, status) == ("6.12.17-ti\n", 0)


@pytest.mark.parametrize(
    "login",
    [
        f"am64xx-evm login: {GPL_NOTICE}\n",  # Arago 2025: the notice on the same line as the getty prompt
        f"am64xx-evm login: {'*' * 72}\n{GPL_NOTICE}\n",  # ... or a row of `*`, then the notice
        "am64xx-evm login: [    9.876543] remoteproc remoteproc0: powering up 5000000.m4fss\n",  # a kernel message
    ],
    ids=["gpl-notice", "stars-then-notice", "kernel-message"],
)
def test_login_prompt_with_text_after_it(rig, login):
    """Trait: text follows `login:` on the same line (Arago 2025 GPL-3.0 notice; kernel messages glued after it)."""
    board, tb = rig({"login": login})
    reach_shell(board)
    assert tb.typed[0] == "root"  # the user name went to the getty prompt at once


def test_quiet_console_gets_line_ends_until_the_login_prompt_shows(rig):
    """Trait: the login prompt was printed before the gate listened (or lost in a notice): a line end brings it."""
    board, tb = rig({"login_needs_poke": True})
    t0 = time.monotonic()
    reach_shell(board)
    assert tb.pokes >= 1
    assert time.monotonic() - t0 < 6  # far less than the boot timeout (8 s) plus the login


@pytest.mark.parametrize("countdown", ["backspace", "cr-esck"])
def test_autoboot_countdown_redrawn_and_prompt_elsewhere_with_escapes(rig, tmp_path, countdown):
    """Traits: the countdown redrawn with backspaces or with CR and ESC[K; CR LF line ends; systemd's OSC 3008 and
    ESC 7 / ESC 8 around a shell prompt in another directory, with a kernel message glued after the prompt."""
    prompt = "root@am64xx-evm:~/.cache/x# "
    board, _ = rig({"countdown": countdown, "prompt": prompt + "[   12.345678] random: crng init done"})
    board.transition("uboot")
    assert board.state == "uboot"
    reach_shell(board)
    clean = board.console.text()
    assert "\x1b" not in clean and "\r" not in clean and "\b" not in clean
    raw = (tmp_path / "serial.log").read_bytes()  # the transcript keeps the raw bytes
    assert b"\x1b]3008;" in raw and b"\x1b7root@am64xx-evm:~/.cache/x# " in raw and b"\r\n" in raw
    assert (b"\x1b[K" if countdown == "cr-esck" else b"\b\b\b 1 ") in raw


def test_beagleplay_autoboot_string(rig):
    """Trait: U-Boot on BeaglePlay says `Press SPACE to abort autoboot`, not `Hit any key to stop autoboot`."""
    board, _ = rig({"autoboot": "Press SPACE to abort autoboot in 2 seconds"})
    board.transition("uboot")
    assert board.state == "uboot"
    reach_shell(board)


def test_falcon_board_without_autoboot_or_starting_kernel(rig):
    """Trait: a board in Falcon mode (or behind an SBL) prints no autoboot line and no `Starting kernel ...`: it
    reaches the shell, refuses U-Boot with the reason, and boot time runs from the first kernel line."""
    profile = {**PROFILE, "uboot": {**PROFILE["uboot"], "autoboot": []}}
    board, _ = rig({"countdown": "none", "kernel_start": False}, profile)
    reach_shell(board)
    with pytest.raises(BringUpError, match=r"no U-Boot autoboot line .*Falcon"):
        board.transition("uboot")
    text = boottime.capture(board, "default", 1)
    assert "# start: Booting Linux on physical CPU" in text
    assert "measured from `Booting Linux on physical CPU`" in text
    assert boot_tool.parse(text)["boot time (sec)"] >= 0
    assert any("kernel start marker: `Booting Linux on physical CPU`" in m for m in board.messages)


def test_silent_console_is_noticed_before_the_boot_timeout(rig):
    """A board that stops printing after U-Boot: the bring-up fails on the silence, well before the timeouts."""
    board, _ = rig({"hang_after_uboot": True})
    t0 = time.monotonic()
    with pytest.raises(BringUpError, match="printed nothing for"):
        board.transition("shell")
    elapsed = time.monotonic() - t0
    assert elapsed < 2 * PROFILE["timeouts"]["autoboot"]  # two tries (cycle + retry), each ended by the silence
    assert "uboot" not in board.broken and "shell" in board.broken


def test_console_silence_alone(tmp_path):
    """The console's own check: nothing at all on a real pty for `silence` seconds ends the wait early."""
    board = PtyBoard()  # not started: it says only what the test sends
    console = Console(board.path)
    console.open()
    try:
        board.send(b"U-Boot 2025.01\r\n")
        t0 = time.monotonic()
        with pytest.raises(ConsoleSilent, match="printed nothing for 1 s"):
            console.expect("Starting kernel", 10, silence=1.0)
        assert time.monotonic() - t0 < 3
    finally:
        console.close()
        board.close()


def test_console_only_lab_runs_commands_on_the_console(rig):
    """A lab with `ssh: none`: no network, no SSH; commands run on the serial console."""
    board, _ = rig()
    assert not board.networked
    reach_shell(board)
    assert board.ssh is None
    assert Path(board.console.port) == Path(board.lab.data["serial"]["port"])


def test_board_address_is_read_once_per_boot_and_reused(rig):
    """The address comes from the console once per boot; asking again (every network test does) reuses it."""
    board, tb = rig()
    reach_shell(board)
    assert {board.network.learn_address() for _ in range(5)} == {"192.168.10.21"}
    assert sum(t.startswith("ip -4 -o addr show") for t in tb.typed) == 1
    board.power_cycle()  # a new boot may bring a new address: read again
    reach_shell(board)
    assert board.network.learn_address() == "192.168.10.21"
    assert sum(t.startswith("ip -4 -o addr show") for t in tb.typed) == 2
