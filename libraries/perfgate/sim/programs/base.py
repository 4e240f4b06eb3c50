"""The registry of the simulated board's programs: each program (a shell builtin, a system utility, a tool the
board answers on its own) is a handler in one module of perfgate.sim.programs, registered by name with `@program`;
a tool whose answer depends on the board's state adjusts it with `@answer_hook`. The shell (perfgate.sim.shell)
dispatches to them; they know the shell only as `Shell` below, so no program imports the shell.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from perfgate.sim.answers import Answer
from perfgate.sim.shared import Board


class Reboot(Exception):
    """`reboot` was typed: the board restarts."""


class PowerOff(Exception):
    """`poweroff` was typed: the board switches itself off."""


class Exit(Exception):
    """`exit [n]`/`logout`: the shell ends with status `code`."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class Out(Protocol):
    """One command's stdout and stderr, after its redirections."""

    async def write(self, text: str, err: bool = False) -> None: ...


class Shell(Protocol):
    """What a program sees of the shell that runs it (perfgate.sim.shell.Session)."""

    board: Board
    env: dict[str, str]
    cwd: str
    status: int
    current: str  # the name the program was called by (several names share one handler)
    jobs: list[asyncio.Task]

    async def run_child(self, line: str, out: Out) -> int:
        """Run `line` in a copy of this shell (its variables and directory) writing to `out`; its exit status."""
        ...


Handler = Callable[[Shell, list[str], Out, "str | None"], Awaitable[int]]
AnswerHook = Callable[[Answer, Board], Answer]
PROGRAMS: dict[str, Handler] = {}
ANSWER_HOOKS: dict[str, AnswerHook] = {}
# commands that run the command they are given (their own options skipped; True: a value follows, `taskset 0x1`)
WRAPPER_ARGS = {"time": False, "/usr/bin/time": False, "taskset": True, "chrt": True, "nice": True, "nohup": False,
                "timeout": True, "stdbuf": False, "sudo": False}  # fmt: skip


def program(*names: str) -> Callable[[Handler], Handler]:
    """Register a program under each of `names`."""

    def register(fn: Handler) -> Handler:
        for n in names:
            PROGRAMS[n] = fn
        return fn

    return register


def answer_hook(tool: str) -> Callable[[AnswerHook], AnswerHook]:
    """Register how `tool`'s answer (its published values) depends on the board's state when it runs."""

    def register(fn: AnswerHook) -> AnswerHook:
        ANSWER_HOOKS[tool] = fn
        return fn

    return register
