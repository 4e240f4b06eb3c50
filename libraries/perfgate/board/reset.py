"""The soft reset of a board without a power switch (the lab's `power: none`), and the probe that tells where a
board is from what it answers on its console.

The reset asks the driver of the state the board is in: `reset` at the U-Boot prompt (the U-Boot driver), `reboot`
at a shell (the shell driver, after logging in at a login prompt); from an unknown state, Ctrl-C, `reboot` and
`reset` in turn. perfgate.board.power.SoftPower calls it as its power-cycle.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from perfgate.board.console import ConsoleDriver, ConsoleTimeout
from perfgate.board.shell import ShellDriver
from perfgate.board.traits import Traits
from perfgate.board.uboot import UBootDriver

AT_PROMPT = ("uboot", "shell", "init_sh", "login")


def probe(console: ConsoleDriver, traits: Traits, timeout: float = 2.0) -> str:
    """Where the board is, from what it answers to a line end: uboot, login, shell, init_sh or unknown."""
    since = console.sendline("")
    t = traits
    prompts = [t.uboot_prompt_re(), t.login_prompt_re(), t.shell_prompt_re(), t.prompt_re(t.sh_prompt)]
    try:
        m = console.expect(prompts, timeout, what="any prompt", since=since)
    except ConsoleTimeout:
        return "unknown"
    return ("uboot", "login", "shell", "init_sh")[m.index]


class SoftReset:
    """Reset from wherever the board is; `state()` says where the strategy last saw it (asked on the console when
    that is not a prompt)."""

    def __init__(self, console: ConsoleDriver, uboot: UBootDriver, shell: ShellDriver, state: Callable[[], str],
                 login_timeout: float) -> None:  # fmt: skip
        self.console, self.uboot, self.shell = console, uboot, shell
        self.state, self.login_timeout = state, login_timeout

    def __call__(self, _: str = "cycle") -> None:
        state = self.state()
        if state not in AT_PROMPT:
            state = probe(self.console, self.shell.traits)
        if state == "login":
            self.shell.login(self.login_timeout)
            state = "shell"
        if state == "uboot":
            self.uboot.reset()
        elif state in ("shell", "init_sh"):
            self.shell.reboot(init_sh=state == "init_sh")
        else:
            self.console.write("\x03\r")
            self.shell.reboot()
            time.sleep(0.5)
            self.uboot.reset()
