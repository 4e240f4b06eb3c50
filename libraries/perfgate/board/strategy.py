"""The board strategy: a small state machine off -> uboot -> shell (after labgrid's UBootStrategy).

It owns no protocol of its own: each transition asks the drivers (power.py, console.py, uboot.py, shell.py, ssh.py)
for one short step. Suites only ask for a state (`transition("shell")`) or run a command where it runs
(`run(cmd, where="uboot")`).

Faults end well: every wait has a timeout and a message; when a bring-up fails and the lab can power-cycle the
board, it is power-cycled and retried once; if that fails too, the failure is remembered and every later request for
that state fails at once with the same reason, so the rest of the run goes on in bounded time.
"""

from __future__ import annotations

import os
import re
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from perfgate.board.console import ConsoleDriver, ConsoleTimeout, await_lines
from perfgate.board.lab import Lab, expand
from perfgate.board.power import ManualPower, PowerDriver, power_from_lab
from perfgate.board.shell import LoginRefused, ShellDriver
from perfgate.board.ssh import SshDriver, SshShell
from perfgate.board.timeouts import TIMEOUTS, Timeouts
from perfgate.board.traits import Traits, no_uboot_reason
from perfgate.board.uboot import UBootDriver, UBootRestarted, garbage_note
from perfgate.errors import ToolMissing

STATES = ("unknown", "off", "uboot", "booting", "login", "shell", "init_sh")
NOT_FOUND = re.compile(r"(?:^|\n)(?:-?sh|bash|ash|\S+): (?:line \d+: )?(\S+): (?:command )?not found")
__all__ = ["TIMEOUTS", "Board", "BringUpError", "Timeouts", "garbage_note"]


class BringUpError(AssertionError):
    """The board did not reach a state, even after a power-cycle and a retry."""


@dataclass
class Board:
    """One board in one lab. `log` receives what the gate should say. The drivers are attributes: `power`,
    `uboot_driver`, `shell` (Linux on the console), `ssh_driver`; replace one (e.g. a labgrid power driver) before
    the first transition."""

    name: str
    profile: dict
    lab: Lab
    console: ConsoleDriver
    context: dict[str, Any] = field(default_factory=dict)
    log: Callable[[str], None] = print
    state: str = "unknown"
    address: str | None = None
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
        if self.power is None:
            self.power = power_from_lab(self.lab, self.context, self.timeouts.power, self._soft_reset)
        login = self.lab.data.get("login") or {}
        user = login.get("user") or self.traits.user
        self.uboot_driver = UBootDriver(self.console, self.traits)
        self.shell = ShellDriver(self.console, self.traits, user, login.get("password_env"))
        self.ssh_driver = self._ssh_from_lab(user)

    def _ssh_settings(self) -> dict:
        ssh = self.lab.data.get("ssh")
        return ssh if isinstance(ssh, dict) else {}  # `ssh: none`: a console-only lab

    def _ssh_from_lab(self, user: str) -> SshDriver:
        return SshDriver.from_lab(self.lab, self.context, user, self.shell.password, self.timeouts.ssh, log=self.log,
                                  library=self.ssh_library)  # fmt: skip

    # -- data ------------------------------------------------------------------------------------
    @property
    def uboot(self) -> dict:
        return self.profile.get("uboot") or {}

    @property
    def linux(self) -> dict:
        return self.profile.get("linux") or {}

    @property
    def networked(self) -> bool:
        """Workloads over SSH: the board has a network and the lab reaches it (not `ssh: none`)."""
        return bool(self.profile.get("network", True)) and not self.lab.console_only

    @property
    def ssh(self) -> SshShell | None:
        return self.ssh_driver.shell

    def describe(self) -> str:
        return f"{self.name} in {self.lab.banner()}"

    # -- power -----------------------------------------------------------------------------------
    def _soft_reset(self, _: str) -> None:
        """No power switch: reset from wherever the board is (asking the console first when that is not known)."""
        state = self.state if self.state in ("uboot", "shell", "init_sh", "login") else self.probe()
        if state == "login":
            self.shell.login(self.timeouts.login)
            state = "shell"
        if state == "uboot":
            self.uboot_driver.reset()
        elif state in ("shell", "init_sh"):
            self.shell.reboot(init_sh=state == "init_sh")
        else:
            self.console.write("\x03\r")
            self.shell.reboot()
            time.sleep(0.5)
            self.uboot_driver.reset()

    def probe(self, timeout: float = 2.0) -> str:
        """Where the board is, from what it answers to a line end: uboot, login, shell or unknown."""
        since = self.console.sendline("")
        t = self.traits
        prompts = [t.uboot_prompt_re(), t.login_prompt_re(), t.shell_prompt_re(), t.prompt_re(t.sh_prompt)]
        try:
            m = self.console.expect(prompts, timeout, what="any prompt", since=since)
        except ConsoleTimeout:
            return "unknown"
        return ("uboot", "login", "shell", "init_sh")[m.index]

    def power_cycle(self) -> int:
        """Cycle the power; returns the console offset from which the new boot is read."""
        self._drop_ssh()
        self.address = None
        since = self.console.mark()
        assert self.power is not None
        self.log(f"power-cycle ({self.power.name})")
        self.power.cycle()
        self.state = "booting"
        return since

    def power_off(self) -> None:
        self._drop_ssh()
        assert self.power is not None
        self.power.off()
        self.state = "off"

    # -- U-Boot ----------------------------------------------------------------------------------
    def _autoboot_timeout(self) -> float:
        if isinstance(self.power, ManualPower):
            return float(self.lab.data.get("manual_timeout") or 300)
        return self.timeouts.autoboot

    def wait_autoboot(self, since: int, booting: bool = False) -> bool:
        """Wait for the autoboot line (nothing to wait for on a board that prints none: Falcon mode, an SBL).
        `booting`: the board is left to autoboot, so its kernel starting ends the wait too (the autoboot line was
        garbled by line noise: the board still boots, and the boot is not failed for a line nobody needs; the
        U-Boot suites still try to catch U-Boot). True when the autoboot line showed."""
        if self.traits.has_uboot:
            manual = isinstance(self.power, ManualPower)  # the operator may take a while to press the switch
            silence = None if manual else self.timeouts.silence
            m = self.uboot_driver.wait_autoboot(since, self._autoboot_timeout(), silence=silence, kernel=booting)
            if m.index == 1:
                noise = garbage_note(self.console.text(since, m.start))
                self.log(f"U-Boot's autoboot line did not show, but the kernel started (`{m.text}`){noise}: "
                         "going on with the boot")  # fmt: skip
            self.uboot_seen = True  # U-Boot ran (it loaded the kernel); only its line was lost
            return m.index == 0
        return False

    def stop_autoboot(self, since: int) -> None:
        """Wait for the autoboot line, type a key until the U-Boot prompt shows."""
        reason = no_uboot_reason(self.profile)
        if reason:
            raise BringUpError(reason)
        self.wait_autoboot(since)
        self.uboot_driver.interrupt(self.timeouts.uboot_command)
        self._fresh_uboot()

    def _fresh_uboot(self) -> None:
        """U-Boot is at a prompt it has just reached after starting (a power-cycle, a reset): nothing typed at an
        earlier prompt holds (a probed SPI flash, the selected MMC device)."""
        self.state = "uboot"
        self.uboot_session += 1
        self.uboot_ran.clear()

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
        if "uboot" in self.broken:
            raise BringUpError(f"U-Boot stopped answering earlier in this run: {self.broken['uboot']}")
        if self.state != "uboot":
            self.transition("uboot")
        self._ensure_setup(setup, command, timeout)
        limit = self.timeouts.uboot_command if timeout is None else self.timeouts.of(timeout)
        since = self.console.mark()
        try:
            out = self.uboot_driver.command(command, limit)
        except UBootRestarted as e:
            self._fresh_uboot()
            if not retry:
                raise BringUpError(f"`{command}` did not complete: {e} (also on the first attempt)") from None
            self.log(f"{e}; running `{command}` again" + (" after the medium's setup" if setup else ""))
            return self.uboot_command(command, timeout, retry=False, setup=setup)
        except ConsoleTimeout as e:
            self.state = "unknown"
            try:
                self.uboot_driver.resync(since, min(limit, 2.0))  # U-Boot answers Ctrl-C at once
            except UBootRestarted as again:
                self._fresh_uboot()
                if retry:
                    self.log(f"{e}; {again}; running `{command}` again" + (" after the medium's setup" if setup
                                                                                else ""))  # fmt: skip
                    return self.uboot_command(command, timeout, retry=False, setup=setup)
                raise ConsoleTimeout(f"{e} (twice; {again})") from None
            except ConsoleTimeout as silent:
                assert self.power is not None
                if retry and self.power.can_cycle:
                    self.log(f"{e}; {silent}; power-cycling and retrying `{command}` once"
                             + (" after the medium's setup" if setup else ""))  # fmt: skip
                    return self.uboot_command(command, timeout, retry=False, setup=setup)
                self.broken["uboot"] = str(e)
                raise e from None
            self.state = "uboot"  # U-Boot answered Ctrl-C at its prompt: the same U-Boot, its setup still holds
            if retry:
                self.log(f"{e}; U-Boot answered Ctrl-C at its prompt (the prompt after the command was lost: line "
                         f"noise?): running `{command}` again")  # fmt: skip
                return self.uboot_command(command, timeout, retry=False, setup=setup)
            raise ConsoleTimeout(f"{e} (twice; U-Boot answers Ctrl-C at its prompt, but no clean prompt came "
                                 "after the command: line noise?)") from None  # fmt: skip
        self.uboot_ran.add(command)
        self.uboot_ever.add(command)
        return out

    def _ensure_setup(self, setup: Sequence[str], command: str, timeout: float | None) -> None:
        """Run `setup` at the U-Boot prompt unless every one of its commands ran since U-Boot last started."""
        for _ in range(3):
            if all(c in self.uboot_ran for c in setup):
                return
            session = self.uboot_session
            what = "; ".join(f"`{c}`" for c in setup)
            if any(c in self.uboot_ever for c in setup):
                self.log(f"U-Boot started afresh since the medium's setup ran: running {what} again before "
                         f"`{command}`")  # fmt: skip
            else:
                self.log(f"running the medium's setup {what} before `{command}`")
            for c in setup:
                try:
                    self.uboot_command(c, timeout)
                except AssertionError as e:
                    raise BringUpError(f"the medium's setup `{c}` did not run before `{command}`: {e}") from None
            if self.uboot_session == session:
                return
        raise BringUpError(f"U-Boot started afresh three times while the medium's setup {what} ran: `{command}` "
                           "was not run")  # fmt: skip

    # -- Linux -----------------------------------------------------------------------------------
    def boot(self, variant: str = "default", since: int | None = None) -> tuple[int, int]:
        """From the U-Boot prompt (or an autobooting board when `since` is given): boot, and wait for the login
        prompt (default) or the shell prompt (init_sh). Returns the console offsets of the kernel start and of
        the prompt."""
        if since is None:
            if variant == "init_sh":
                for cmd in self.traits.init_sh_setup:
                    self.uboot_command(self.traits.fill(cmd))
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
            self.shell.login(self.timeouts.login)
        except LoginRefused as e:
            raise BringUpError(str(e)) from None
        self.state = "shell"

    def learn_address(self, refresh: bool = False) -> str:
        """The board's address: the lab's ssh.address, or read from the console once per boot and then reused
        (a power-cycle forgets it: DHCP may give another one)."""
        configured = str(self._ssh_settings().get("address", "discover"))
        if configured != "discover":
            self.address = expand(configured, self.context)
            return self.address
        if self.address and not refresh:
            return self.address
        found, out = self.shell.addresses(self.timeouts.login, loopback_ok=self.lab.virtual)
        if not found:
            raise BringUpError(f"the board reports no IPv4 address on its console (`{self.traits.address_command}` "
                               f"printed {out.strip()[:300]!r}): is the network up?")  # fmt: skip
        self.address = found[0]
        return self.address

    def open_ssh(self) -> SshShell:
        if not self.address:
            self.learn_address()
        assert self.address
        self.ssh_driver.password = self.shell.password  # read when used: the environment may change
        return self.ssh_driver.open(self.address)

    def tester_address(self) -> str:
        """The network peer (this host) as the board sees it: the lab's tester.address, or for `host` the local
        address of the gate's SSH connection to the board (the interface that reaches it)."""
        configured = str((self.lab.data.get("tester") or {}).get("address", "host"))
        if configured != "host":
            return expand(configured, self.context)
        if os.environ.get("PERFGATE_TESTER"):
            return os.environ["PERFGATE_TESTER"]
        local = self.ssh_driver.local_address()
        if local:
            return local
        if self.address:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((self.address, 9))  # no packet is sent: only the route is looked up
                return str(s.getsockname()[0])
        raise BringUpError("the tester address is `host` but the board's address is not known yet")

    def _drop_ssh(self) -> None:
        self.ssh_driver.close()

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
                    self.open_ssh()
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
            self.log(f"board address {self.learn_address()}")
            self.open_ssh()
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

    # -- commands --------------------------------------------------------------------------------
    def run(self, command: str, timeout: float = 600.0, where: str = "shell") -> tuple[str, int]:
        """Run a command where it runs: `shell` (SSH, or the console without network), `console`, `uboot`."""
        if where == "uboot":
            return self.uboot_command(command, timeout), 0
        if where not in ("shell", "console"):
            raise ValueError(f"cannot run a command at {where!r} (shell, console, uboot, boot)")
        self.transition("shell")
        limit = self.timeouts.of(timeout)
        if where == "shell" and self.networked:
            if not self.ssh_driver.connected:
                self.open_ssh()
            out, status = self.ssh_driver.run(command, limit)
        else:
            out, status = self.shell.run(command, limit)
        if status == 127 and NOT_FOUND.search(out):
            raise ToolMissing(f"`{command}`: {NOT_FOUND.search(out).group(0).strip()} (exit status 127)")
        return out, status

    def await_console(self, patterns: list[str], since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0) -> int:  # fmt: skip
        """perfgate.board.console.await_lines, `timeout` in seconds of board time (divided by a fast board's speed)."""
        return await_lines(self.console, patterns, since, timeout, abort, quiet, limit=self.timeouts.of(timeout))

    def timed_boot(self, variant: str) -> tuple[float, int, int, int]:
        """Power-cycle and boot once (default: autoboot to the login prompt; init_sh: stop autoboot, set the boot
        arguments, boot to the shell prompt). Returns (host start time, console offsets: boot, kernel, prompt)."""
        t0 = time.monotonic()
        since = self.power_cycle()
        if variant == "init_sh":
            self.stop_autoboot(since)
            kstart, kend = self.boot("init_sh")
        else:
            self.wait_autoboot(since, booting=True)
            kstart, kend = self.boot("default", since=since)
        return t0, since, kstart, kend
