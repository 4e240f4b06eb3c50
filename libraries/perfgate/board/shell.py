"""The shell driver: Linux on the serial console. Wait for the kernel and the login prompt, log in, check that a
shell answers, run a command with an end marker, read the board's address.

It only talks to a console (perfgate.board.console.ConsoleDriver) with the board's traits; commands return (output,
exit status) and fail with CommandTimeout (an AssertionError) when they do not finish in time.
"""

from __future__ import annotations

import itertools
import os
import re

from perfgate.board.console import ConsoleDriver, ConsoleTimeout, Match
from perfgate.board.text import without_kernel_messages
from perfgate.board.traits import Traits
from perfgate.errors import BoardLost


class CommandTimeout(AssertionError):
    """A command on the board did not finish in time."""


class ConnectionDropped(BoardLost, AssertionError):
    """The SSH session or the console went away while a command ran."""


class LoginRefused(AssertionError):
    """The board said `Login incorrect`."""


RETYPES = 3  # a fresh login prompt after the user name: the name typed again at most this often
ADDRESS_IP = re.compile(r"^\d+:\s*(\S+)\s+inet\s+(\d+\.\d+\.\d+\.\d+)")
ADDRESS_IFCONFIG = re.compile(r"inet (?:addr:)?(\d+\.\d+\.\d+\.\d+)")


class ShellDriver:
    """Commands typed on the serial console. The end is a marker the shell prints with the exit status
    (`echo PG""END-n $?`: the typed text never matches it), so kernel messages in the middle of the output or of
    the prompt do not matter; they are taken out of the returned output (they stay in the transcript)."""

    _ids = itertools.count(1)

    def __init__(self, console: ConsoleDriver, traits: Traits, user: str | None = None,
                 password_env: str | None = None) -> None:  # fmt: skip
        self.console = console
        self.traits = traits
        self.user = user or traits.user
        self.password_env = password_env

    def __str__(self) -> str:
        return f"the serial console {self.console.port}"

    # -- boot ------------------------------------------------------------------------------------
    def wait_kernel(self, since: int, timeout: float, silence: float | None = None) -> Match:
        """The first of the kernel start markers (`Starting kernel ...`, or the first kernel line on a board whose
        U-Boot prints none); `Match.text` says which one came."""
        names = " or ".join(f"`{k}`" for k in self.traits.kernel_start)
        return self.console.expect(self.traits.kernel_start_re(), timeout, what=names, since=since,
                                   fail=self.traits.fail_patterns(), silence=silence)  # fmt: skip

    def wait_prompt(self, since: int, timeout: float, init_sh: bool = False, poke: float | None = None,
                    silence: float | None = None, after: str = "the kernel start") -> Match:  # fmt: skip
        """The login prompt (or the shell prompt of init=/bin/sh) after the kernel started. A quiet console gets a
        line end every `poke` seconds, so that a prompt lost in a notice or printed earlier is printed again."""
        t = self.traits
        prompt = t.sh_prompt if init_sh else t.login_prompt
        pattern = t.prompt_re(prompt) if init_sh else t.login_prompt_re()
        what = f"the {'shell' if init_sh else 'login'} prompt {prompt!r} after {after}"
        return self.console.expect(pattern, timeout, since=since, fail=t.fail_patterns(), what=what, poke=poke,
                                   silence=silence)  # fmt: skip

    # -- login -----------------------------------------------------------------------------------
    @property
    def password(self) -> str:
        return os.environ.get(self.password_env, "") if self.password_env else ""

    def login(self, timeout: float) -> int:
        """At the login prompt: user, password (from the lab's password_env), then a shell that answers. A fresh
        login prompt instead of the password or shell prompt means the getty restarted and lost the name (systemd
        restarts serial-getty while the kernel still brings the console up): the name is typed again, up to
        RETYPES times. Returns how many times it was typed again."""
        t = self.traits
        prompts = [t.password_prompt, t.shell_prompt_re(), "Login incorrect", t.login_prompt_re()]
        retyped, first = 0, 0
        since = self.console.sendline(self.user)
        what = "a password or shell prompt after the user name"
        while True:
            m = self.console.expect(prompts[first:], timeout, what=what, since=since, fail=t.fail_patterns())
            index = m.index + first
            if index == 0:
                since = self.console.sendline(self.password)
                what, first = "the shell prompt after the password", 1
                continue
            if index == 2:
                env = self.password_env or "PERFGATE_BOARD_PASSWORD"
                raise LoginRefused(f"login as {self.user!r} refused on the console (Login incorrect); "
                                   f"set the password in ${env}")  # fmt: skip
            if index == 3:
                if retyped >= RETYPES:
                    raise ConsoleTimeout(f"the login prompt came back {retyped + 1} times after the user name "
                                         f"{self.user!r} was typed on {self} (a getty in a restart loop?)")  # fmt: skip
                retyped += 1
                since = self.console.sendline(self.user)
                what, first = "a password or shell prompt after the user name, typed again", 0
                continue
            break
        self.ready(timeout)
        return retyped

    # -- commands --------------------------------------------------------------------------------
    def run(self, command: str, timeout: float) -> tuple[str, int]:
        n = next(self._ids)
        marker = re.compile(rf"PGEND-{n}-(\d+)")
        joint = " " if re.search(r"(?<![&>])&\s*$", command) else "; "  # `job &; echo` is a syntax error in sh
        since = self.console.sendline(f'{command}{joint}echo PG""END-{n}-$?')
        try:
            m = self.console.expect(marker, timeout, what=f"the end of `{command}`", since=since)
        except ConsoleTimeout:
            self.console.write("\x03")  # Ctrl-C: give the shell back
            raise CommandTimeout(f"`{command}` did not finish within {timeout:g} s on {self}") from None
        text = self.console.text(since, m.start)
        first = text.find("\n")  # the echo of what was typed
        output = text[first + 1 :] if first >= 0 else ""
        return without_kernel_messages(output).strip("\n") + "\n", int(m.group(1))

    def ready(self, timeout: float) -> None:
        """The shell answers (after login, after a reboot into init=/bin/sh...)."""
        n = next(self._ids)
        since = self.console.sendline(f'echo PG""READY-{n}')
        self.console.expect(f"PGREADY-{n}", timeout, what="a shell answering `echo`", since=since)

    def reboot(self, init_sh: bool = False) -> None:
        self.console.sendline("reboot -f" if init_sh else "reboot")

    def addresses(self, timeout: float, loopback_ok: bool = False) -> tuple[list[str], str]:
        """The board's IPv4 addresses from its console (the address command of the board data), loopback left out
        (a virtual board's forwarded 127.x address is kept when `loopback_ok`). Returns (addresses, raw output)."""
        out, _ = self.run(self.traits.address_command, timeout)
        found = []
        for line in out.splitlines():
            m = ADDRESS_IP.search(line)
            iface, addr = (m.group(1), m.group(2)) if m else ("", "")
            if not m:
                m = ADDRESS_IFCONFIG.search(line)
                if not m:
                    continue
                addr = m.group(1)
            if iface != "lo" and not (iface == "" and addr.startswith("127.") and not loopback_ok):
                found.append(addr)
        return found, out
