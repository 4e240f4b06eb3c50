"""The board library for Robot Framework: lab, power, console, U-Boot, boot, login, SSH, commands: keywords only.

Keywords read like a lab engineer's steps (resources/board.resource strings them together). `Start Lab` has the
run's session (perfgate.run.session.Session, found through perfgate.robot.runsession) start the lab through its kind
(perfgate.labkinds); the session holds the `Access` to the board, and every keyword is one call on it, or on the board
strategy it gives (perfgate.board.strategy). GLOBAL scope: one board for the whole run, whose state (off, uboot,
shell) carries across suites. The gate's runner (perfgate.run.runner) is handed the same access by the session.

Every keyword logs the console text it saw; the whole transcript is written to ${RUN_DIR}/serial.log (or the output
directory) and linked from the log at the end.
"""

from __future__ import annotations

import html
import os
import re
from contextlib import AbstractContextManager

from robot.api import logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn
from robot.running.context import EXECUTION_CONTEXTS

from perfgate import __version__, boards, runvars
from perfgate.board.boardlock import BoardBusy, BoardLock
from perfgate.board.console import ConsoleDriver
from perfgate.board.lab import Lab, board_profile, load
from perfgate.board.ssh import ssh_library
from perfgate.board.strategy import Board as Strategy
from perfgate.errors import PerfgateError, UnknownBoard
from perfgate.labkinds import base as labkinds
from perfgate.robot import runsession
from perfgate.robot import squad as squad_option
from perfgate.robot.links import link_base
from perfgate.robot.robotvars import var as _var

LOG_LIMIT = 200_000  # characters of the serial transcript logged at the end (the file has everything)


def _text(value: object) -> str:
    return "" if value is None or str(value).upper() == "NONE" else str(value)


@library(scope="GLOBAL", version=__version__, listener="SELF", auto_keywords=False)
class Board:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self) -> None:
        self.lab: Lab | None = None
        self.name = ""
        self.profile: dict = {}
        self._read_pos: int | None = None  # where `Read Board Console Until` reads on from
        self.lock: BoardLock | None = None  # this gate's hold on the board (perfgate.board.boardlock)

    @property
    def access(self) -> labkinds.Access | None:
        """The started board, whichever kind of lab gave it: the run's session holds it."""
        return runsession.session().access

    # ------------------------------------------------------------------------------------------ lab
    @keyword
    def open_lab(self, board: str, lab: str = "") -> dict:
        """Resolve BOARD and LAB and validate the lab file; returns the lab's data (for the gate).

        No LAB means the built-in `sim` lab: the console and the log say `LAB=sim: simulated board, not hardware`,
        and `${VIRTUAL}` (for the report), `${LAB_NAME}` and `${LAB_BANNER}` are set."""
        up = (self.name, self.lab.path) if self.access is not None and self.lab is not None else None
        try:
            self.name = boards.resolve(board)
            loaded = load(_text(lab), self.name)
            if up is not None and up == (self.name, loaded.path):  # a user suite brought this board up already
                loaded = self.lab
            self.lab = loaded
            self.profile = board_profile(self.name, self.lab)
            squad_option.check({**self.lab.data, "name": self.lab.name})  # -v SQUAD, before a run
        except UnknownBoard as e:  # said on the console, and the run stops
            logger.error(f"perfgate: {e}")
            BuiltIn().fatal_error(str(e))
        except PerfgateError as e:  # a broken lab file: on the console once, and every test fails with it
            logger.error(f"perfgate: {e}")
            raise AssertionError(str(e)) from None
        if not _text(lab):
            logger.console(f"perfgate: no LAB given: using the built-in lab `{self.lab.name}`")
        banner = self.lab.banner()
        logger.console(f"perfgate: {banner}")
        (logger.warn if self.lab.virtual else logger.info)(banner)
        for name, value in (("VIRTUAL", self.lab.virtual), ("LAB_NAME", self.lab.name), ("LAB_BANNER", banner)):
            BuiltIn().set_global_variable(f"${{{name}}}", value)
        # the file: what the workloads' reasons name (perfgate.workloads.base.lab_file); the profile overrides: for the
        # gate (Use Lab), the same profile
        return {**self.lab.data, "name": self.lab.name, "file": str(self.lab.path),
                "profile_overrides": dict(self.lab.profile_overrides)}  # fmt: skip

    @keyword
    def take_board(self) -> None:
        """Take the board for this gate alone (perfgate.board.boardlock), before the run opens: another gate that
        drives it makes this one refuse at once naming it, or wait up to BOARD_WAIT seconds with progress on the
        console. A board the gate starts itself (sim, qemu) and a kind whose owner hands the board out (a labgrid
        place, LAVA: not `exclusive`) need no lock."""
        if self.lab is None:
            raise AssertionError("no lab: `Open Lab` must come first")
        if self.lab.launched or not labkinds.kind(self.lab.kind).exclusive or (self.lock and self.lock.held):
            return
        try:
            wait = runvars.whole("BOARD_WAIT", _var("BOARD_WAIT"), 0, minimum=0)
        except PerfgateError as e:
            raise AssertionError(str(e)) from None
        lock = BoardLock(self.lab.name, self.name)
        try:
            waited = lock.acquire(wait, say=self._console_say)
        except BoardBusy as e:
            logger.error(f"perfgate: {e}")
            raise
        if waited >= 1:
            self._console_say(f"{self.name} in LAB={self.lab.name} is free after {waited:.0f} s: this gate drives it")
        self.lock = lock

    @keyword
    def start_lab(self) -> None:
        """Start the lab: its kind (perfgate.labkinds) starts the board when the lab starts it (sim, qemu), takes a
        labgrid place, opens the serial console, or readies the LAVA session. The transcript goes to
        ${RUN_DIR}/serial.log (the output directory before a run directory exists)."""
        if self.lab is None:
            raise AssertionError("no lab: `Open Lab` must come first")
        if self.access is not None:  # up already (a user suite of this run brought it up): the same board
            logger.info(f"the {self.lab.name} lab's board is up already: taken as it is")
            return
        runsession.session().start_lab(self.lab, self.name, self.profile, say=self._console_say, log=logger.info,
                                       ssh_library=ssh_library())  # fmt: skip

    def _console_say(self, message: str) -> None:
        logger.info(message)
        logger.console(f"perfgate: {message}")

    def start_suite(self, data, result) -> None:
        """The run's suites (the running model), for `close_lab` to know whether a user suite holds the board."""
        from perfgate.robot import userboard

        userboard.remember(data)

    @keyword
    def close_lab(self, final: bool = False) -> None:
        """Close SSH and the console, stop the lab's board process (or give the labgrid place back), and link the
        serial transcript in the log. While a suite of the run uses the board (perfgate.robot.userboard), a suite's
        teardown leaves it up: it goes down when the run ends."""
        from perfgate.robot.userboard import holds_the_board

        ctx = EXECUTION_CONTEXTS.current
        if not final and ctx is not None and ctx.suite.parent is not None and holds_the_board():  # not the top
            logger.info("the board stays up: a suite of this run uses it (perfgate.robot.userboard); it goes down "
                        "when the run ends")  # fmt: skip
            return
        session, lock, self.lock = runsession.session(), self.lock, None
        try:
            session.close_lab()
        finally:
            if lock is not None:  # the board is free for the next gate
                lock.release()
        transcript = session.transcript
        if transcript and transcript.exists():
            text = transcript.read_text(encoding="utf-8", errors="replace")
            cut = f" (the last {LOG_LIMIT} shown here)" if len(text) > LOG_LIMIT else ""
            rel = os.path.relpath(transcript, link_base())
            logger.info(f'Serial transcript: <a href="{html.escape(rel)}">{html.escape(str(transcript))}</a> '
                        f"({len(text)} characters{cut})", html=True)  # fmt: skip
            logger.info(f"<details><summary>serial.log</summary><pre>{html.escape(text[-LOG_LIMIT:])}</pre></details>",
                        html=True)  # fmt: skip

    def _access(self) -> labkinds.Access:
        if self.access is None:
            raise AssertionError("no board: `Open Lab` (suites/__init__.robot) must come first")
        return self.access

    def _console(self) -> ConsoleDriver:
        access = self._access()
        if access.console is None:
            raise access.unsupported("console")
        return access.console

    def _step(self, what: str) -> AbstractContextManager[Strategy]:
        """The board strategy for one step, the console it showed logged (a kind without one, LAVA: refused)."""
        return self._access().strategy(what)

    # ------------------------------------------------------------------------------------------ steps
    @keyword
    def power_cycle_board(self) -> None:
        """Switch the board off and on with the lab's power driver (command, soft reboot, or the operator)."""
        with self._step("power-cycle") as b:
            b.power_cycle()

    @keyword
    def power_off_board(self) -> None:
        """Close the SSH connection and switch the board off with the lab's power driver: its `off` command (a lab
        with none, or one that can only reboot the board, leaves it on), or the operator asked to (a manual lab)."""
        with self._step("power off") as b:
            b.power_off()

    @keyword
    def stop_autoboot(self) -> None:
        """Power-cycle the board and stop U-Boot's autoboot countdown at the U-Boot prompt."""
        with self._step("stop autoboot") as b:
            b.stop_autoboot(b.power_cycle())

    @keyword("Run U-Boot Command")
    def run_uboot_command(self, command: str, timeout: float | None = None) -> str:
        """Type a command at the U-Boot prompt (catching U-Boot first if needed) and return its output."""
        out = self._access().uboot(command, None if timeout is None else float(timeout))
        logger.info(f"=> {command}\n{out}")
        return out

    @keyword
    def boot_to_shell(self) -> None:
        """Boot from U-Boot (or power on and autoboot) to the login prompt, log in, learn the address, open SSH."""
        with self._step("boot to shell") as b:
            b.transition("shell")

    @keyword
    def log_in_on_console(self) -> None:
        """Log in at the login prompt on the serial console with the board's user and password (its data, or the
        lab's); the board is then at its shell. A refused login fails with the console's answer."""
        with self._step("login") as b:
            b.login()

    @keyword
    def learn_board_address(self) -> str:
        """Return the board's network address: the lab's `ssh.address`, or (`discover`) read once per boot from
        the board's interfaces on the console, and logged."""
        return self._access().learn_address()

    @keyword("Open SSH To Board")
    def open_ssh_to_board(self) -> None:
        """Open SSHLibrary's connection `board` to the board's address (learnt first if needed), with the lab's
        user, port and password or key."""
        with self._step("open SSH") as b:
            shell = b.network.open_ssh()
        logger.info(f"SSH open: {shell}")

    @keyword("Run On Board")
    def run_on_board(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        """Run a command on the board's Linux (SSH, or the serial console when it has no network) and return
        its output (stdout and stderr)."""
        return self._access().run(command, float(timeout), where)

    @keyword
    def reboot_board(self) -> None:
        """Reboot the board and bring it back to the shell (power-cycle when the lab has a power switch)."""
        self._access().reboot()

    @keyword("Bring Board To U-Boot")
    def bring_board_to_uboot(self) -> None:
        """Bring the board to the U-Boot prompt from whatever state it is in (power-cycle and stop the autoboot)."""
        with self._step("bring to U-Boot") as b:
            b.transition("uboot")

    @keyword
    def bring_up_board(self) -> None:
        """Bring the board to its shell for the suites. A board that does not come up (after one power-cycle and
        retry) fails this keyword, and so the suite setup, with the reason; except when U-Boot answered on the way
        (only Linux failed): then the run goes on, the U-Boot suites run, and each suite that needs the shell fails
        at once with the reason. A LAVA lab submits its first job here."""
        self._access().bring_up()

    # ------------------------------------------------------------------------------------------ the console
    @keyword("Write To Board Console")
    def write_to_board_console(self, text: str, line_end: bool = True) -> None:
        """Type `text` on the board's serial console (with a line end unless `line_end` is false); `Read Board
        Console Until` then reads what came after it. The gate owns the port (one reader thread that stamps every
        chunk with host time for boot time, and keeps serial.log), so a user suite types and reads through these
        keywords instead of opening the port a second time with SerialLibrary."""
        console = self._console()
        self._read_pos = console.mark()
        if line_end:
            console.sendline(text)
        else:
            console.write(text)

    @keyword("Read Board Console Until")
    def read_board_console_until(self, expected: str, timeout: float = 10.0, regexp: bool = False) -> str:
        """Wait at most `timeout` seconds until `expected` (a regular expression when `regexp` is true) shows on the
        console after what was written or read last, and return the text up to and including it (escape sequences
        and CR removed; the raw bytes stay in serial.log)."""
        console = self._console()
        since = console.mark() if self._read_pos is None else self._read_pos
        truthy = str(regexp).strip().lower() not in ("", "false", "no", "none", "0", "off")
        pattern = re.compile(expected) if truthy else expected
        m = console.expect(pattern, float(timeout), what=expected, since=since)
        self._read_pos = m.end
        return console.text(since, m.end)

    @keyword
    def board_state_should_be(self, state: str) -> None:
        """Fail unless the board is in `state`, as the gate last saw it: one of unknown, off, uboot, booting, login,
        shell, init_sh (perfgate.board.strategy.STATES)."""
        now = self._access().state()
        if now != state:
            raise AssertionError(f"the board is in state {now!r}, not {state!r}")
