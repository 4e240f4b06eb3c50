"""The access of every kind that reaches the board through its serial console and a power driver (own hardware,
sim, qemu, a labgrid place, a labgrid environment's target): `ConsoleKind.start` launches the board when the lab
starts it (`start:`), opens the console the kind names, builds the board strategy (perfgate.board.strategy) and
returns a `ConsoleAccess`. A kind says only how it reaches the console and the power (`reach`).

Every step logs the console text it saw (the whole transcript goes to serial.log).
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from robot.api import logger

from perfgate import runvars
from perfgate.board import boottime
from perfgate.board.commands import Commands
from perfgate.board.console import Console, ConsoleDriver
from perfgate.board.labfile import expand
from perfgate.board.launcher import Launcher
from perfgate.board.power import PowerDriver
from perfgate.board.strategy import Board as Strategy
from perfgate.errors import PerfgateError, ToolMissing
from perfgate.labkinds.base import Access, LabKind, Opening
from perfgate.robot.robotvars import var as _var

LOG_LIMIT = 200_000  # characters of console text logged per step (the file has everything)


@dataclass
class Reach:
    """How a kind reaches its board: the console (None: the lab's `serial.port`), the power driver, made once the
    console is open (None, or None made: the lab's `power`), and what to give back when the access closes."""

    console: Callable[[dict], ConsoleDriver] | None = None  # the lab's `serial` (templates filled) -> a console
    power: Callable[[], PowerDriver | None] | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)


class ConsoleKind(LabKind):
    def reach(self, opening: Opening) -> Reach:
        """The console and power this kind gives; the default: the lab's own serial port and power commands."""
        return Reach()

    def start(self, opening: Opening) -> ConsoleAccess:
        lab, context = opening.lab, opening.context
        start = str(lab.data.get("start_options") or lab.data.get("start") or "")
        if context.get("faults") and "{faults}" not in start:
            message = (f"variable FAULTS: LAB={lab.name} cannot inject faults (only the simulated board can), "
                       f"so {context['faults']!r} would match nothing")  # fmt: skip
            logger.error(f"perfgate: {message}")
            raise AssertionError(message)
        closers: list[Callable[[], None]] = []  # the console first, the kind's next, the board process last
        launched: list[Callable[[], None]] = []
        try:
            speed, launcher = 1.0, None
            if lab.launched:
                launcher = Launcher(lab, context, log_dir=opening.out_dir)
                launched.append(lambda: _stop(launcher, lab.name))
                try:
                    state = launcher.start()
                except AssertionError as e:  # the board process refused its input (FAULTS) or died: said, loud
                    logger.error(f"perfgate: {e}")
                    raise
                context = launcher.context
                speed = float(state.get("speed") or (context.get("sim_speed") or 1))
                logger.info(f"started the {lab.name} board: `{' '.join(launcher.command())}`; state {state}")
            reach = self.reach(opening)
            closers += reach.closers
            try:
                serial = expand(lab.data["serial"], context)
            except PerfgateError as e:
                raise AssertionError(str(e)) from None
            if launcher and launcher.state.get("serial"):
                serial["port"] = str(launcher.state["serial"])
            if reach.console is not None:
                console = reach.console(serial)
            else:
                console = Console(serial["port"], int(serial.get("baud", 115200)), opening.transcript)
            closers.insert(0, console.close)
            console.open()
            power = reach.power() if reach.power else None
            board = Strategy(opening.board, opening.profile, lab, console, context, log=opening.log, speed=speed,
                             power=power, ssh_library=opening.ssh_library)  # fmt: skip
        except BaseException:
            for close in closers + launched:
                with contextlib.suppress(Exception):
                    close()
            raise
        if speed != 1:
            floor = board.timeouts.floor
            logger.info(f"the {lab.name} board runs {speed:g}x faster than real time: waits are divided by "
                        f"{speed:g} (never below {floor:g} s) and boot times multiplied by it")  # fmt: skip
        return ConsoleAccess(board, closers + launched)


def _stop(launcher: Launcher, name: str) -> None:
    status = launcher.stop()
    logger.info(f"stopped the {name} board (exit status {status})")


class ConsoleAccess(Access):
    """A board behind its serial console, driven by the board strategy (off -> uboot -> shell)."""

    def __init__(self, board: Strategy, closers: list[Callable[[], None]]) -> None:
        self.board = board
        self.name = board.name
        self.lab = board.lab
        self.console = board.console
        self.closers = closers  # the console first, then the kind's (a place, a target), the board process last
        self.bring_up_error = ""

    @contextlib.contextmanager
    def strategy(self, what: str) -> Iterator[Strategy]:
        start = self.console.mark()
        try:
            yield self.board
        except PerfgateError as e:
            if isinstance(e, AssertionError | ToolMissing):
                raise
            raise AssertionError(str(e)) from None
        finally:
            seen = self.console.text(start)
            if seen.strip():
                logger.info(f"<details><summary>console during {html.escape(what)} ({len(seen)} characters)"
                            f"</summary><pre>{html.escape(seen[-LOG_LIMIT:])}</pre></details>", html=True)  # fmt: skip

    def state(self) -> str:
        return self.board.state

    # ------------------------------------------------------------------------------------------ commands
    def run(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        if where == "uboot":
            return self.uboot(command, timeout)
        if where == "boot":
            return self.boot_times(command, timeout)
        with self.strategy(f"{where}: {command}") as b:
            out, status = Commands(b).run(command, float(timeout), where)
        if status:
            logger.info(f"`{command}` exit status {status}")
        return out

    def uboot(self, command: str, timeout: float = 120.0, setup: tuple[str, ...] = ()) -> str:
        """`setup`: commands that must have run at this U-Boot since it last started (run again when it did)."""
        with self.strategy(f"U-Boot: {command}") as b:
            return Commands(b).uboot_command(command, None if timeout is None else float(timeout), setup=setup)

    def boot_times(self, command: str, timeout: float = 600.0) -> str:
        """`boot-time <variant> [<cycles>]`: boot that many times (the workload's count, from the guide; else
        BOOT_CYCLES) and return the host-timestamped console log."""
        words = command.split()
        variant = words[1] if len(words) > 1 else "default"
        if variant not in ("default", "init_sh"):
            raise AssertionError(f"unknown boot variant in {command!r} (default, init_sh)")
        try:
            given = words[2] if len(words) > 2 else _var("BOOT_CYCLES")
            cycles = runvars.whole("BOOT_CYCLES", given, runvars.BOOT_CYCLES)
        except PerfgateError as e:
            raise AssertionError(str(e)) from None
        logger.info(f"boot time ({variant}) over {cycles} boot cycles")
        with self.strategy(command) as b:
            return boottime.capture(b, variant, cycles)

    # ------------------------------------------------------------------------------------------ the console
    def console_mark(self) -> int:
        return self.console.mark()

    def console_text(self, since: int) -> str:
        return self.console.text(since)

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str],
                      quiet: float = 0.0) -> int:  # fmt: skip
        """perfgate.board.commands.Commands.await_console; what the console showed goes to the log."""
        with self.strategy(f"console: waiting for {', '.join(patterns)}") as b:
            return Commands(b).await_console(patterns, since=since, timeout=float(timeout), abort=abort,
                                             quiet=float(quiet))  # fmt: skip

    # ------------------------------------------------------------------------------------------ addresses
    def learn_address(self) -> str:
        with self.strategy("learn address") as b:
            address = b.network.learn_address()
        logger.info(f"board address: {address}")
        return address

    def board_address(self) -> str:
        """Learned once (bring-up) and reused, so that nothing is typed on the console per test."""
        return self.board.address or self.learn_address()

    def tester_address(self) -> str:
        """The network peer as the board sees it (lab `tester.address`; `host`: this host's address towards it)."""
        b = self.board
        if b.state != "shell" and b.networked:
            b.transition("shell")
        return b.network.tester_address()

    # ------------------------------------------------------------------------------------------ the board's life
    def bring_up(self) -> None:
        """To the shell. A board that does not come up (after one power-cycle and retry) fails, unless U-Boot
        answered on the way (only Linux failed): then the U-Boot suites still run."""
        try:
            with self.strategy("bring-up") as b:
                b.transition("shell")
            logger.console(f"perfgate: {b.name} is up ({b.address or 'serial console'}), {self.lab.banner()}")
        except AssertionError as e:
            self.bring_up_error = str(e)
            logger.console(f"perfgate: BRING-UP FAILED: {e}")
            if not self.board.uboot_seen:
                raise AssertionError(f"bring-up failed: {e}") from None
            logger.error(f"bring-up to the shell failed (U-Boot answers: the U-Boot suites still run): {e}")

    def reboot(self) -> None:
        with self.strategy("reboot") as b:
            b.reboot()

    def close(self) -> None:
        self.board.ssh_driver.close()
        closers, self.closers = self.closers, []
        for close in closers:
            close()
