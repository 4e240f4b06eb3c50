"""A Context for workload tests: every command is answered the way the simulated board answers it — the suite's
answer in perfgate.sim.workloads says which tool and around which published values, and that tool's renderer in
perfgate.sim.tools prints it — and every command is recorded. No mocks of the parsers: the workload reads the
renderer's output through perfgate.tools."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from perfgate import boards, criteria
from perfgate.errors import ToolMissing
from perfgate.model import Criterion
from perfgate.sim import interfaces as sim_interfaces
from perfgate.sim import workloads as sim_workloads
from perfgate.sim.data import load_lab
from perfgate.sim.tools import render
from perfgate.workloads.base import Workload
from seed_releases import seed

SIM_LAB = {"name": "sim", "kind": "sim", "virtual": True, "tester": {"address": "127.0.0.1"},
           "has": ["ethernet", "pcie", "nvme", "emmc", "mmcsd", "ospi", "qspi", "ufs", "nand", "sata", "usb",
                   "crypto"],
           "workloads": load_lab("sim")["workloads"]}  # fmt: skip  # the sim lab's other Ethernet ports (ICSSG)


@dataclass
class FakeContext:
    workload: Workload
    criteria: list[Criterion]
    board: str
    profile: dict
    lab: dict
    missing_tools: set[str] = field(default_factory=set)
    scale: dict[str, float] = field(default_factory=dict)  # parser metric -> factor applied to what the board prints
    commands: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    repeat: int = 1
    virtual: bool = True
    last_evidence: str = ""
    duration: int = 2
    seed: int = 7
    files: dict[str, str] = field(default_factory=dict)  # what background jobs wrote (path -> text)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        self.commands.append((where, command))
        self.last_evidence = f"raw/{label}-{len(self.commands)}.txt"
        for tool in self.missing_tools:
            if re.search(rf"(^|[\s;&|{{(]){re.escape(tool)}(\s|$)", command):
                # as the gate's context does: a `not found` line at the end of the output is a missing tool
                raise ToolMissing(f"`{command.split()[0]}` is not on the board (sh: {tool}: not found)")
        if command.startswith("command -v "):
            name = command.split()[2]
            return "" if name in self.missing_tools else f"/usr/bin/{name}\n"
        # the board's interfaces and routes, as the simulated board's `ip` prints them
        if re.fullmatch(r"ip (-\w+ )*((addr|address) show( dev \S+)?|route get \S+( from \S+)?)", command):
            text, err, _ = sim_interfaces.ip(command.split()[1:], self.profile, self.lab)
            return text + err
        if re.fullmatch(r"ethtool -i \S+", command):
            text, err, _ = sim_interfaces.ethtool(command.split()[1:], self.profile, self.lab)
            return text + err
        # a background job writing its output to a file, read back later with `sleep N; cat <file>` (forwarding)
        job = re.fullmatch(r"(.+?) > (\S+) 2>&1 &", command)
        if job:
            self.files[job.group(2)] = self.run(job.group(1), timeout=timeout, label=label, where=where)
            return ""
        read = re.fullmatch(r"(?:sleep \d+; )?cat (\S+)", command)
        if read and read.group(1) in self.files:
            return self.files[read.group(1)]
        if command.endswith("&& echo perfgate-forwarding-ready"):
            return "perfgate-forwarding-ready\n"  # every step of the forwarding mode's setup succeeded
        exp = sim_workloads.expected(self.workload, command, self.criteria, self.profile, self.lab)
        if exp is None:
            return ""  # servers, ethtool, rm: silent
        values = {k: v * self.scale.get(k, 1.0) for k, v in exp.values.items()}
        return render(exp.tool, command, values, self.rng)

    def tester(self) -> str:
        return "192.168.0.1"

    def note(self, message: str) -> None:
        self.notes.append(message)


def context(workload: Workload, board: str, suite: str, lab: dict | None = None, release: str | None = None,
            **kw: object) -> FakeContext:  # fmt: skip
    """The board's criteria of the suite at `release` (default: the seed guide's, else the newest)."""
    crits = criteria.load(board, suite, release=release or seed(board))
    return FakeContext(workload, crits, board, boards.profile(board), lab or SIM_LAB, **kw)  # type: ignore[arg-type]
