"""The board library for Robot Framework: lab, power, console, U-Boot, boot, login, SSH, commands.

Keywords read like a lab engineer's steps (resources/board.resource strings them together); the work is done by
perfgate.board. GLOBAL scope: one board for the whole run, whose state (off, uboot, shell) carries across suites.
The gate library (perfgate.robot.gate) calls `run_on_board()` and `uboot_command()` from its workloads.

Every keyword logs the console text it saw; the whole transcript is written to ${RUN_DIR}/serial.log (or the output
directory) and linked from the log at the end.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
from collections.abc import Iterator
from pathlib import Path

from robot.api import logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn
from robot.running.context import EXECUTION_CONTEXTS

from perfgate import __version__, boards, runvars
from perfgate.board import boottime
from perfgate.board.boardlock import BoardBusy, BoardLock
from perfgate.board.commands import Commands
from perfgate.board.console import Console
from perfgate.board.lab import Lab, board_profile, expand, load
from perfgate.board.launcher import Launcher
from perfgate.board.ssh import ssh_library
from perfgate.board.strategy import Board as Strategy
from perfgate.errors import PerfgateError, ToolMissing, UnknownBoard
from perfgate.robot import squad as squad_option
from perfgate.robot.lava import LavaBoard
from perfgate.robot.links import link_base
from perfgate.robot.robotvars import var as _var

LOG_LIMIT = 200_000  # characters of console text logged per keyword (the file has everything)


def _truthy(value: object) -> bool:
    return str(value).strip().lower() not in ("", "false", "no", "none", "0", "off")


def _text(value: object) -> str:
    return "" if value is None or str(value).upper() == "NONE" else str(value)


@library(scope="GLOBAL", version=__version__, listener="SELF", auto_keywords=False)
class Board:
    ROBOT_LISTENER_API_VERSION = 3
    active: Board | None = None  # the instance with an open lab: suites that do not import it still reach it

    def __init__(self) -> None:
        self.lab: Lab | None = None
        self.board: Strategy | None = None
        self.launcher: Launcher | None = None
        self.console: Console | None = None
        self.transcript: Path | None = None
        self.bring_up_error: str = ""
        self.name = ""
        self.profile: dict = {}
        self._read_pos: int | None = None  # where `Read Board Console Until` reads on from
        self.lease = None  # a labgrid place (perfgate.farm.lease.Lease) when the lab is `kind: labgrid`
        self.lava: LavaBoard | None = None  # `kind: lava`: LAVA owns the board; commands run in its jobs
        self.labgrid_env = None  # `kind: labgrid-env`: the target of the user's labgrid environment file
        self.lock: BoardLock | None = None  # this gate's hold on the board (perfgate.board.boardlock)

    # ------------------------------------------------------------------------------------------ lab
    @keyword
    def open_lab(self, board: str, lab: str = "") -> dict:
        """Resolve BOARD and LAB and validate the lab file; returns the lab's data (for the gate).

        No LAB means the built-in `sim` lab: the console and the log say `LAB=sim: simulated board, not hardware`,
        and `${VIRTUAL}` (for the report), `${LAB_NAME}` and `${LAB_BANNER}` are set."""
        up = (self.name, self.lab.path) if self.board is not None and self.lab is not None else None
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
        if self.lab.virtual:
            logger.warn(banner)
        else:
            logger.info(banner)
        bi = BuiltIn()
        bi.set_global_variable("${VIRTUAL}", self.lab.virtual)
        bi.set_global_variable("${LAB_NAME}", self.lab.name)
        bi.set_global_variable("${LAB_BANNER}", banner)
        data = dict(self.lab.data)
        data["name"] = self.lab.name
        data["file"] = str(self.lab.path)  # what the workloads' reasons name (perfgate.workloads.base.lab_file)
        data["profile_overrides"] = dict(self.lab.profile_overrides)  # for the gate (Use Lab): the same profile
        return data

    @keyword
    def take_board(self) -> None:
        """Take the board for this gate alone (perfgate.board.boardlock), before the run opens: another gate that
        drives it makes this one refuse at once naming it, or wait up to BOARD_WAIT seconds with progress on the
        console. A board the gate starts itself (sim, qemu), a labgrid place and a LAVA board need no lock."""
        if self.lab is None:
            raise AssertionError("no lab: `Open Lab` must come first")
        if self.lab.launched or self.lab.kind in ("lava", "labgrid") or (self.lock and self.lock.held):
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

    def _give_board_back(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    @keyword
    def start_lab(self) -> None:
        """Start the lab's board when the lab starts it (sim, qemu) and open the serial console. The transcript
        goes to ${RUN_DIR}/serial.log (the output directory before a run directory exists)."""
        if self.lab is None:
            raise AssertionError("no lab: `Open Lab` must come first")
        if self.board is not None:  # up already (a user suite of this run brought it up): the same board
            logger.info(f"the {self.lab.name} lab's board is up already: taken as it is")
            return
        if self.lab.kind == "lava":  # no console, no power: LAVA's jobs boot the board (Bring Up Board submits)
            self.lava = LavaBoard(self.lab, self.name, self.profile, self._console_say)
            Board.active = self
            return
        context = {
            "board": self.name,
            "lab": self.lab.name,
            "sim_speed": _text(_var("SIM_SPEED")),
            "faults": _text(_var("FAULTS")),
            "sim_seed": _text(_var("SIM_SEED")),
            "sim_spread": _text(_var("SIM_SPREAD")),
            "sim_noise": _text(_var("SIM_NOISE")),
        }
        out_dir = Path(_text(_var("RUN_DIR")) or _text(_var("OUTPUT DIR")) or ".")
        self.transcript = out_dir / "serial.log"
        speed = 1.0
        start = str(self.lab.data.get("start_options") or self.lab.data.get("start") or "")
        if context["faults"] and "{faults}" not in start:
            message = (f"variable FAULTS: LAB={self.lab.name} cannot inject faults (only the simulated board can), "
                       f"so {context['faults']!r} would match nothing")  # fmt: skip
            logger.error(f"perfgate: {message}")
            raise AssertionError(message)
        if self.lab.launched:
            self.launcher = Launcher(self.lab, context, log_dir=out_dir)
            try:
                state = self.launcher.start()
            except AssertionError as e:  # the board process refused its input (FAULTS) or died: said once, loud
                logger.error(f"perfgate: {e}")
                raise
            context = self.launcher.context
            speed = float(state.get("speed") or (context["sim_speed"] or 1))
            logger.info(f"started the {self.lab.name} board: `{' '.join(self.launcher.command())}`; state {state}")
        if self.lab.kind == "labgrid":
            self._take_place(out_dir)
        try:
            serial = expand(self.lab.data["serial"], context)
        except PerfgateError as e:
            raise AssertionError(str(e)) from None
        if self.launcher and self.launcher.state.get("serial"):
            serial["port"] = str(self.launcher.state["serial"])
        if self.lab.kind == "labgrid-env":  # the target's own console and power drivers, activated here
            from perfgate.board.labgrid_env import LabgridEnv

            try:
                self.labgrid_env = LabgridEnv.from_lab(self.lab)
            except PerfgateError as e:
                raise AssertionError(str(e)) from None
            self.console = self.labgrid_env.console(int(serial.get("baud", 115200)), self.transcript)
        elif self.lease:  # the place's NetworkSerialPort, at the port its exporter's ser2net listens on
            host, port, rfc2217 = self.lease.place.console_address()
            self.console = Console.from_host_port(host, port, self.lease.place.baud(), self.transcript, rfc2217)
        else:
            self.console = Console(serial["port"], int(serial.get("baud", 115200)), self.transcript)
        self.console.open()
        power = self.lease.power() if self.lease and self.lease.has_power else None  # labgrid's power driver
        if self.labgrid_env is not None:
            power = self.labgrid_env.power()  # None: the target has no power driver, the lab's `power` then
        self.board = Strategy(self.name, self.profile, self.lab, self.console, context, log=self._say, speed=speed,
                              power=power, ssh_library=ssh_library())  # fmt: skip
        if speed != 1:
            floor = self.board.timeouts.floor
            logger.info(
                f"the {self.lab.name} board runs {speed:g}x faster than real time: waits are divided by "
                f"{speed:g} (never below {floor:g} s) and boot times multiplied by it"
            )
        Board.active = self

    def _take_place(self, out_dir: Path) -> None:
        """kind: labgrid: reserve a matching place (bounded wait, progress on the console), acquire it, and take
        the console, the power and (unless the lab names one) the SSH address from its resources."""
        from perfgate.board import lab_labgrid
        from perfgate.farm.lease import take

        assert self.lab is not None
        lg = lab_labgrid.settings(self.lab)
        try:
            self.lease = take(lg.get("coordinator"), lab_labgrid.filters(self.lab, self.name), lg["wait"],
                              power_delay=lg["power_delay"], say=self._console_say, log_dir=out_dir)  # fmt: skip
        except AssertionError as e:
            raise AssertionError(f"LAB={self.lab.name}: {e}") from None
        place = self.lease.place
        ssh = place.ssh()
        if ssh and ("ssh",) not in self.lab.lines:
            self.lab.data["ssh"] = {**self.lab.data.get("ssh", {}), "address": ssh["address"], "port": ssh["port"]}
        bi = BuiltIn()
        bi.set_suite_metadata("Labgrid Place", place.describe(), top=True)
        bi.set_global_variable("${LABGRID_PLACE}", place.name)
        logger.info(f"labgrid place {place.describe()}: resources {place.resources}")

    def _give_place_back(self) -> None:
        if self.lease is None:
            return
        try:
            for line in self.lease.give_back():
                self._console_say(line)
        except AssertionError as e:
            logger.error(f"could not give the labgrid place back: {e} (its guard, or the next gate, will)")
        finally:
            self.lease = None

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
        if self.lava is not None:
            self.lava.close()
        if self.board:
            self.board.ssh_driver.close()
        if self.console:
            self.console.close()
        self._give_place_back()
        if self.labgrid_env is not None:
            self.labgrid_env.close()
            self.labgrid_env = None
        if self.launcher:
            status = self.launcher.stop()
            logger.info(f"stopped the {self.lab.name if self.lab else ''} board (exit status {status})")
            self.launcher = None
        self._give_board_back()
        if self.transcript and self.transcript.exists():
            text = self.transcript.read_text(encoding="utf-8", errors="replace")
            cut = f" (the last {LOG_LIMIT} shown here)" if len(text) > LOG_LIMIT else ""
            rel = os.path.relpath(self.transcript, link_base())
            logger.info(f'Serial transcript: <a href="{html.escape(rel)}">{html.escape(str(self.transcript))}</a> '
                        f"({len(text)} characters{cut})", html=True)  # fmt: skip
            logger.info(f"<details><summary>serial.log</summary><pre>{html.escape(text[-LOG_LIMIT:])}</pre></details>",
                        html=True)  # fmt: skip
        self.console = None
        self.board = None

    def _say(self, message: str) -> None:
        logger.info(message)

    def _board(self) -> Strategy:
        if self.board is None:
            raise AssertionError("no board: `Open Lab` (suites/__init__.robot) must come first")
        return self.board

    @contextlib.contextmanager
    def _logged(self, what: str) -> Iterator[Strategy]:
        board = self._board()
        start = board.console.mark()
        try:
            yield board
        except PerfgateError as e:
            if isinstance(e, AssertionError | ToolMissing):
                raise
            raise AssertionError(str(e)) from None
        finally:
            seen = board.console.text(start)
            if seen.strip():
                logger.info(f"<details><summary>console during {html.escape(what)} ({len(seen)} characters)"
                            f"</summary><pre>{html.escape(seen[-LOG_LIMIT:])}</pre></details>", html=True)  # fmt: skip

    # ------------------------------------------------------------------------------------------ steps
    @keyword
    def power_cycle_board(self) -> None:
        """Switch the board off and on with the lab's power driver (command, soft reboot, or the operator)."""
        with self._logged("power-cycle") as b:
            b.power_cycle()

    @keyword
    def power_off_board(self) -> None:
        """Close the SSH connection and switch the board off with the lab's power driver: its `off` command (a lab
        with none, or one that can only reboot the board, leaves it on), or the operator asked to (a manual lab)."""
        with self._logged("power off") as b:
            b.power_off()

    @keyword
    def stop_autoboot(self) -> None:
        """Power-cycle the board and stop U-Boot's autoboot countdown at the U-Boot prompt."""
        with self._logged("stop autoboot") as b:
            b.stop_autoboot(b.power_cycle())

    @keyword("Run U-Boot Command")
    def run_uboot_command(self, command: str, timeout: float | None = None) -> str:
        """Type a command at the U-Boot prompt (catching U-Boot first if needed) and return its output."""
        with self._logged(f"U-Boot: {command}") as b:
            out = Commands(b).uboot_command(command, None if timeout is None else float(timeout))
        logger.info(f"=> {command}\n{out}")
        return out

    @keyword
    def boot_to_shell(self) -> None:
        """Boot from U-Boot (or power on and autoboot) to the login prompt, log in, learn the address, open SSH."""
        with self._logged("boot to shell") as b:
            b.transition("shell")

    @keyword
    def log_in_on_console(self) -> None:
        """Log in at the login prompt on the serial console with the board's user and password (its data, or the
        lab's); the board is then at its shell. A refused login fails with the console's answer."""
        with self._logged("login") as b:
            b.login()

    @keyword
    def learn_board_address(self) -> str:
        """Return the board's network address: the lab's `ssh.address`, or (`discover`) read once per boot from
        the board's interfaces on the console, and logged."""
        with self._logged("learn address") as b:
            address = b.network.learn_address()
        logger.info(f"board address: {address}")
        return address

    @keyword("Open SSH To Board")
    def open_ssh_to_board(self) -> None:
        """Open SSHLibrary's connection `board` to the board's address (learnt first if needed), with the lab's
        user, port and password or key."""
        with self._logged("open SSH") as b:
            shell = b.network.open_ssh()
        logger.info(f"SSH open: {shell}")

    @keyword("Run On Board")
    def run_on_board_shell(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        """Run a command on the board's Linux (SSH, or the serial console when it has no network) and return
        its output (stdout and stderr)."""
        return self.run_on_board(command, float(timeout), where)

    @keyword
    def reboot_board(self) -> None:
        """Reboot the board and bring it back to the shell (power-cycle when the lab has a power switch)."""
        with self._logged("reboot") as b:
            b.reboot()

    @keyword("Bring Board To U-Boot")
    def bring_board_to_uboot(self) -> None:
        """Bring the board to the U-Boot prompt from whatever state it is in (power-cycle and stop the autoboot)."""
        with self._logged("bring to U-Boot") as b:
            b.transition("uboot")

    @keyword
    def bring_up_board(self) -> None:
        """Bring the board to its shell for the suites. A board that does not come up (after one power-cycle and
        retry) fails this keyword, and so the suite setup, with the reason; except when U-Boot answered on the way
        (only Linux failed): then the run goes on, the U-Boot suites run, and each suite that needs the shell fails
        at once with the reason."""
        if self.lava is not None:
            self.lava.bring_up()
            return
        try:
            with self._logged("bring-up") as b:
                b.transition("shell")
            logger.console(f"perfgate: {b.name} is up ({b.address or 'serial console'}), {self.lab.banner()}")
        except AssertionError as e:
            self.bring_up_error = str(e)
            logger.console(f"perfgate: BRING-UP FAILED: {e}")
            if not self._board().uboot_seen:
                raise AssertionError(f"bring-up failed: {e}") from None
            logger.error(f"bring-up to the shell failed (U-Boot answers: the U-Boot suites still run): {e}")

    # ------------------------------------------------------------------------------------------ the console
    @keyword("Write To Board Console")
    def write_to_board_console(self, text: str, line_end: bool = True) -> None:
        """Type `text` on the board's serial console (with a line end unless `line_end` is false); `Read Board
        Console Until` then reads what came after it. The gate owns the port (one reader thread that stamps every
        chunk with host time for boot time, and keeps serial.log), so a user suite types and reads through these
        keywords instead of opening the port a second time with SerialLibrary."""
        console = self._board().console
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
        console = self._board().console
        since = console.mark() if self._read_pos is None else self._read_pos
        pattern = re.compile(expected) if _truthy(regexp) else expected
        m = console.expect(pattern, float(timeout), what=expected, since=since)
        self._read_pos = m.end
        return console.text(since, m.end)

    @keyword
    def board_state_should_be(self, state: str) -> None:
        """Fail unless the board is in `state`, as the gate last saw it: one of unknown, off, uboot, booting, login,
        shell, init_sh (perfgate.board.strategy.STATES)."""
        b = self._board()
        if b.state != state:
            raise AssertionError(f"the board is in state {b.state!r}, not {state!r}")

    # ------------------------------------------------------------------------------------------ for the gate
    def run_on_board(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        """Run `command` where it runs (shell, console, uboot, boot) and return the whole output; AssertionError on
        a timeout, ConnectionDropped (BoardLost and AssertionError) on a disconnect, ToolMissing on exit 127."""
        if self.lava is not None:  # served from a LAVA job's log
            return self.lava.run(command, float(timeout), where)
        if where == "uboot":
            return self.uboot_command(command, timeout)
        if where == "boot":
            return self.boot_times(command, timeout)
        with self._logged(f"{where}: {command}") as b:
            out, status = Commands(b).run(command, float(timeout), where)
        if status:
            logger.info(f"`{command}` exit status {status}")
        return out

    def prefetch(self, commands: list[tuple[str, float]]) -> None:
        """(command, timeout) pairs the runner will ask for next: a LAVA lab runs them in one job; others ignore it."""
        if self.lava is not None:
            self.lava.prefetch(commands)

    def console_mark(self) -> int:
        if self.lava is not None:
            self.lava.unsupported("console")
        return self._board().console.mark()

    def console_text(self, since: int) -> str:
        return self._board().console.text(since)

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str],
                      quiet: float = 0.0) -> int:  # fmt: skip
        """perfgate.board.commands.Commands.await_console; what the console showed goes to the log."""
        with self._logged(f"console: waiting for {', '.join(patterns)}") as b:
            return Commands(b).await_console(patterns, since=since, timeout=float(timeout), abort=abort,
                                             quiet=float(quiet))  # fmt: skip

    def uboot_command(self, command: str, timeout: float = 120.0, setup: tuple[str, ...] = ()) -> str:
        """`setup`: commands that must have run at this U-Boot since it last started (run again when it did)."""
        if self.lava is not None:
            self.lava.unsupported("U-Boot")
        with self._logged(f"U-Boot: {command}") as b:
            return Commands(b).uboot_command(command, float(timeout), setup=setup)

    def boot_times(self, command: str, timeout: float = 600.0) -> str:
        """`boot-time <variant>`: boot BOOT_CYCLES times and return the host-timestamped console log."""
        variant = command.split()[-1] if command.split() else "default"
        if variant not in ("default", "init_sh"):
            raise AssertionError(f"unknown boot variant in {command!r} (default, init_sh)")
        try:
            cycles = runvars.whole("BOOT_CYCLES", _var("BOOT_CYCLES"), runvars.BOOT_CYCLES)
        except PerfgateError as e:
            raise AssertionError(str(e)) from None
        note = f"boot time ({variant}) over {cycles} boot cycles (BOOT_CYCLES; the guides used 20)"
        logger.info(note)
        if cycles < 20:
            logger.console(f"perfgate: {note}")
        with self._logged(command) as b:
            text = boottime.capture(b, variant, cycles)
        return text

    def board_address(self) -> str:
        """The board's address as the gate knows it: learned once (bring-up) and reused, so that nothing is typed
        on the console per test; learned now only when it is not known yet."""
        if self.lava is not None:
            return self.lava.board_address()
        b = self._board()
        return b.address or self.learn_board_address()

    def tester_address(self) -> str:
        """The network peer as the board sees it (lab `tester.address`; `host`: this host's address towards it)."""
        if self.lava is not None:
            return self.lava.tester_address()
        b = self._board()
        if b.state == "shell" or not b.networked:
            return b.network.tester_address()
        b.transition("shell")
        return b.network.tester_address()
