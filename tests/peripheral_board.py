"""Test Contexts for the peripheral workloads. BoardContext answers each command the way the simulated board does
(perfgate.sim.workloads.expected() picks the tool and the published values, perfgate.sim.tools' render() prints
the output), and keeps every command it was sent; it optionally degrades one criterion's published value before
answering.
HostContext runs each command for real in this host's shell and keeps commands and outputs."""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
from dataclasses import dataclass, field

from perfgate import boards, criteria
from perfgate.model import Criterion
from perfgate.sim import kernel
from perfgate.sim import workloads as sim_workloads
from perfgate.sim.shell import BUILTINS
from perfgate.sim.tools import render
from perfgate.workloads.base import Workload
from seed_releases import seed

SIM_LAB = {"name": "sim", "has": ["ethernet", "usb", "audio", "gpu", "display", "capture", "multimedia"],
           "tester": {"address": "127.0.0.1"}, "power_meter": "board"}  # fmt: skip


class BoardContext:
    def __init__(self, board: str, workload: Workload, crits: list[Criterion], lab: dict | None = None,
                 degrade: dict[str, float] | None = None, seed: int = 1) -> None:  # fmt: skip
        self.board = board
        self.profile = boards.profile(board)
        self.lab = lab if lab is not None else SIM_LAB
        self.repeat = 1
        self.virtual = True
        self.workload = workload
        self.crits = [dataclasses.replace(c, value=c.value * (1 + (degrade or {}).get(c.id, 0.0))) for c in crits]
        self.rng = random.Random(seed)
        self.commands: list[tuple[str, str]] = []
        self.notes: list[str] = []
        self.console = ""

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        self.commands.append((where, command))
        e = sim_workloads.expected(self.workload, command, self.crits, self.profile, self.lab)
        if e is None and (command.rstrip().endswith("&") or command.split()[0] in BUILTINS):
            return ""  # the simulated shell runs it (a background job, uptime): it prints nothing a workload reads
        if e is None:
            raise AssertionError(f"the simulated board would not know {command!r}")
        return render(e.tool, command, e.values, self.rng)

    def console_mark(self) -> int:
        return len(self.console)

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0, label: str = "") -> int:  # fmt: skip
        """The kernel's suspend (or resume) lines, as the simulated board prints them, are there at once."""
        self.commands.append(("console", " then ".join(patterns)))
        lines = [t for _, t in kernel.suspend_entry_lines("deep")]
        if any("exit" in p for p in patterns):
            lines = [t for _, t in kernel.suspend_exit_lines(4)]
        self.console += "".join(f"{kernel.stamp(100 + i / 1000)} {t}\n" for i, t in enumerate(lines))
        at = since
        for p in patterns:
            m = re.compile(p).search(self.console, at)
            if m is None:
                raise AssertionError(f"no `{p}` on the console")
            at = m.end()
        return m.start()

    def tester(self) -> str:
        return "127.0.0.1"

    def note(self, message: str) -> None:
        self.notes.append(message)


@dataclass
class HostContext:
    board: str
    profile: dict
    lab: dict
    repeat: int = 1
    virtual: bool = False
    commands: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        self.commands.append(command)
        p = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=timeout, check=False)
        self.outputs.append(p.stdout + p.stderr)
        return p.stdout + p.stderr

    def tester(self) -> str:
        return "127.0.0.1"

    def note(self, message: str) -> None:
        self.notes.append(message)


def board_criteria(board: str, suite: str) -> list[Criterion]:
    return criteria.load(board, suite, release=seed(board))
