"""A console replay over a real pseudo-terminal, from power-on to the shell, of a board whose U-Boot stops its
autoboot only for one key (CONFIG_AUTOBOOT_KEYED: `Press SPACE to abort autoboot in 2 seconds`, whose key is not
"any key") and whose login prompts have kernel messages glued after them, some of them wrapped onto continuation
lines that carry no timestamp (issue 21).

The console is CONSTRUCTED: it reproduces the traits issue 21 reports from public captures of TI and other ARM boards
(U-Boot's CONFIG_AUTOBOOT_PROMPT / AUTOBOOT_STOP_STR; the kernel's console messages printed over a getty prompt); no
byte of it is a capture. The gate's side is the real code: perfgate.board.console.Console on the pty's slave path
(as a USB-serial adapter), the real strategy and its U-Boot and shell drivers, the board data from variables/boards/
(am62xx_sk and _defaults.yaml), power by a real shell command (the lab's power driver).
"""

from __future__ import annotations

import time

import pytest

from perfgate import boards
from perfgate.board.commands import Commands
from perfgate.board.console import Console
from perfgate.board.lab import load
from perfgate.board.strategy import Board, BringUpError
from ptyboard import PoweredBoard, write_lab

# kernel messages over the getty prompt; the second is longer than the capture's terminal and wrapped by it
LOGIN = (
    "\nam62xx-evm login: [   12.345678] random: crng init done\n"
    "[   12.401234] remoteproc remoteproc0: powering up 5000000.m4fss, loading firmware am62-mcu-m4f0_0-fw from \n"
    "/lib/firmware (a message wrapped by the terminal: this line has no timestamp)\n"
    "am62xx-evm login: [   13.002345] platform 30200000.dss: Fixed dependency cycle(s) with /bus@f0000/i2c@20000000\n"
    "/sii9022@3b\n"
)
PROMPT = "root@am62xx-evm:~# "


class KeyedBoard(PoweredBoard):
    """U-Boot that stops its countdown only when its stop string was typed (anything else typed is ignored, as
    AUTOBOOT_KEYED's U-Boot does), then a kernel whose messages land on the login and shell prompts."""

    def __init__(self, autoboot: str, stop: str) -> None:
        super().__init__()
        self.autoboot, self.stop_str = autoboot, stop.encode()
        self.ignored = b""  # what the gate typed that was not the stop string
        self.stopped = 0

    def countdown(self) -> bool:
        for n in (2, 1, 0):
            self.send(f"{self.autoboot}: {n} " if n == 2 else f"\b\b\b {n} ")
            end = time.monotonic() + 0.5
            while time.monotonic() < end:
                self.fill(0.02)
                if self.stop_str in self.inbuf:
                    self.inbuf = b""
                    self.stopped += 1
                    return True
            self.ignored += self.inbuf
            self.inbuf = self.inbuf[-len(self.stop_str) + 1 :] if len(self.stop_str) > 1 else b""
        self.send("\n")
        return False

    def power_on(self) -> None:
        self.send("\nU-Boot SPL 2024.04 (constructed)\nU-Boot 2024.04-ti\nModel: Texas Instruments AM625 SK\n")
        if self.countdown():
            self.send("\n=> ")
            while (line := self.readline()) is not None:
                if line == "boot":
                    break
                self.send("=> ")
            else:
                return
        self.send("Starting kernel ...\n\n[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd034]\n")
        self.send(LOGIN)
        while (user := self.readline()) is not None and not user.strip():
            self.send("\nam62xx-evm login: ")
        if user is None:
            return
        self.send(f"{PROMPT}[   14.500000] cfg80211: failed to load regulatory.db, a message the terminal\nwrapped\n")
        while (line := self.readline()) is not None:
            for part in [p.strip() for p in line.split(";")]:
                if part.startswith('echo PG""'):
                    tag = part.removeprefix('echo PG""').replace("$?", "0")
                    self.send(f"PG{tag}\n")
                elif part == "uname -r":
                    self.send("6.6.58-ti-g05a1e5bcad5b\n")
            self.send(PROMPT)


@pytest.fixture
def rig(tmp_path, monkeypatch):
    started: list[tuple[KeyedBoard, Console]] = []

    def make(autoboot: str, stop: str, uboot: dict | None = None) -> tuple[Board, KeyedBoard]:
        profile = boards.profile("am62xx_sk")  # the real board data, defaults merged (key_names among them)
        profile["uboot"] = {**profile["uboot"], "autoboot": [autoboot.split(" in ")[0]], **(uboot or {})}
        profile["timeouts"] = {**profile["timeouts"], "autoboot": 4, "uboot_command": 3, "boot": 8, "login": 4,
                               "power": 5, "poke": 0.5, "silence": 3}  # fmt: skip
        monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
        kb = KeyedBoard(autoboot, stop)
        switch = tmp_path / f"power-{len(started)}"
        write_lab(tmp_path, {"name": "keyed", "kind": "hardware", "serial": {"port": kb.path}, "ssh": "none",
                             "power": {"cycle": f"touch {switch}"}})  # fmt: skip
        console = kb.plug_in(switch, tmp_path / "serial.log")
        started.append((kb, console))
        return Board("am62xx_sk", profile, load("keyed", "am62xx_sk"), console, log=lambda _m: None), kb

    yield make
    for kb, console in started:
        console.close()
        kb.close()


def to_uboot_then_shell(board: Board) -> None:
    board.transition("uboot")
    assert board.state == "uboot"
    board.transition("shell")
    assert board.state == "shell"
    assert Commands(board).run("uname -r", 3) == ("6.6.58-ti-g05a1e5bcad5b\n", 0)


def test_press_space_board_reaches_u_boot_and_the_shell_through_glued_and_wrapped_kernel_messages(rig):
    """`Press SPACE to abort autoboot in 2 seconds`, the lab typing Ctrl-C at an "any key" countdown
    (uboot.interrupt): the line names SPACE, so a space is typed (key_names in _defaults.yaml). The login prompts
    carry kernel messages, wrapped onto lines with no timestamp; the shell prompt too."""
    board, kb = rig("Press SPACE to abort autoboot in 2 seconds", " ", {"interrupt": "\x03"})
    to_uboot_then_shell(board)
    assert kb.stopped == 1 and b"\x03" not in kb.ignored
    after_boot = [t for t in kb.typed[kb.typed.index("boot") + 1 :] if t.strip()]
    assert after_boot[0] == "root"  # the user name went to the getty prompt, kernel messages glued or not


@pytest.mark.parametrize(
    ("line", "stop"),
    [
        ("Hit 's' to stop autoboot in 2 seconds", "s"),
        ('Enter "perfgate" to abort autoboot in 2 seconds', "perfgate"),
        ("Press Ctrl+C to abort autoboot in 2 seconds", "\x03"),
        ("Press ESC to stop autoboot in 2 seconds", "\x1b"),
    ],
    ids=["hit-s", "enter-string", "ctrl-c", "esc"],
)
def test_the_key_an_autoboot_line_names_is_typed(rig, line, stop):
    """The "press <key>" / "enter <string>" family as a class: the key comes from the line, not from a default."""
    board, kb = rig(line, stop)
    board.transition("uboot")
    assert board.state == "uboot" and kb.stopped == 1


def test_the_board_data_names_the_key_of_a_line_that_does_not(rig):
    """U-Boot's own keyed prompt (`Autoboot in 2 seconds`) names no key: the board data's {line, key} does."""
    board, kb = rig("Autoboot in 2 seconds", "go", {"autoboot": [{"line": "Autoboot", "key": "go"}]})
    board.transition("uboot")
    assert board.state == "uboot" and kb.stopped == 1


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_a_key_the_board_ignores_fails_naming_the_key_and_the_line(rig):
    """A line naming no key the gate knows ("any key") where the board wants another: the failure says what was
    typed, why, and the line."""
    board, kb = rig("Autoboot in 2 seconds", "go")
    with pytest.raises(BringUpError, match=r"typed ' ' \(uboot.interrupt\) after the autoboot prompt 'Autoboot in 2"):
        board.transition("uboot")
    assert kb.stopped == 0
