"""The simulated board's shell dispatches to its programs through one registry (perfgate.sim.programs): each
program's answers live in its own module, the shell knows none of them, and a program added in one module is
answered by the shell (console and SSH alike) and found by `command -v`."""

from __future__ import annotations

import ast
import asyncio
import random
from pathlib import Path

import pytest

from perfgate.sim import answers as answers_mod
from perfgate.sim import data as data_mod
from perfgate.sim import faults, programs
from perfgate.sim.programs import power
from perfgate.sim.programs.base import PROGRAMS, Out, Shell, program
from perfgate.sim.shared import Board
from perfgate.sim.shell import Session, Sink, run_text

SHELL = Path(programs.__file__).parent.parent / "shell.py"


def session(suspend: bool = False) -> Session:
    notes: list[str] = []
    profile = data_mod.with_defaults("simtest_evm", {"name": "simtest_evm", "cpus": 2}, notes)
    d = data_mod.BoardData("simtest_evm", profile, {}, [], faults.parse(""), notes)
    board = Board(d, answers_mod.Answers(d, random.Random(0)), speed=1000.0)
    if suspend:

        async def sleep(word: str, alarm: float | None) -> None:
            return None

        board.suspend = sleep

    async def nowhere(text: str, err: bool) -> None:
        return None

    return Session(board, Sink(nowhere, "ssh"))


def test_the_shell_holds_no_programs_answers() -> None:
    """No handler, no tool's name and no board data module in perfgate/sim/shell.py: it parses, runs and
    dispatches (before the split it held 34 builtins, the power meter's awake factor and the interfaces)."""
    tree = ast.parse(SHELL.read_text(encoding="utf-8"))
    decorated = [f.name for f in ast.walk(tree) if isinstance(f, ast.AsyncFunctionDef | ast.FunctionDef)
                 and f.decorator_list and not all(isinstance(d, ast.Name) for d in f.decorator_list)]  # fmt: skip
    assert not decorated, f"handlers registered in the shell: {decorated}"
    tool_names = [
        n.comparators[0].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Compare)
        and isinstance(n.left, ast.Attribute)
        and n.left.attr == "tool"
        and isinstance(n.comparators[0], ast.Constant)
    ]
    assert not tool_names, f"the shell compares the answering tool with {tool_names}"
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert "interfaces" not in imported


def test_every_program_module_registers_what_it_answers() -> None:
    table = programs.table()
    modules = {fn.__module__.rsplit(".", 1)[1] for fn in table.values()}
    assert modules == {"shell_builtins", "system", "files", "which", "dd", "net", "rtcwake"}
    assert {"echo", "cat", "uname", "ip", "ethtool", "rtcwake", "dd", "which", "sh", "reboot"} <= set(table)
    assert programs.answer_hooks()["power"] is power.awake_rails


def test_a_program_added_in_one_module_is_run_by_the_shell_and_found() -> None:
    @program("pg-hello")
    async def _hello(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
        await out.write(f"hello {' '.join(args)} from {s.cwd}\n")
        return 3

    try:
        s = session()
        assert asyncio.run(run_text(s, "cd /tmp && pg-hello a b | cat; echo $?")) == ("hello a b from /tmp\n0\n", 0)
        assert asyncio.run(run_text(s, "pg-hello; echo $?; command -v pg-hello")) == (
            "hello  from /tmp\n3\npg-hello\n", 0)  # fmt: skip
    finally:
        PROGRAMS.pop("pg-hello")
    assert asyncio.run(run_text(session(), "pg-hello")) == ("sh: pg-hello: not found\n", 127)


@pytest.mark.parametrize(("suspend", "asleep", "factor"), [(True, None, power.AWAKE_POWER), (True, "deep", 1.0),
                                                           (False, None, 1.0)])  # fmt: skip
def test_the_power_meter_reads_an_awake_board_that_can_sleep_high(suspend: bool, asleep: str | None,
                                                                  factor: float) -> None:  # fmt: skip
    board = session(suspend).board
    board.asleep = asleep
    answer = answers_mod.Answer("power", "read-power", {"vdd_core (mW)": 100.0})
    assert power.awake_rails(answer, board).values == {"vdd_core (mW)": 100.0 * factor}
