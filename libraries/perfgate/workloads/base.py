"""How a suite measures: a Workload turns the board's criteria for one suite into commands, runs them through a
Context, parses what they print, and returns a measured value per criterion id.

One module per suite (perfgate/workloads/<suite>.py) defines `WORKLOAD = <Workload subclass>()`. Nothing else knows
how a guide's table maps to a tool's output. What the simulated board answers to a workload's commands lives apart,
in perfgate.sim.workloads: nothing here imports the simulator (tests/sim/test_sim_wall.py).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from perfgate.board.errors import BringUpError
from perfgate.decision.sequential import RunLength
from perfgate.errors import BoardLost, ParseError, ToolMissing
from perfgate.model import Criterion


@dataclass
class Run:
    """One command on the board whose parsed output measures some criteria."""

    tool: str  # parser name: perfgate.tools.<tool>
    command: str  # the exact command line sent to the board
    keys: dict[str, list[str]] = field(default_factory=dict)  # parser metric name -> criterion ids
    where: str = "shell"  # shell (board Linux, SSH or console) | uboot (U-Boot prompt) | host (the tester)
    timeout: float = 600.0
    label: str = ""  # evidence file name stem; defaults to the tool name
    # where="uboot": commands that must have run at this U-Boot since it last started (a medium's `sf probe`); the
    # board runs them again first when U-Boot started afresh since (a reset, a power-cycle after a lost prompt)
    setup: tuple[str, ...] = ()
    times: int = 1  # how many times the command does what the budget plans one run of its tool for (boot cycles)


class Context(Protocol):
    """What a workload may do. The Robot library provides the real one; tests and the sim provide others."""

    board: str  # canonical board name
    profile: dict  # variables/boards/<board>.yaml merged with defaults
    lab: dict  # variables/labs/<lab>.yaml
    repeat: int  # how many times to run each measurement (aggregated by the caller)
    virtual: bool  # True when the board is simulated or emulated
    last_evidence: str  # the file where the last run()'s output was kept

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        """Run a command, keep its whole output (stdout+stderr) as evidence in results/, return it.
        Raises ToolMissing when the shell says the program is not found (exit 127), BoardLost when the board
        stops answering, AssertionError on a timeout.
        A U-Boot run with a setup (Run.setup) is passed `setup=<commands>` as well (only then: contexts that never
        run U-Boot commands need not take it); the context must have them run first at every fresh U-Boot."""
        ...

    def tester(self) -> str:
        """The network peer's address as the board sees it."""
        ...

    def console_mark(self) -> int:
        """The current end of the board's serial console text (pass it to await_console as `since`)."""
        ...

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0, label: str = "") -> int:  # fmt: skip
        """Wait until the console shows each regular expression of `patterns` after `since`, in order (what the
        kernel prints as it goes: evidence the board did something), then `quiet` seconds with none of `abort`;
        keeps what the console showed as evidence and returns the offset where the last pattern matched.
        `timeout` is in seconds of board time. AssertionError when they do not come in time or an abort pattern
        shows; BoardLost when the console goes away."""
        ...

    def note(self, message: str) -> None:
        """Say something in the log (which tool produced a number, a shortened duration...)."""
        ...


@dataclass
class Measurements:
    values: dict[str, float] = field(default_factory=dict)  # criterion id -> measured value
    missing: dict[str, str] = field(default_factory=dict)  # criterion id -> why it was not measured
    skipped: dict[str, str] = field(default_factory=dict)  # criterion id -> why it cannot run here
    tools: dict[str, str] = field(default_factory=dict)  # criterion id -> tool that produced it
    unavailable: dict[str, str] = field(default_factory=dict)  # criterion id -> the missing tool (fail or skip: policy)
    evidence: dict[str, list[str]] = field(default_factory=dict)  # criterion id -> raw output files it was read from
    # criterion id -> how long its run was beside the guide's
    # (tail-latency criteria: perfgate.decision.sequential.run_length)
    lengths: dict[str, RunLength] = field(default_factory=dict)
    parsed: dict[str, dict[str, float]] = field(default_factory=dict)  # run label -> every metric its output gave
    # criterion id -> how many independent runs each of its values is the mean of (boot time: BOOT_CYCLES boots);
    # the gate's noise for it is one run's over the square root of that (sequential.NoiseModel.prior, averaged)
    averaged: dict[str, int] = field(default_factory=dict)
    # criterion id -> one reason per INVALID run of this round (a tool error, a timeout, a peer that did not answer):
    # never a value, never averaged; the runner runs it again within the budget (`missing` is for what could not be
    # measured at all: no tool, the board lost). `invalid_evidence` holds each one's raw output file, in step.
    invalid: dict[str, list[str]] = field(default_factory=dict)
    invalid_evidence: dict[str, list[str]] = field(default_factory=dict)

    def merge(self, other: Measurements) -> None:
        self.values.update(other.values)
        self.missing.update(other.missing)
        for cid, reasons in other.invalid.items():
            self.invalid.setdefault(cid, []).extend(reasons)
            files = other.invalid_evidence.get(cid, [])
            self.invalid_evidence.setdefault(cid, []).extend(files + [""] * (len(reasons) - len(files)))
        self.skipped.update(other.skipped)
        self.tools.update(other.tools)
        self.unavailable.update(other.unavailable)
        for cid, files in other.evidence.items():
            self.evidence.setdefault(cid, []).extend(files)
        self.add_lengths(other.lengths)
        self.parsed.update(other.parsed)
        self.add_averaged(other.averaged)

    def set_invalid(self, ids: list[str], reason: str, evidence: str = "") -> None:
        """This run of the criteria `ids` is invalid for `reason` (its raw output: `evidence`); a value this round
        gave them before is withdrawn."""
        for cid in ids:
            self.values.pop(cid, None)
            self.invalid.setdefault(cid, []).append(reason)
            self.invalid_evidence.setdefault(cid, []).append(evidence)

    def add_averaged(self, averaged: dict[str, int]) -> None:
        """The fewest runs averaged counts (the noisiest of the values)."""
        for cid, runs in averaged.items():
            self.averaged[cid] = min(runs, self.averaged.get(cid, runs))

    def add_lengths(self, lengths: dict[str, RunLength]) -> None:
        """Run lengths of another run of the same criteria: the shortest run is the one that counts."""
        for cid, run in lengths.items():
            if cid not in self.lengths or run.ran < self.lengths[cid].ran:
                self.lengths[cid] = run


class Workload:
    """Default behaviour: `plan()` gives Runs; `measure()` runs each and reads the keys it names."""

    suite: str = ""
    # (run variable, its default): how many runs each value the workload gives is the mean of, when it averages
    # (boot time: BOOT_CYCLES boots); the gate can then tell, before a run, what its noise per value will be
    averaged_over: tuple[str, int] = ("", 1)

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        """None when the suite can run on this board in this lab, otherwise the reason it is skipped."""
        return None

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        raise NotImplementedError

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        return run_all(self.plan(criteria, ctx.profile, ctx.lab), ctx)


def lab_file(lab: dict | None) -> str:
    """The lab's file, for a reason that names one of its keys: where the lab was read from (`file`, which the
    gate and the lab check put beside the lab's name), else variables/labs/<name>.yaml."""
    lab = lab or {}
    return str(lab.get("file") or f"variables/labs/{lab.get('name') or '<lab>'}.yaml")


def same_command(a: str, b: str) -> bool:
    try:
        return shlex.split(a) == shlex.split(b)
    except ValueError:
        return re.sub(r"\s+", " ", a.strip()) == re.sub(r"\s+", " ", b.strip())


Aggregate = Callable[[list[float], str], float]


def run_one(run: Run, ctx: Context, out: Measurements) -> tuple[str, str] | None:
    """Run one command; (its output, its evidence file, recorded for each of its criteria), or None when it measured
    nothing: a missing tool is recorded per criterion, a timeout is an INVALID run of its criteria (the board answers
    again); a board lost or never up is raised."""
    ids = [cid for group in run.keys.values() for cid in group]
    extra = {"setup": run.setup} if run.setup else {}
    try:
        text = ctx.run(run.command, timeout=run.timeout, label=run.label or run.tool, where=run.where, **extra)
    except ToolMissing as e:
        out.unavailable.update(dict.fromkeys(ids, str(e)))
        if not ids:
            ctx.note(f"`{run.command}`: {e}")
        return None
    except AssertionError as e:  # a timeout: this run measured nothing; the board answers again
        if isinstance(e, BoardLost | BringUpError) or not ids:  # a board that never came up is lost, not slow
            raise
        out.set_invalid(ids, f"{run.tool} did not finish: {e}")
        return None
    evidence = getattr(ctx, "last_evidence", "")
    for cid in ids:
        out.evidence.setdefault(cid, []).append(evidence)
    return text, evidence


def run_all(runs: list[Run], ctx: Context) -> Measurements:
    """Run each command once and read its keys; a run with no keys (a server, a test file) only runs.
    A missing tool and a key the tool did not print are recorded per criterion, with the evidence file, so that one
    bad run never hides the others; output the parser does not recognise (the tool failed: an error, an interrupted
    run) and a command that timed out are INVALID runs of its criteria, with the reason."""
    from perfgate import tools  # late import: tools import nothing from here

    out = Measurements()
    for run in runs:
        ids = [cid for group in run.keys.values() for cid in group]
        ran = run_one(run, ctx, out)
        if ran is None or not ids:
            continue
        text, evidence = ran
        try:
            metrics = tools.parse(run.tool, text, command=run.command)
        except ParseError as e:
            out.set_invalid(ids, f"{run.tool} output not recognised: {e}", evidence)
            continue
        out.parsed[run.label or run.tool] = metrics
        for key, group in run.keys.items():
            for cid in group:
                if key in metrics:
                    out.values[cid] = metrics[key]
                    out.tools[cid] = run.tool
                else:
                    out.missing[cid] = f"{run.tool} printed no '{key}' for `{run.command}`"
    return out
