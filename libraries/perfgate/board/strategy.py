"""The board strategy: a small state machine off -> uboot -> shell (after labgrid's UBootStrategy).

It owns no protocol of its own: each transition asks the drivers (power.py, console.py, uboot.py, shell.py, ssh.py,
network.py) for one short step. It only moves between states: running a command where it runs is
perfgate.board.commands (which asks the strategy for the state first), the addresses are the network driver's
(`board.network`), the soft reset of a board without a power switch is perfgate.board.reset's.

Faults end well: every wait has a timeout and a message; when a bring-up fails and the lab can power-cycle the
board, it is power-cycled and retried once; if that fails too, the failure is remembered and every later request for
that state fails at once with the same reason, so the rest of the run goes on in bounded time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfgate.board.console import ConsoleDriver
from perfgate.board.errors import BringUpError
from perfgate.board.labfile import Lab
from perfgate.board.network import NetworkDriver
from perfgate.board.power import ManualPower, PowerDriver, power_from_lab
from perfgate.board.reset import SoftReset
from perfgate.board.shell import LoginRefused, ShellDriver
from perfgate.board.ssh import SshDriver, SshShell
from perfgate.board.timeouts import TIMEOUTS, Timeouts
from perfgate.board.traits import Traits, no_uboot_reason
from perfgate.board.uboot import UBootDriver, garbage_note

STATES = ("unknown", "off", "uboot", "booting", "login", "shell", "init_sh")
__all__ = ["TIMEOUTS", "Board", "BringUpError", "Timeouts", "garbage_note"]


@dataclass
class Board:
    """One board in one lab. `log` receives what the gate should say. The drivers are attributes: `power`,
    `uboot_driver`, `shell` (Linux on the console), `ssh_driver`, `network` (the addresses, SSH opened); replace
    one (e.g. a labgrid power driver) before the first transition."""

    name: str
    profile: dict
    lab: Lab
    console: ConsoleDriver
    context: dict[str, Any] = field(default_factory=dict)
    log: Callable[[str], None] = print
    state: str = "unknown"
    broken: dict[str, str] = field(default_factory=dict)
    speed: float = 1.0
    power: PowerDriver | None = None
    kernel_marker: str = ""  # the kernel start marker the last boot showed
    uboot_seen: bool = False  # U-Boot printed its autoboot line during this run
    uboot_session: int = 0  # how many times the gate caught U-Boot at a fresh prompt (after a start)
    uboot_ran: set[str] = field(default_factory=set)  # commands completed at the U-Boot prompt since it started
    uboot_ever: set[str] = field(default_factory=set)  # commands completed at any U-Boot prompt of this run
    ssh_library: Any = None  # the run's SSHLibrary instance (None: the one Robot has, or a private one)

    def __post_init__(self) -> None:
        t = {**(self.profile.get("timeouts") or {}), **(self.lab.data.get("timeouts") or {})}
        raw = {k: float(v) for k, v in t.items() if k in TIMEOUTS}
        self.timeouts = Timeouts(raw, self.speed, float(self.lab.data.get("min_timeout") or 5))
        self.traits = Traits.from_profile(self.profile)
        login = self.lab.data.get("login") or {}
        user = login.get("user") or self.traits.user
        self.uboot_driver = UBootDriver(self.console, self.traits)
        self.shell = ShellDriver(self.console, self.traits, user, login.get("password_env"))
        self.ssh_driver = SshDriver.from_lab(self.lab, self.context, user, self.shell.password, self.timeouts.ssh,
                                             log=self.log, library=self.ssh_library)  # fmt: skip
        self.network = NetworkDriver(self.lab, self.context, self.shell, self.ssh_driver, self.timeouts.login)
        if self.power is None:
            reset = SoftReset(self.console, self.uboot_driver, self.shell, lambda: self.state, self.timeouts.login)
            self.power = power_from_lab(self.lab, self.context, self.timeouts.power, reset)

    @property
    def networked(self) -> bool:
        """Workloads over SSH: the board has a network and the lab reaches it (not `ssh: none`)."""
        return bool(self.profile.get("network", True)) and not self.lab.console_only

    @property
    def ssh(self) -> SshShell | None:
        return self.ssh_driver.shell

    @property
    def address(self) -> str | None:
        """The board's address as last learned (perfgate.board.network); None until then and after a power-cycle."""
        return self.network.address

    # -- power -----------------------------------------------------------------------------------
    def power_cycle(self) -> int:
        """Cycle the power; returns the console offset from which the new boot is read."""
        self.network.forget()
        since = self.console.mark()
        assert self.power is not None
        self.log(f"power-cycle ({self.power.name})")
        self.power.cycle()
        self.state = "booting"
        return since

    def power_off(self) -> None:
        self.ssh_driver.close()
        assert self.power is not None
        self.power.off()
        self.state = "off"

    # -- U-Boot ----------------------------------------------------------------------------------
    def wait_autoboot(self, since: int, booting: bool = False) -> bool:
        """Wait for the autoboot line (nothing to wait for on a board that prints none: Falcon mode, an SBL).
        `booting`: the board is left to autoboot, so its kernel starting ends the wait too (the autoboot line was
        garbled by line noise: the board still boots, and the boot is not failed for a line nobody needs; the
        U-Boot suites still try to catch U-Boot). True when the autoboot line showed."""
        if not self.traits.has_uboot:
            return False
        manual = isinstance(self.power, ManualPower)  # the operator may take a while to press the switch
        limit = float(self.lab.data.get("manual_timeout") or 300) if manual else self.timeouts.autoboot
        m = self.uboot_driver.wait_autoboot(since, limit, silence=None if manual else self.timeouts.silence,
                                            kernel=booting)  # fmt: skip
        if m.index == 1:
            noise = garbage_note(self.console.text(since, m.start))
            self.log(f"U-Boot's autoboot line did not show, but the kernel started (`{m.text}`){noise}: "
                     "going on with the boot")  # fmt: skip
        self.uboot_seen = True  # U-Boot ran (it loaded the kernel); only its line was lost
        return m.index == 0

    def stop_autoboot(self, since: int) -> None:
        """Wait for the autoboot line, type a key until the U-Boot prompt shows."""
        reason = no_uboot_reason(self.profile)
        if reason:
            raise BringUpError(reason)
        self.wait_autoboot(since)
        self.uboot_driver.interrupt(self.timeouts.uboot_command)
        self.fresh_uboot()

    def fresh_uboot(self) -> None:
        """U-Boot is at a prompt it has just reached after starting (a power-cycle, a reset): nothing typed at an
        earlier prompt holds (a probed SPI flash, the selected MMC device)."""
        self.state = "uboot"
        self.uboot_session += 1
        self.uboot_ran.clear()

    # -- Linux -----------------------------------------------------------------------------------
    def boot(self, variant: str = "default", since: int | None = None) -> tuple[int, int]:
        """From the U-Boot prompt (its boot arguments set for `variant`), or an autobooting board when `since` is
        given: boot, and wait for the login prompt (default) or the shell prompt (init_sh). Returns the console
        offsets of the kernel start and of the prompt."""
        if since is None:
            since = self.uboot_driver.boot()
        self.state = "booting"
        silence = self.timeouts.silence
        start = self.shell.wait_kernel(since, self.timeouts.boot, silence=silence)
        if start.text != self.kernel_marker:
            self.log(f"kernel start marker: `{start.text}` (boot time is measured from it)")
        self.kernel_marker = start.text
        end = self.shell.wait_prompt(start.end, self.timeouts.boot, init_sh=variant == "init_sh",
                                     poke=self.timeouts.poke, silence=silence, after=f"`{start.text}`")  # fmt: skip
        self.state = "init_sh" if variant == "init_sh" else "login"
        return start.start, end.start

    def login(self) -> None:
        try:
            retyped = self.shell.login(self.timeouts.login)
        except LoginRefused as e:
            raise BringUpError(str(e)) from None
        if retyped:
            self.log(f"a fresh login prompt came after the user name (the getty restarted and lost it): typed it "
                     f"again{f' {retyped} times' if retyped > 1 else ''}")  # fmt: skip
        self.state = "shell"

    # -- transitions -----------------------------------------------------------------------------
    def _to_uboot(self) -> None:
        t0 = time.monotonic()
        self.stop_autoboot(self.power_cycle())
        self.log(f"autoboot stopped at the U-Boot prompt after {time.monotonic() - t0:.2f} s")

    def _to_shell(self) -> None:
        if self.state == "shell":  # logged in, but SSH went away: reconnect before booting again
            try:
                self.shell.ready(self.timeouts.login)
                if self.networked:
                    self.network.open_ssh()
                return
            except AssertionError as e:
                self.log(f"the shell does not answer ({e}); booting again")
                self.state = "unknown"
        t0 = time.monotonic()
        if self.state == "uboot":
            self.boot("default")
        elif self.state != "login":
            since = self.power_cycle()
            if self.traits.has_uboot:
                if self.wait_autoboot(since, booting=True):  # U-Boot is alive; let it autoboot as the board does
                    self.log(f"U-Boot autoboot prompt after {time.monotonic() - t0:.2f} s: letting it boot")
            else:
                self.log("the board data names no autoboot line (Falcon mode or an SBL): waiting for the kernel")
            self.boot("default", since=since)
        self.log(f"login prompt after {time.monotonic() - t0:.2f} s")
        self.login()
        self.log(f"logged in on the console after {time.monotonic() - t0:.2f} s")
        if self.networked:
            self.log(f"board address {self.network.learn_address()}")
            self.network.open_ssh()
            self.log(f"SSH open ({self.ssh}) after {time.monotonic() - t0:.2f} s")

    def reboot(self) -> None:
        """Reboot (the lab's power driver: a power-cycle, `reboot` typed, or the operator) and come back to the
        shell; a reboot that does not reach the login prompt is handled by the bring-up and its one retry."""
        since = self.power_cycle()
        try:
            self.wait_autoboot(since, booting=True)
            self.boot("default", since=since)
        except AssertionError as e:
            self.log(f"reboot did not reach the login prompt: {e}")
            self.state = "unknown"
        self.transition("shell")

    def transition(self, target: str) -> None:
        """Bring the board to `uboot` or `shell`; one power-cycle and retry when the lab can cycle the power."""
        if target not in ("uboot", "shell"):
            raise ValueError(f"unknown board state {target!r} (uboot, shell)")
        if target in self.broken:
            raise BringUpError(f"the board could not be brought to the {target} earlier in this run: "
                               f"{self.broken[target]}")  # fmt: skip
        if target == "uboot" and not self.traits.has_uboot:
            raise BringUpError(str(no_uboot_reason(self.profile)))
        if self.state == target and (target != "shell" or not self.networked or self.ssh_driver.connected):
            return
        step = self._to_uboot if target == "uboot" else self._to_shell
        started = time.monotonic()
        assert self.power is not None
        try:
            step()
        except AssertionError as first:
            self.log(f"bring-up to {target} failed: {first}")
            if not self.power.can_cycle:
                self.broken[target] = str(first)
                self.state = "unknown"
                raise BringUpError(f"board did not reach the {target}: {first} (the lab has no power switch: "
                                   "no retry)") from None  # fmt: skip
            self.log(f"power-cycling and retrying the bring-up to {target} once")
            self.state = "unknown"
            try:
                step()
            except AssertionError as second:
                self.broken[target] = f"{second} (also before a power-cycle and one retry: {first})"
                self.state = "unknown"
                raise BringUpError(f"board did not reach the {target} after a power-cycle and one retry: {second}"
                                   ) from None  # fmt: skip
        self.log(f"board in {target} after {time.monotonic() - started:.2f} s")
