"""Commands where they run, on a board the strategy brings to the right state (labgrid's CommandProtocol users):

- `run(command, where=...)`: `shell` over SSH (the console on a board without network), `console`, `uboot`;
- `uboot_command(...)`: at the U-Boot prompt, with the medium's setup run first when U-Boot started afresh, and
  the recovery of a prompt that does not come back (Ctrl-C, else a power-cycle) with one retry;
- `await_console(...)`: wait for lines on the console, in seconds of board time.

It stands on the strategy (perfgate.board.strategy.Board): it asks it for a state (`transition`) and for a
power-cycle; the strategy knows nothing of commands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from perfgate.board.console import ConsoleTimeout, await_lines
from perfgate.board.errors import BringUpError
from perfgate.board.strategy import Board
from perfgate.board.uboot import UBootRestarted
from perfgate.errors import ToolMissing

NOT_FOUND = re.compile(r"(?:^|\n)(?:-?sh|bash|ash|\S+): (?:line \d+: )?(\S+): (?:command )?not found")


class Commands:
    """The commands of one board (its strategy `board`)."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def run(self, command: str, timeout: float = 600.0, where: str = "shell") -> tuple[str, int]:
        """Run a command where it runs: `shell` (SSH, or the console without network), `console`, `uboot`.
        Exit status 127 with the shell's `not found`: ToolMissing."""
        b = self.board
        if where == "uboot":
            return self.uboot_command(command, timeout), 0
        if where not in ("shell", "console"):
            raise ValueError(f"cannot run a command at {where!r} (shell, console, uboot, boot)")
        b.transition("shell")
        limit = b.timeouts.of(timeout)
        if where == "shell" and b.networked:
            if not b.ssh_driver.connected:
                b.network.open_ssh()
            out, status = b.ssh_driver.run(command, limit)
        else:
            out, status = b.shell.run(command, limit)
        missing = NOT_FOUND.search(out) if status == 127 else None
        if missing:
            raise ToolMissing(f"`{command}`: {missing.group(0).strip()} (exit status 127)")
        return out, status

    def await_console(self, patterns: list[str], since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0) -> int:  # fmt: skip
        """perfgate.board.console.await_lines, `timeout` in seconds of board time (divided by a fast board's speed)."""
        b = self.board
        return await_lines(b.console, patterns, since, timeout, abort, quiet, limit=b.timeouts.of(timeout))

    def uboot_command(self, command: str, timeout: float | None = None, retry: bool = True,
                      setup: Sequence[str] = ()) -> str:  # fmt: skip
        """Type a command at the U-Boot prompt and return what it printed (up to the next prompt).

        `setup`: commands that must have run at this U-Boot since it last started (a medium's `sf probe`,
        `mmc dev 0`): they are run first whenever U-Boot started afresh since they ran, and the log says so.
        A prompt that does not come back (line noise garbled it, or U-Boot hung): Ctrl-C; when U-Boot answers at
        its prompt, the command runs once more there; when it does not, the board is power-cycled (when the lab
        can) and the command runs once more after its setup. A command that fails that way twice fails with the
        reason; when U-Boot itself stopped answering, U-Boot is given up for the rest of the run, so that later
        U-Boot commands fail at once with the reason."""
        b = self.board
        if "uboot" in b.broken:
            raise BringUpError(f"U-Boot stopped answering earlier in this run: {b.broken['uboot']}")
        if b.state != "uboot":
            b.transition("uboot")
        self._ensure_setup(setup, command, timeout)
        limit = b.timeouts.uboot_command if timeout is None else b.timeouts.of(timeout)
        after_setup = " after the medium's setup" if setup else ""
        since = b.console.mark()
        try:
            out = b.uboot_driver.command(command, limit)
        except UBootRestarted as e:
            b.fresh_uboot()
            if not retry:
                raise BringUpError(f"`{command}` did not complete: {e} (also on the first attempt)") from None
            b.log(f"{e}; running `{command}` again{after_setup}")
            return self.uboot_command(command, timeout, retry=False, setup=setup)
        except ConsoleTimeout as e:
            b.state = "unknown"
            try:
                b.uboot_driver.resync(since, min(limit, 2.0))  # U-Boot answers Ctrl-C at once
            except UBootRestarted as again:
                b.fresh_uboot()
                if retry:
                    b.log(f"{e}; {again}; running `{command}` again{after_setup}")
                    return self.uboot_command(command, timeout, retry=False, setup=setup)
                raise ConsoleTimeout(f"{e} (twice; {again})") from None
            except ConsoleTimeout as silent:
                assert b.power is not None
                if retry and b.power.can_cycle:
                    b.log(f"{e}; {silent}; power-cycling and retrying `{command}` once{after_setup}")
                    return self.uboot_command(command, timeout, retry=False, setup=setup)
                b.broken["uboot"] = str(e)
                raise e from None
            b.state = "uboot"  # U-Boot answered Ctrl-C at its prompt: the same U-Boot, its setup still holds
            if retry:
                b.log(f"{e}; U-Boot answered Ctrl-C at its prompt (the prompt after the command was lost: line "
                      f"noise?): running `{command}` again")  # fmt: skip
                return self.uboot_command(command, timeout, retry=False, setup=setup)
            raise ConsoleTimeout(f"{e} (twice; U-Boot answers Ctrl-C at its prompt, but no clean prompt came "
                                 "after the command: line noise?)") from None  # fmt: skip
        b.uboot_ran.add(command)
        b.uboot_ever.add(command)
        return out

    def _ensure_setup(self, setup: Sequence[str], command: str, timeout: float | None) -> None:
        """Run `setup` at the U-Boot prompt unless every one of its commands ran since U-Boot last started."""
        b = self.board
        for _ in range(3):
            if all(c in b.uboot_ran for c in setup):
                return
            session = b.uboot_session
            what = "; ".join(f"`{c}`" for c in setup)
            if any(c in b.uboot_ever for c in setup):
                b.log(f"U-Boot started afresh since the medium's setup ran: running {what} again before "
                      f"`{command}`")  # fmt: skip
            else:
                b.log(f"running the medium's setup {what} before `{command}`")
            for c in setup:
                try:
                    self.uboot_command(c, timeout)
                except AssertionError as e:
                    raise BringUpError(f"the medium's setup `{c}` did not run before `{command}`: {e}") from None
            if b.uboot_session == session:
                return
        raise BringUpError(f"U-Boot started afresh three times while the medium's setup {what} ran: `{command}` "
                           "was not run")  # fmt: skip
