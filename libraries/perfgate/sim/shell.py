"""The board's shell: one command dispatcher for the serial console and SSH (exec and interactive).

A command line is split like sh does it (perfgate.sim.shsyntax: `;`, `&&`, `||`, `&`, pipes, redirections, `$VAR`,
`$?`, `$(...)`); each simple command is a workload the board answers (perfgate.sim.answers, printed by
perfgate.sim.tools.<tool>), a program (perfgate.sim.programs.<module>, dispatched by name through its registry) or
`sh: <cmd>: not found` (status 127). The shell knows no program's answer itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shlex
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from perfgate.sim import answers as answers_mod
from perfgate.sim import condition, programs
from perfgate.sim.answers import RenderError
from perfgate.sim.programs import timing
from perfgate.sim.programs.base import WRAPPER_ARGS, Exit, PowerOff, Reboot
from perfgate.sim.shared import Board
from perfgate.sim.shsyntax import (
    arithmetic,
    backgrounded,
    is_compound,
    list_cuts,
    split_list,
    split_pipes,
    split_redirections,
    without_redirections,
)

__all__ = ["BUILTINS", "WRAPPER_ARGS", "Board", "Dropped", "Exit", "PowerOff", "Reboot", "Session", "Sink",
           "run_text", "split_list", "split_pipes", "split_redirections"]  # fmt: skip
BUILTINS = programs.table()  # every program of perfgate.sim.programs, by name


class Dropped(Exception):
    """Fault `ssh-drop`: the connection went away in the middle of a tool's output."""


Write = Callable[[str, bool], Awaitable[None]]  # (text, is_stderr)
SYS_POWER_STATE = "/sys/power/state"


@dataclass
class Sink:
    """Where a session's output goes. `drop` is set on SSH sessions (fault ssh-drop)."""

    write: Write
    channel: str = "ssh"  # ssh | serial
    drop: Callable[[], None] | None = None


class _Out:
    """One simple command's stdout/stderr after its redirections."""

    def __init__(self, targets: dict[int, tuple], sink: Sink, files: dict[str, str], capture: list[str] | None,
                 board: Board | None = None) -> None:  # fmt: skip
        self.targets, self.sink, self.files, self.capture, self.board = targets, sink, files, capture, board

    async def write(self, text: str, err: bool = False) -> None:
        target = self.targets[2 if err else 1]
        kind = target[0]
        if kind == "null" or not text:
            return
        if kind == "file" and target[1] == SYS_POWER_STATE and self.board is not None:
            await self.board.enter_sleep(text.strip(), None)  # the write returns when the board is awake again
        elif kind == "file":
            self.files[target[1]] = self.files.get(target[1], "") + text
        elif kind == "pipe":
            assert self.capture is not None
            self.capture.append(text)
        else:
            await self.sink.write(text, kind == "err")


class Session:
    """One shell: its variables, directory and last status."""

    def __init__(self, board: Board, sink: Sink, interactive: bool = False) -> None:
        self.board = board
        self.sink = sink
        self.interactive = interactive
        user = board.data.linux["user"]
        home = "/root" if user == "root" else f"/home/{user}"
        path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        self.env = {"HOME": home, "USER": user, "SHELL": "/bin/sh", "PATH": path, "HOSTNAME": board.data.hostname}
        self.cwd = self.env["HOME"]
        self.status = 0
        self.current = ""  # the builtin being run (several names share one handler)
        self.jobs: list[asyncio.Task] = []  # this shell's background jobs, for `wait`

    # -- parsing -------------------------------------------------------------------------------------------
    async def run(self, line: str) -> int:
        """Run one command line; returns its exit status (also kept as `$?`)."""
        line = line.strip()
        if not line or line.startswith("#"):
            return self.status
        await self.board.ready.wait()  # the workloads are indexed while the board boots
        if is_compound(line):
            done = await self._planned_prefix(line)
            if done is not None:
                return done
        status = 0
        for segment, op in split_list(line):
            if (op == "&&" and status != 0) or (op == "||" and status == 0):
                continue
            if backgrounded(segment):
                self._spawn(segment.strip()[:-1])
                status = 0
            else:
                status = await self._pipeline(segment)
            self.status = status
        return status

    def _spawn(self, segment: str) -> None:
        """`cmd &`: the job runs on in a copy of this shell while the command line goes on (a real shell forks it)."""
        child = Session(self.board, self.sink, False)
        child.env, child.cwd, child.status = dict(self.env), self.cwd, self.status

        async def job() -> None:
            with contextlib.suppress(Exception):  # Exit, a closed SSH channel: the job ends quietly
                await child._pipeline(segment)

        task = asyncio.create_task(job())
        self.jobs.append(task)
        self.board.jobs.add(task)
        task.add_done_callback(self.board.jobs.discard)

    async def _planned_prefix(self, line: str) -> int | None:
        """A compound command a workload planned as a whole (`cd d && tool`, `for ...; do ...; done`), maybe
        followed by more (the gate's console appends `; echo <marker>-$?`): answer the planned part as one
        workload, then run the rest. None when no prefix is a planned command."""
        cuts = [*list_cuts(line), (len(line), "")]
        for at, op in reversed(cuts):
            prefix = line[:at].strip()
            if not is_compound(prefix):
                return None
            answer = self.board.answers.lookup(prefix) or self.board.answers.lookup(self._strip_tail_redirect(prefix))
            if answer is None:
                continue
            self.status = await self._workload(answer, prefix, self._targets([]), None)
            rest = line[at + len(op) :].strip()
            skip = (op == "&&" and self.status != 0) or (op == "||" and self.status == 0)
            if rest and not skip:
                return await self.run(rest)
            return self.status
        return None

    @staticmethod
    def _strip_tail_redirect(line: str) -> str:
        return re.sub(r"\s*(?:2>&1|[12]?>\s*/dev/null)\s*$", "", line)

    async def _pipeline(self, segment: str) -> int:
        stages = split_pipes(segment)
        data: str | None = None
        status = 0
        for i, stage in enumerate(stages):
            last = i == len(stages) - 1
            capture: list[str] | None = None if last else []
            status = await self.simple(stage, capture, data)
            data = "".join(capture) if capture is not None else None
        return status

    async def substitute(self, text: str) -> str:
        """`$(cmd)` and backquotes -> the command's output (trailing newlines removed)."""
        for _ in range(8):
            m = re.search(r"\$\(([^()]*)\)|`([^`]*)`", text)
            if not m:
                return text
            inner = m.group(1) if m.group(1) is not None else m.group(2)
            captured: list[str] = []
            sub = Session(self.board, Sink(_collect(captured), self.sink.channel), False)
            sub.env, sub.cwd = dict(self.env), self.cwd
            with contextlib.suppress(Exit):
                await sub.run(inner)
            text = text[: m.start()] + "".join(captured).rstrip("\n") + text[m.end() :]
        return text

    def expand(self, text: str) -> str:
        """$VAR, ${VAR}, $? outside single quotes."""
        out, i, quote = [], 0, ""
        while i < len(text):
            ch = text[i]
            if ch == "'" and quote != '"':
                quote = "" if quote == "'" else "'"
            elif ch == '"' and quote != "'":
                quote = "" if quote == '"' else '"'
            elif text.startswith("$((", i) and quote != "'":
                end = text.find("))", i)
                if end > 0:
                    out.append(arithmetic(text[i + 3 : end], self.env))
                    i = end + 2
                    continue
            elif ch == "$" and quote != "'":
                m = re.match(r"\$(?:\{(\w+)\}|(\w+)|(\?)|(\$))", text[i:])
                if m:
                    if m.group(3):
                        out.append(str(self.status))
                    elif m.group(4):
                        out.append("1234")
                    else:
                        out.append(self.env.get(m.group(1) or m.group(2) or "", ""))
                    i += m.end()
                    continue
            out.append(ch)
            i += 1
        return "".join(out)

    # -- one simple command --------------------------------------------------------------------------------
    async def simple(self, raw: str, capture: list[str] | None, stdin: str | None) -> int:
        raw = raw.strip()
        if raw.endswith("&"):
            raw = raw[:-1].strip()
        sub = re.fullmatch(r"\((.*)\)\s*((?:\d?[<>]\S*\s*(?:&?\d|\S+)?\s*)*)", raw, re.S)
        if sub:
            return await self._subshell(sub.group(1), sub.group(2), capture)
        text = self.expand(await self.substitute(raw))
        try:
            words = shlex.split(text, comments=False)
        except ValueError:
            await self.sink.write("sh: syntax error: unterminated quoted string\n", True)
            return 2
        words, redirs = split_redirections(words)
        targets = self._targets(redirs, pipe=capture is not None)
        out = _Out(targets, self.sink, self.board.files, capture, self.board)
        assigns = {}
        while words and re.match(r"^[A-Za-z_]\w*=", words[0]):
            k, _, v = words.pop(0).partition("=")
            assigns[k] = v
        if not words:
            self.env.update(assigns)
            return 0
        answer = self.board.answers.lookup(raw) or self.board.answers.lookup(shlex.join(words))
        if answer is None and words[0] not in BUILTINS:
            answer = self.board.answers.lookup(without_redirections(raw))
        if answer:
            return await self._workload(answer, raw, targets, capture, words)
        return await self.dispatch(words, out, stdin)

    async def _subshell(self, inner: str, redirections: str, capture: list[str] | None) -> int:
        """`( a; b ) > file 2>&1`: the inner list in a copy of this shell, its output redirected as a whole."""
        _, redirs = split_redirections(shlex.split(redirections))
        out = _Out(self._targets(redirs, pipe=capture is not None), self.sink, self.board.files, capture, self.board)
        child = Session(self.board, Sink(_to(out), self.sink.channel, self.sink.drop), self.interactive)
        child.env, child.cwd, child.status = dict(self.env), self.cwd, self.status
        try:
            return await child.run(inner)
        except Exit as e:
            return e.code

    async def run_child(self, line: str, out: _Out) -> int:
        """`sh -c line`: the line in a copy of this shell (its variables and directory) writing to `out`."""
        inner = Session(self.board, Sink(_to(out), self.sink.channel, self.sink.drop), False)
        inner.env, inner.cwd = dict(self.env), self.cwd
        try:
            return await inner.run(line)
        except Exit as e:
            return e.code

    def _targets(self, redirs: list[tuple[int, str, str]], pipe: bool = False) -> dict[int, tuple]:
        t: dict[int, tuple] = {1: ("pipe",) if pipe else ("out",), 2: ("err",)}
        for fd, op, target in redirs:
            if op == ">&":
                t[fd] = t.get(int(target), ("out",)) if target.isdigit() else ("null",)
            elif target == "/dev/null":
                t[fd] = ("null",)
            elif op in (">", ">>"):
                path = target if target.startswith("/") else f"{self.cwd}/{target}"
                if op == ">":
                    self.board.files[path] = ""
                t[fd] = ("file", path)
        return t

    async def dispatch(self, words: list[str], out: _Out, stdin: str | None) -> int:
        name = words[0]
        if name in WRAPPER_ARGS:
            return await self._wrapped(words, out, stdin)
        handler = BUILTINS.get(name)
        if handler:
            self.current = name
            return await handler(self, words[1:], out, stdin)
        tool = self.board.answers.tool_of_binary(name)
        if tool and tool in self.board.data.faults.missing_tool:
            await out.write(f"sh: {name}: not found\n", True)
            return 127
        base = name.rsplit("/", 1)[-1]
        if base in answers_mod.SUPPORT or (tool and _server_mode(words)):
            return 0  # servers and load generators: started, silent
        if tool:
            await out.write(f"{name}: perfgate simulated board: no published figure for `{shlex.join(words)}` "
                            f"(no {tool} criterion of {self.board.data.board} plans this command)\n", True)  # fmt: skip
            return 1
        await out.write(f"sh: {name}: not found\n", True)
        return 127

    async def _wrapped(self, words: list[str], out: _Out, stdin: str | None) -> int:
        """time [-v], taskset, chrt, nice, nohup, timeout, env: run what they wrap."""
        name, rest = words[0], words[1:]
        skip = WRAPPER_ARGS[name]
        verbose = False
        while rest and (rest[0].startswith("-") or (skip and re.fullmatch(r"[\d.,:smhdx]+", rest[0]))):
            verbose = verbose or rest[0] == "-v"
            rest.pop(0)
        if not rest:
            return 0
        start = time.monotonic()
        inner = shlex.join(rest)
        answer = self.board.answers.lookup(inner)
        if answer:
            status = await self._workload(answer, inner, out.targets, out.capture, rest)
        else:
            status = await self.dispatch(rest, out, stdin)
        if name in ("time", "/usr/bin/time"):
            secs = (time.monotonic() - start) * self.board.speed
            await out.write(timing.report(inner, secs, status, verbose), True)
        return status

    # -- workloads -----------------------------------------------------------------------------------------
    async def _workload(self, answer, raw: str, targets, capture, words: list[str] | None = None) -> int:
        data = self.board.data
        words = words or answers_mod.binaries_of(raw)
        binary = next((w for w in (words or []) if self.board.answers.tool_of_binary(w) == answer.tool), None)
        out = _Out(targets, self.sink, self.board.files, capture)
        if answer.tool in data.faults.missing_tool:
            name = binary or (answers_mod.binaries_of(raw) or [answer.tool])[0]
            await out.write(f"sh: {name}: not found\n", True)
            return 127
        hook = programs.answer_hooks().get(answer.tool)  # an answer that depends on the board's state
        if hook is not None:
            answer = hook(answer, self.board)
        cond = condition.of(self.board)
        answer, failed = condition.start(cond, data.faults, answer)  # FAULTS: a failed run, a throttled board...
        if failed is not None:
            await asyncio.sleep(min(0.2, self.board.max_wait))
            await out.write(failed[0], not failed[0].lstrip().startswith("{"))
            return failed[1]
        try:
            return await self._answer(answer, out)
        finally:
            condition.ended(cond)

    async def _answer(self, answer, out: _Out) -> int:
        """The tool's output, drawn around its values, taking about as long as the real tool takes."""
        data = self.board.data
        raw = answer.command
        try:
            text = self.board.answers.render(answer)
        except RenderError as e:
            await out.write(f"{e}\n", True)
            return 1
        wait = min(answers_mod.duration(answer.tool, raw) / self.board.speed, self.board.max_wait)
        parts = answers_mod.split_streams(answer.tool, text)
        drop = answer.tool in data.faults.ssh_drop and self.sink.drop is not None
        half = max(1, len(text) // 2)
        await asyncio.sleep(wait / 2)
        written = 0
        for chunk, err in parts:
            if drop and written + len(chunk) >= half:
                await out.write(chunk[: half - written], err)
                await asyncio.sleep(0.05)
                assert self.sink.drop is not None
                self.sink.drop()
                raise Dropped(f"ssh-drop:{answer.tool}")
            await out.write(chunk, err)
            written += len(chunk)
        await asyncio.sleep(wait / 2)
        return 0


def _to(out: _Out) -> Write:
    async def write(text: str, err: bool) -> None:
        await out.write(text, err)

    return write


def _collect(buf: list[str]) -> Write:
    async def write(text: str, err: bool) -> None:
        if not err:
            buf.append(text)

    return write


def _server_mode(words: list[str]) -> bool:
    """A server started or stopped (iperf3 -s -D, lat_tcp -s, lat_tcp -S host): silent, status 0."""
    return any(w in ("-s", "-S", "-D", "--daemon", "--server") for w in words[1:])


async def run_text(session: Session, line: str) -> tuple[str, int]:
    """Convenience for tests: run a line, return (stdout+stderr, status)."""
    buf: list[str] = []

    async def write(text: str, err: bool) -> None:
        buf.append(text)

    old = session.sink
    session.sink = Sink(write, old.channel, old.drop)
    try:
        status = await session.run(line)
    finally:
        session.sink = old
    return "".join(buf), status
