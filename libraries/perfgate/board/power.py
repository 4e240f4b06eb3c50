"""Power drivers, chosen by the lab's `power`: a mapping of shell commands (PDU, relay, labgrid-client, the simulated
board's sim-power: all the same driver), `none` (a soft reset/reboot typed on the console), or `manual` (the operator
is asked on the console and the gate waits for U-Boot)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any, Protocol


class PowerDriver(Protocol):
    """What the strategy needs from a power driver. `can_cycle`: the driver can really cut the power (the strategy
    then retries a failed bring-up once after a cycle). Each call returns what the command printed (may be "")
    and raises an AssertionError with the reason when it fails. A labgrid power driver plugs in here."""

    can_cycle: bool
    name: str

    def on(self) -> str: ...
    def off(self) -> str: ...
    def cycle(self) -> str: ...


class PowerError(AssertionError):
    """A power command failed."""


class DriverPower:
    """on/off/cycle through a labgrid PowerProtocol driver (`self.driver`): every power backend labgrid has (a farm
    place's resource, a labgrid environment's target), each failure a PowerError saying where (`where()`). `lock`
    serialises the driver calls where labgrid shares state between threads."""

    can_cycle = True
    driver: Any
    lock: Any = None

    def where(self) -> str:
        raise NotImplementedError

    def _do(self, action: str) -> str:
        try:
            if self.lock is None:
                getattr(self.driver, action)()
            else:
                with self.lock:
                    getattr(self.driver, action)()
        except Exception as e:
            raise PowerError(f"power {action} of {self.where()}: {type(e).__name__}: {e}") from None
        return ""

    def on(self) -> str:
        return self._do("on")

    def off(self) -> str:
        return self._do("off")

    def cycle(self) -> str:
        return self._do("cycle")


def power_from_lab(lab: Any, context: dict, timeout: float, soft_reset: Callable[[str], None]) -> PowerDriver:
    """The lab's `power`: commands (filled in and shell-quoted), `manual` (the operator), or none (`soft_reset`,
    the strategy's reset from wherever the board is)."""
    from perfgate.board.labfile import expand

    if lab.power_mode == "command":
        return CommandPower(expand(lab.data["power"], context, quote=True), timeout=timeout)
    if lab.power_mode == "manual":
        return ManualPower(lab.name)
    return SoftPower(soft_reset)


class CommandPower:
    """on/off/cycle shell commands; cycle = off, pause, on when the lab gives no `cycle`."""

    can_cycle = True
    name = "command"

    def __init__(self, commands: dict[str, str], timeout: float = 30.0, off_time: float = 1.0) -> None:
        self.commands = commands
        self.timeout = float(commands.get("timeout") or timeout)
        self.off_time = off_time

    def _run(self, action: str) -> str:
        command = self.commands[action]
        try:
            p = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise PowerError(f"power {action}: `{command}` did not finish within {self.timeout:g} s") from None
        if p.returncode != 0:
            raise PowerError(f"power {action}: `{command}` failed (exit {p.returncode}): "
                             f"{(p.stderr or p.stdout).strip()[-400:]}")  # fmt: skip
        return p.stdout

    def on(self) -> str:
        return self._run("on") if "on" in self.commands else self._run("cycle")

    def off(self) -> str:
        return self._run("off") if "off" in self.commands else ""

    def cycle(self) -> str:
        if "cycle" in self.commands:
            return self._run("cycle")
        out = self._run("off")
        time.sleep(self.off_time)
        return out + self._run("on")


class SoftPower:
    """No power switch: `reset` at the U-Boot prompt, `reboot` at a shell (the strategy types them)."""

    can_cycle = False
    name = "none"

    def __init__(self, typist: Callable[[str], None]) -> None:
        self.typist = typist

    def on(self) -> str:
        return ""

    def off(self) -> str:
        return ""

    def cycle(self) -> str:
        self.typist("reboot")
        return ""


class ManualPower:
    """The operator power-cycles the board when asked; the gate then waits for U-Boot (manual_timeout)."""

    can_cycle = False
    name = "manual"

    def __init__(self, lab: str, say: Callable[[str], None] | None = None) -> None:
        self.lab = lab
        self.say = say or (lambda m: print(m, file=sys.__stdout__, flush=True))

    def on(self) -> str:
        self.say(f"\n>>> LAB={self.lab}: please switch the board ON now (the gate waits for U-Boot) <<<")
        return ""

    def off(self) -> str:
        self.say(f"\n>>> LAB={self.lab}: please switch the board OFF now <<<")
        return ""

    def cycle(self) -> str:
        self.say(f"\n>>> LAB={self.lab}: please POWER-CYCLE the board now (the gate waits for U-Boot) <<<")
        return ""
