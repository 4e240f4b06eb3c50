"""The board strategy: a small state machine off -> uboot -> shell (after labgrid's UBootStrategy).

Each transition is one short step that uses the driver it needs: power (command, soft, manual), the console
(autoboot, U-Boot prompt, kernel, login), the shell (SSH, or the console when the board has no network). Suites only
ask for a state (`transition("shell")`) or run a command where it runs (`run(cmd, where="uboot")`).

Faults end well: every wait has a timeout and a message; when a bring-up fails and the lab can power-cycle the
board, it is power-cycled and retried once; if that fails too, the failure is remembered and every later request for
that state fails at once with the same reason, so the rest of the run goes on in bounded time.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfgate.board.console import Console, ConsoleTimeout
from perfgate.board.lab import Lab, expand
from perfgate.board.power import CommandPower, ManualPower, SoftPower
from perfgate.board.shell import ConsoleShell, SshShell
from perfgate.errors import ToolMissing
from perfgate.tools.boot import stamp

STATES = ("unknown", "off", "uboot", "booting", "login", "shell", "init_sh")
NOT_FOUND = re.compile(r"(?:^|\n)(?:-?sh|bash|ash|\S+): (?:line \d+: )?(\S+): (?:command )?not found")


def garbage_note(text: str) -> str:
    """A hint when the console shows bytes that are not text (line noise, a wrong baud rate)."""
    bad = text.count("\ufffd")
    return f"; the console shows {bad} undecodable bytes (line noise or a wrong baud rate?)" if bad >= 3 else ""


class BringUpError(AssertionError):
    """The board did not reach a state, even after a power-cycle and a retry."""


TIMEOUTS = {"power": 30.0, "autoboot": 60.0, "uboot_command": 120.0, "boot": 180.0, "login": 30.0, "ssh": 30.0}


@dataclass
class Timeouts:
    """Every wait, in seconds of board time (profile `timeouts`, then the lab's). A board that runs `scale` times
    faster than real time (the simulated board) gets them divided by the scale, never below `floor`."""

    raw: dict[str, float] = field(default_factory=dict)
    scale: float = 1.0
    floor: float = 5.0

    def of(self, seconds: float) -> float:
        return max(self.floor, seconds / self.scale) if self.scale > 1 else seconds

    def __getattr__(self, name: str) -> float:
        if name in TIMEOUTS:
            return self.of(float(self.raw.get(name, TIMEOUTS[name])))
        raise AttributeError(name)


@dataclass
class Board:
    """One board in one lab, brought up through the console. `log` receives what the gate should say."""

    name: str
    profile: dict
    lab: Lab
    console: Console
    context: dict[str, Any] = field(default_factory=dict)
    log: Callable[[str], None] = print
    state: str = "unknown"
    address: str | None = None
    ssh: SshShell | None = None
    broken: dict[str, str] = field(default_factory=dict)
    speed: float = 1.0

    def __post_init__(self) -> None:
        t = {**(self.profile.get("timeouts") or {}), **(self.lab.data.get("timeouts") or {})}
        raw = {k: float(v) for k, v in t.items() if k in TIMEOUTS}
        self.timeouts = Timeouts(raw, self.speed, float(self.lab.data.get("min_timeout") or 5))
        mode = self.lab.power_mode
        if mode == "command":
            self.power = CommandPower(expand(self.lab.data["power"], self.context), timeout=self.timeouts.power)
        elif mode == "manual":
            self.power = ManualPower(self.lab.name)
        else:
            self.power = SoftPower(self._soft_reset)
        self.console_shell = ConsoleShell(self.console)

    # -- data ------------------------------------------------------------------------------------
    @property
    def uboot(self) -> dict:
        return self.profile.get("uboot") or {}

    @property
    def linux(self) -> dict:
        return self.profile.get("linux") or {}

    def _fill(self, text: str) -> str:
        return text.replace("{hostname}", str(self.profile.get("hostname", ""))).replace(
            "{init_sh_bootargs}", str(self.linux.get("init_sh_bootargs", "init=/bin/sh"))
        )

    def _panic(self) -> dict[str, str]:
        return {"kernel panic": self.linux.get("panic", "Kernel panic")}

    def _prompt_re(self, prompt: str) -> re.Pattern[str]:
        """A prompt at the end of a line, or with a kernel message glued right after it."""
        p = re.escape(self._fill(prompt).rstrip())
        return re.compile(rf"{p}[ \t]*(?=$|\n|\[\s*\d+\.\d+\])", re.M)

    # -- power -----------------------------------------------------------------------------------
    def _soft_reset(self, _: str) -> None:
        """No power switch: reset from wherever the board is (asking the console first when that is not known)."""
        state = self.state if self.state in ("uboot", "shell", "init_sh", "login") else self.probe()
        if state == "login":
            self.login()
            state = "shell"
        if state == "uboot":
            self.console.sendline(self.uboot.get("reset_command", "reset"))
        elif state in ("shell", "init_sh"):
            self.console.sendline("reboot -f" if state == "init_sh" else "reboot")
        else:
            self.console.write("\x03\r")
            self.console.sendline("reboot")
            time.sleep(0.5)
            self.console.sendline(self.uboot.get("reset_command", "reset"))

    def probe(self, timeout: float = 2.0) -> str:
        """Where the board is, from what it answers to a line end: uboot, login, shell or unknown."""
        since = self.console.sendline("")
        prompts = [
            self._uboot_prompt_re(),
            self._prompt_re(self.linux.get("login_prompt", "login:")),
            self._prompt_re(self.linux.get("prompt", "# ")),
            self._prompt_re(self.linux.get("sh_prompt", "# ")),
        ]
        try:
            m = self.console.expect(prompts, timeout, what="any prompt", since=since)
        except ConsoleTimeout:
            return "unknown"
        return ("uboot", "login", "shell", "init_sh")[m.index]

    def power_cycle(self) -> int:
        """Cycle the power; returns the console offset from which the new boot is read."""
        self._drop_ssh()
        since = self.console.mark()
        self.log(f"power-cycle ({self.power.name})")
        self.power.cycle()
        self.state = "booting"
        return since

    def power_off(self) -> None:
        self._drop_ssh()
        self.power.off()
        self.state = "off"

    # -- U-Boot ----------------------------------------------------------------------------------
    def _autoboot_timeout(self) -> float:
        if isinstance(self.power, ManualPower):
            return float(self.lab.data.get("manual_timeout") or 300)
        return self.timeouts.autoboot

    def wait_autoboot(self, since: int) -> None:
        self.console.expect(self.uboot.get("autoboot", "Hit any key to stop autoboot"), self._autoboot_timeout(),
                            what="the U-Boot autoboot prompt", since=since, fail=self._panic())  # fmt: skip

    def stop_autoboot(self, since: int) -> None:
        """Wait for `Hit any key to stop autoboot`, type a key until the U-Boot prompt shows."""
        self.wait_autoboot(since)
        prompt = self._uboot_prompt_re()
        key = self.uboot.get("interrupt", " ")
        deadline = time.monotonic() + self.timeouts.uboot_command
        after = self.console.mark()
        while True:
            self.console.write(key)
            try:
                self.console.expect(prompt, 0.5, what="the U-Boot prompt", since=after)
                break
            except ConsoleTimeout:
                if time.monotonic() > deadline:
                    raise ConsoleTimeout(
                        f"typed {key!r} after the autoboot prompt but no U-Boot prompt "
                        f"{self.uboot.get('prompt', '=> ')!r} within {self.timeouts.uboot_command:g} s"
                    ) from None
        self.console.quiet(0.1, 1.0)
        self.console.consume()
        self.state = "uboot"

    def _uboot_prompt_re(self) -> re.Pattern[str]:
        """The U-Boot prompt at the start of a line (a few stray bytes before or after it are tolerated)."""
        p = re.escape(self.uboot.get("prompt", "=> ").rstrip())
        return re.compile(rf"(?:^|\n)[^\n]{{0,3}}?{p}[^\n]{{0,16}}$|(?:^|\n){p}(?=[ \t]*$|[ \t]*\n)")

    def uboot_command(self, command: str, timeout: float | None = None, retry: bool = True) -> str:
        """Type a command at the U-Boot prompt and return what it printed (up to the next prompt). A command that
        gets no prompt back is retried once after a power-cycle (when the lab can); then U-Boot is given up for
        the rest of the run, so that later U-Boot commands fail at once with the reason."""
        if "uboot" in self.broken:
            raise BringUpError(f"U-Boot stopped answering earlier in this run: {self.broken['uboot']}")
        if self.state != "uboot":
            self.transition("uboot")
        limit = self.timeouts.uboot_command if timeout is None else self.timeouts.of(timeout)
        since = self.console.sendline(command)
        try:
            m = self.console.expect(self._uboot_prompt_re(), limit, what=f"the U-Boot prompt after `{command}`",
                                    since=since)  # fmt: skip
        except ConsoleTimeout as e:
            self.state = "unknown"
            noise = garbage_note(self.console.text(since))
            prompt = self.uboot.get("prompt", "=> ")
            message = f"U-Boot did not answer `{command}` within {limit:g} s (no prompt {prompt!r}){noise}: {e}"
            if retry and self.power.can_cycle:
                self.log(f"{message}; power-cycling and retrying `{command}` once")
                return self.uboot_command(command, timeout, retry=False)
            self.broken["uboot"] = message
            raise ConsoleTimeout(message) from None
        text = self.console.text(since, m.start)
        first = text.find("\n")
        return text[first + 1 :] if first >= 0 else ""

    # -- Linux -----------------------------------------------------------------------------------
    def boot(self, variant: str = "default", since: int | None = None) -> tuple[int, int]:
        """From the U-Boot prompt (or an autobooting board when `since` is given): boot, and wait for the login
        prompt (default) or the shell prompt (init_sh). Returns the console offsets of `Starting kernel` and of
        the prompt."""
        if since is None:
            if variant == "init_sh":
                for cmd in self.linux.get("init_sh_setup") or []:
                    self.uboot_command(self._fill(cmd))
            since = self.console.sendline(self.uboot.get("boot_command", "boot"))
        self.state = "booting"
        start = self.console.expect(self.linux.get("kernel_start", "Starting kernel"), self.timeouts.boot,
                                    what="`Starting kernel`", since=since, fail=self._panic())  # fmt: skip
        if variant == "init_sh":
            end_prompt = self.linux.get("sh_prompt", "# ")
            fail = {**self._panic()}
        else:
            end_prompt = self.linux.get("login_prompt", "login:")
            fail = {**self._panic()}
        end = self.console.expect(self._prompt_re(end_prompt), self.timeouts.boot, since=start.end, fail=fail,
                                  what=f"the {'shell' if variant == 'init_sh' else 'login'} prompt {end_prompt!r} "
                                  "after `Starting kernel`")  # fmt: skip
        self.state = "init_sh" if variant == "init_sh" else "login"
        return start.start, end.start

    def login(self) -> None:
        """At the login prompt: user, password (from the lab's password_env), then a shell that answers."""
        user = (self.lab.data.get("login") or {}).get("user") or self.linux.get("user", "root")
        env = (self.lab.data.get("login") or {}).get("password_env")
        password = os.environ.get(env, "") if env else ""
        since = self.console.sendline(user)
        prompts = [self.linux.get("password_prompt", "Password:"), self._prompt_re(self.linux.get("prompt", "# ")),
                   "Login incorrect"]  # fmt: skip
        m = self.console.expect(prompts, self.timeouts.login, what="a password or shell prompt after the user name",
                                since=since, fail=self._panic())  # fmt: skip
        if m.index == 0:
            since = self.console.sendline(password)
            m = self.console.expect(prompts[1:], self.timeouts.login, what="the shell prompt after the password",
                                    since=since, fail=self._panic())  # fmt: skip
            m.index += 1
        if m.index == 2:
            raise BringUpError(f"login as {user!r} refused on the console (Login incorrect); "
                               f"set the password in ${env or 'PERFGATE_BOARD_PASSWORD'}")  # fmt: skip
        self.console_shell.ready(self.timeouts.login)
        self.state = "shell"

    def learn_address(self) -> str:
        """The board's address: the lab's ssh.address, or read from the console (`ip -4 -o addr show`)."""
        configured = str((self.lab.data.get("ssh") or {}).get("address", "discover"))
        if configured != "discover":
            self.address = expand(configured, self.context)
            return self.address
        command = self.linux.get("address_command", "ip -4 -o addr show")
        out, _ = self.console_shell.run(command, self.timeouts.login)
        found = []
        for line in out.splitlines():
            m = re.search(r"^\d+:\s*(\S+)\s+inet\s+(\d+\.\d+\.\d+\.\d+)", line) or re.search(
                r"inet (?:addr:)?(\d+\.\d+\.\d+\.\d+)", line
            )
            if not m:
                continue
            iface, addr = (m.group(1), m.group(2)) if m.lastindex == 2 else ("", m.group(1))
            if iface != "lo" and not (iface == "" and addr.startswith("127.") and not self.lab.virtual):
                found.append(addr)
        if not found:
            raise BringUpError(f"the board reports no IPv4 address on its console (`{command}` printed "
                               f"{out.strip()[:300]!r}): is the network up?")  # fmt: skip
        self.address = found[0]
        return self.address

    def open_ssh(self) -> SshShell:
        ssh = self.lab.data.get("ssh") or {}
        port = ssh.get("port", 22)
        if port == "discover":
            port = (self.context.get("state_data") or {}).get("ssh_port", 22)
        port = int(expand(str(port), self.context))
        if not self.address:
            self.learn_address()
        assert self.address
        user = (self.lab.data.get("login") or {}).get("user") or self.linux.get("user", "root")
        env = (self.lab.data.get("login") or {}).get("password_env")
        key = ssh.get("key")
        if key and not os.path.isabs(str(key)):
            from perfgate import paths

            key = paths.root() / str(key)
        self._drop_ssh()
        shell = SshShell(self.address, port, user, os.environ.get(env, "") if env else "",
                         key_file=str(key) if key else None, timeout=self.timeouts.ssh)  # fmt: skip
        shell.connect()
        self.ssh = shell
        return shell

    def tester_address(self) -> str:
        """The network peer (this host) as the board sees it: the lab's tester.address, or for `host` the local
        address of the gate's SSH connection to the board (the interface that reaches it)."""
        configured = str((self.lab.data.get("tester") or {}).get("address", "host"))
        if configured != "host":
            return expand(configured, self.context)
        if os.environ.get("PERFGATE_TESTER"):
            return os.environ["PERFGATE_TESTER"]
        if self.ssh and self.ssh.connected and self.ssh.transport is not None:
            return str(self.ssh.transport.sock.getsockname()[0])
        if self.address:
            import socket

            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((self.address, 9))  # no packet is sent: only the route is looked up
                return str(s.getsockname()[0])
        raise BringUpError("the tester address is `host` but the board's address is not known yet")

    def _drop_ssh(self) -> None:
        if self.ssh:
            self.ssh.close()
        self.ssh = None

    @property
    def networked(self) -> bool:
        return bool(self.profile.get("network", True))

    # -- transitions -----------------------------------------------------------------------------
    def _to_uboot(self) -> None:
        t0 = time.monotonic()
        self.stop_autoboot(self.power_cycle())
        self.log(f"autoboot stopped at the U-Boot prompt after {time.monotonic() - t0:.2f} s")

    def _to_shell(self) -> None:
        if self.state == "shell":  # logged in, but SSH went away: reconnect before booting again
            try:
                self.console_shell.ready(self.timeouts.login)
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
            self.wait_autoboot(since)  # U-Boot is alive; let it autoboot as the board does on its own
            self.log(f"U-Boot autoboot prompt after {time.monotonic() - t0:.2f} s: letting it boot")
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
            self.wait_autoboot(since)
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
        if self.state == target and (target != "shell" or not self.networked or (self.ssh and self.ssh.connected)):
            return
        step = self._to_uboot if target == "uboot" else self._to_shell
        started = time.monotonic()
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
            assert self.ssh is not None
            if not self.ssh.connected:
                self.open_ssh()
            out, status = self.ssh.run(command, limit)
        else:
            out, status = self.console_shell.run(command, limit)
        if status == 127 and NOT_FOUND.search(out):
            raise ToolMissing(f"`{command}`: {NOT_FOUND.search(out).group(0).strip()} (exit status 127)")
        return out, status

    def boot_capture(self, variant: str, cycles: int) -> str:
        """Boot `cycles` times and return the timestamped console log (perfgate.tools.boot format): default rootfs
        = power-cycle and autoboot to the login prompt; init_sh = stop autoboot, set the boot arguments, boot to
        the shell prompt. Host-side timestamps; `time-scale` = the virtual board's speed."""
        start_marker = self.linux.get("kernel_start", "Starting kernel ...")
        end_marker = self.linux.get("sh_prompt" if variant == "init_sh" else "login_prompt", "login:")
        header = [
            f"# perfgate boot capture: board={self.name} lab={self.lab.name} variant={variant} cycles={cycles}",
            f"# start: {start_marker}",
            f"# end: {self._fill(end_marker)}",
            f"# time-scale: {self.speed:g}",
        ]
        if self.speed != 1:
            header.append(f"# LAB={self.lab.name} runs {self.speed:g}x faster than real time: host seconds below are "
                          f"multiplied by {self.speed:g}")  # fmt: skip
        body = []
        for cycle in range(1, cycles + 1):
            try:
                t0, since, kstart, kend = self._timed_boot(variant)
            except AssertionError as first:
                if not self.power.can_cycle:
                    raise
                self.log(f"boot cycle {cycle} failed ({first}); power-cycling and retrying it once")
                try:
                    t0, since, kstart, kend = self._timed_boot(variant)
                except AssertionError as second:
                    raise type(second)(f"{second} (also before a power-cycle and one retry: {first})") from None
            end = self.console.text().find("\n", kend)
            end = end if end >= 0 else self.console.mark()
            body.append(f"# cycle {cycle}")
            body.append(self.console.timestamped(since, end, t0))
            secs = (self.console.time_at(kend) - self.console.time_at(kstart)) * self.speed
            self.log(f"boot cycle {cycle}/{cycles} ({variant}): {secs:.3f} s from `Starting kernel` to the prompt")
        return "\n".join(header + body) + "\n"

    def _timed_boot(self, variant: str) -> tuple[float, int, int, int]:
        t0 = time.monotonic()
        since = self.power_cycle()
        if variant == "init_sh":
            self.stop_autoboot(since)
            kstart, kend = self.boot("init_sh")
        else:
            self.wait_autoboot(since)
            kstart, kend = self.boot("default", since=since)
        return t0, since, kstart, kend

    def describe(self) -> str:
        return f"{self.name} in {self.lab.banner()}"


def stamp_now(t0: float) -> str:
    return stamp(time.monotonic() - t0, 0.0)
