"""Scripted boards on the master side of a real pseudo-terminal, and a workload Context over one, shared by the tests
that drive the real console code (perfgate.board) against a board: the gate's side opens the slave path like a
USB-serial adapter. Each test file keeps what its board says; this module keeps the plumbing.

- PtyBoard: the pty in raw mode and one thread that reads what the gate typed; each line (ended by CR, as
  perfgate.board.console sends it) is echoed and handed to `line()`; a board that needs the raw chunks (a key
  with no line end) overrides `received()`.
- PoweredBoard: a board that runs a script (`power_on()`: U-Boot, kernel, login, shell) each time its `power` is
  switched on, and pulls the lines it waits for with `readline()`.
- PtyContext: perfgate.workloads.base.Context over such a board, for tests that run a real workload."""

from __future__ import annotations

import os
import re
import select
import subprocess
import threading
import time
import tty
from pathlib import Path

import yaml

from perfgate.board import console as console_mod
from perfgate.board.commands import Commands
from perfgate.board.console import Console
from perfgate.board.shell import ShellDriver
from perfgate.board.strategy import Board
from perfgate.board.traits import Traits


class PtyBoard(threading.Thread):
    """The board end of a real pty (raw mode, as a UART is). `send()` writes to the gate with CR LF line ends;
    `typed` is every line the gate typed, `got` every byte. Call `start()` to serve, `close()` at the end."""

    line_end = re.compile(rb"\r")  # what ends a typed line: the gate's console sends CR

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)  # where the code under test opens its console
        self.stop = threading.Event()
        self.inbuf = b""  # read from the gate, not taken yet
        self.got = b""  # everything the gate ever typed
        self.typed: list[str] = []  # every line taken from what the gate typed
        self._send_lock = threading.Lock()
        self._fds_closed = False

    def send(self, text: str | bytes) -> None:
        """Text with LF line ends goes out with CR LF, as a real UART's; bytes go out as they are."""
        data = text.replace("\n", "\r\n").encode() if isinstance(text, str) else text
        with self._send_lock:
            if not self._fds_closed:  # a board's late message after the test ended goes nowhere
                os.write(self.master, data)

    def fill(self, wait: float) -> bytes:
        """Read what the gate typed within `wait` seconds (one read) into `inbuf`; returns it (b"" if nothing)."""
        r, _, _ = select.select([self.master], [], [], wait)
        if not r:
            return b""
        data = os.read(self.master, 4096)
        self.inbuf += data
        self.got += data
        return data

    def take_line(self) -> str | None:
        """The first whole line in `inbuf`, taken out of it (and kept in `typed`); None when there is none."""
        m = self.line_end.search(self.inbuf)
        if m is None:
            return None
        line, self.inbuf = self.inbuf[: m.start()].decode(), self.inbuf[m.end() :]
        self.typed.append(line)
        return line

    def run(self) -> None:
        while not self.stop.is_set():
            if self.fill(0.05):
                self.received()

    def received(self) -> None:
        """Something came (it is in `inbuf`): each whole line is echoed, then handed to `line()`."""
        while (line := self.take_line()) is not None:
            self.send(line + "\n")  # the echo
            self.line(line)

    def line(self, text: str) -> None:
        """Answer a line the gate typed (after its echo)."""

    def close(self) -> None:
        """End the board's thread and close both ends of the pty (close the gate's console first)."""
        self.stop.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(5)
        with self._send_lock:
            if not self._fds_closed:
                self._fds_closed = True
                os.close(self.master)
                os.close(self.slave)


class PoweredBoard(PtyBoard):
    """A board that is off until `power` is set (a power-cycle, a soft reboot): then it forgets what was typed,
    counts the cycle and runs `power_on()`, its script, which reads the gate's lines with `readline()`. Its one
    thread is the reader and the script: it reads only while the script waits for input (what the gate types
    meanwhile stays in the pty until then), and `line()` is not used."""

    line_end = re.compile(rb"\r\n|\r|\n")  # the scripts take a line however it ends

    def __init__(self) -> None:
        super().__init__()
        self.power = threading.Event()
        self.cycles = 0

    def run(self) -> None:
        while not self.stop.is_set():
            if self.power.wait(0.05):
                self.power.clear()
                self.inbuf = b""
                self.cycles += 1
                self.power_on()

    def power_on(self) -> None:
        """What the board does from power-on; return when it stops listening (it hangs, or the power went)."""

    def relay(self, switch: Path) -> None:
        """Power the board on each time something touches the file `switch` (the lab's power command, a real shell
        command, does: `touch <switch>`), until the test ends."""

        def watch() -> None:
            while not self.stop.is_set():
                if switch.exists():
                    switch.unlink()
                    self.power.set()
                time.sleep(0.02)

        threading.Thread(target=watch, daemon=True).start()

    def plug_in(self, switch: Path, transcript: Path) -> Console:
        """Wire the board up as a lab's hardware: power through `relay(switch)`, the board's thread started, and the
        gate's console open on the slave path (115200 baud, the raw transcript in `transcript`)."""
        self.relay(switch)
        self.start()
        console = Console(self.path, 115200, transcript)
        console.open()
        return console

    def readline(self, timeout: float = 30, echo: bool = True) -> str | None:
        """The next line typed (echoed unless `echo` is False); None after `timeout`, when the power goes or the
        test ends."""
        end = time.monotonic() + timeout
        while (line := self.take_line()) is None:
            if self.stop.is_set() or self.power.is_set() or time.monotonic() > end:
                return None
            self.fill(0.05)
        if echo:
            self.send(line + "\n")
        return line

    def key_within(self, seconds: float) -> bool:
        """Whether the gate typed anything (within `seconds`, or already); what it typed is dropped: a key that
        stops a countdown."""
        end = time.monotonic() + seconds
        while time.monotonic() < end and not self.inbuf:
            self.fill(0.02)
        if not self.inbuf:
            return False
        self.inbuf = b""
        return True


class PtyContext:
    """perfgate.workloads.base.Context over a board on a real pty. Each command goes where the gate's context
    (perfgate.robot.gate._Context) sends it: `host` to this host's shell, anything else to the board's shell through
    the real ShellDriver on `console`. Given `uboot` (the board strategy), the context is a U-Boot one: each command
    goes to its uboot_command with the run's setup, and a command of any other kind fails the test. Console waits go
    through the real perfgate.board.console.await_lines. `tester`: the network peer's address; None when there is
    none (asking for it fails the test)."""

    def __init__(self, board: str, profile: dict, lab: dict, console: Console, *, uboot: Board | None = None,
                 tester: str | None = "127.0.0.1") -> None:  # fmt: skip
        self.board = board
        self.profile = profile
        self.lab = lab
        self.repeat = 1
        self.virtual = False
        self.last_evidence = ""
        self.console = console
        self.uboot = uboot
        self.shell = ShellDriver(console, Traits.from_profile(profile)) if uboot is None else None
        self._tester = tester
        self.log: list[tuple[str, str]] = []  # (where, command), and ("console", label) for each console wait
        self.notes: list[str] = []

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell",
            setup: tuple[str, ...] = ()) -> str:  # fmt: skip
        self.log.append((where, command))
        if self.uboot is not None:
            assert where == "uboot", (where, command)
            extra = {"setup": setup} if setup else {}
            return Commands(self.uboot).uboot_command(command, timeout, **extra)
        if where == "host":
            return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=timeout).stdout
        assert self.shell is not None
        return self.shell.run(command, timeout)[0]

    def console_mark(self) -> int:
        return self.console.mark()

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0, label: str = "") -> int:  # fmt: skip
        self.log.append(("console", label))
        return console_mod.await_lines(self.console, patterns, since, timeout, abort, quiet)

    def tester(self) -> str:
        if self._tester is None:
            raise AssertionError(f"no network peer for {self.board} in this test")
        return self._tester

    def note(self, message: str) -> None:
        self.notes.append(message)


def write_lab(root: Path, lab: dict) -> Path:
    """`lab` as the file variables/labs/<its name>.yaml under `root` (the test's PERFGATE_ROOT)."""
    path = root / "variables" / "labs" / f"{lab['name']}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(lab), encoding="utf-8")
    return path
