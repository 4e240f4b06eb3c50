"""The board's shell: one command dispatcher for the serial console and SSH (exec and interactive).

A command line is split like sh does it (`;`, `&&`, `||`, `&`, pipes, redirections, `$VAR`, `$?`, `$(...)`);
each simple command is a builtin, a workload (perfgate.sim.answers) or `sh: <cmd>: not found` (status 127).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import shlex
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from perfgate.sim import answers as answers_mod
from perfgate.sim import interfaces as sim_interfaces
from perfgate.sim.answers import Answers, RenderError
from perfgate.sim.data import BoardData


class Reboot(Exception):
    """`reboot` was typed: the board restarts."""


class PowerOff(Exception):
    """`poweroff` was typed: the board switches itself off."""


class Exit(Exception):
    """`exit [n]`/`logout`: the shell ends with status `code`."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class Dropped(Exception):
    """Fault `ssh-drop`: the connection went away in the middle of a tool's output."""


Write = Callable[[str, bool], Awaitable[None]]  # (text, is_stderr)
SYS_POWER_STATE = "/sys/power/state"
AWAKE_POWER = 10.0  # the INA read-out of an awake board, times the mode's rails (see Session._workload)


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


@dataclass
class Board:
    """What sessions share: the board's data and answers, its files, its kernel log, and what it is doing."""

    data: BoardData
    answers: Answers
    speed: float
    files: dict[str, str] = field(default_factory=dict)  # written by redirections
    dmesg: list[str] = field(default_factory=list)
    booted_at: float = field(default_factory=time.monotonic)
    max_wait: float = 3.0  # a workload never takes longer than this many host seconds
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # set when `answers` is built
    # suspend-to-RAM (`echo mem > /sys/power/state`, rtcwake): (state word, RTC alarm in board seconds or None);
    # the simulated board prints the kernel's messages on its console (perfgate.sim.board.SimBoard.suspend)
    suspend: Callable[[str, float | None], Awaitable[None]] | None = None
    asleep: str | None = None  # the kernel's sleep state (deep, shallow, s2idle) while suspended
    jobs: set[asyncio.Task] = field(default_factory=set)  # background jobs (`cmd &`) still running

    def __post_init__(self) -> None:
        if self.answers._index or self.answers.workloads:
            self.ready.set()

    async def enter_sleep(self, word: str, alarm: float | None) -> None:
        if self.suspend is not None:
            await self.suspend(word, alarm)
        elif alarm:
            await asyncio.sleep(min(alarm / self.speed, self.max_wait))


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
        if _is_compound(line):
            done = await self._planned_prefix(line)
            if done is not None:
                return done
        status = 0
        for segment, op in split_list(line):
            if (op == "&&" and status != 0) or (op == "||" and status == 0):
                continue
            if _backgrounded(segment):
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
            if not _is_compound(prefix):
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
            answer = self.board.answers.lookup(_without_redirections(raw))
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
            if verbose:
                await out.write(gnu_time_v(inner, secs, status), True)
            else:
                await out.write(f"real\t0m{secs:.3f}s\nuser\t0m{secs * 0.9:.3f}s\nsys\t0m{secs * 0.1:.3f}s\n", True)
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
        if answer.tool == "power" and self.board.suspend is not None and self.board.asleep is None:
            # the rails of a board that can sleep but is awake: Linux running draws far more than in any
            # low-power mode (constructed: the factor only has to make a reading taken too early fail)
            answer = dataclasses.replace(answer, values={k: v * AWAKE_POWER for k, v in answer.values.items()})
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


# -- builtins ------------------------------------------------------------------------------------------------
Handler = Callable[[Session, list[str], _Out, "str | None"], Awaitable[int]]
BUILTINS: dict[str, Handler] = {}


def builtin(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for n in names:
            BUILTINS[n] = fn
        return fn

    return register


@builtin("true", ":", "sync", "mount", "umount", "modprobe", "insmod", "kill", "killall", "pkill", "ulimit",
         "systemctl", "udevadm", "echo_off", "set", "trap", "renice")  # fmt: skip
async def _ok(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    return 0


@builtin("wait")
async def _wait(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    """The shell's background jobs, to their end."""
    jobs, s.jobs = s.jobs, []
    for task in jobs:
        with contextlib.suppress(BaseException):
            await task
    return 0


@builtin("false")
async def _false(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    return 1


@builtin("echo")
async def _echo(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    newline = True
    while args and args[0] in ("-n", "-e", "-ne", "-en"):
        newline = newline and "n" not in args[0]
        args = args[1:]
    await out.write(" ".join(args) + ("\n" if newline else ""))
    return 0


@builtin("printf")
async def _printf(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    if not args:
        return 1
    fmt = args[0].replace("\\n", "\n").replace("\\t", "\t")
    try:
        text = fmt % tuple(args[1:]) if "%" in fmt else fmt
    except (TypeError, ValueError):
        text = fmt
    await out.write(text)
    return 0


@builtin("uname")
async def _uname(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    d = s.board.data
    rel = d.linux["kernel_release"]
    full = (f"Linux {d.hostname} {rel} #1 SMP PREEMPT Thu Jan  1 00:00:00 UTC 2024 aarch64 GNU/Linux"
            f" (perfgate simulated {d.board})")  # fmt: skip
    answer = {"-r": rel, "-n": d.hostname, "-m": "aarch64", "-s": "Linux", "-a": full}.get(args[0] if args else "-s")
    await out.write((answer or full) + "\n")
    return 0


@builtin("hostname")
async def _hostname(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    await out.write(("127.0.0.1 " if args[:1] == ["-I"] else s.board.data.hostname) + "\n")
    return 0


@builtin("nproc")
async def _nproc(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    await out.write(f"{s.board.data.profile.get('cpus', 2)}\n")
    return 0


async def _interface_tool(answer: tuple[str, str, int], out: _Out) -> int:
    """Write what sim.interfaces answered for `ip` or `ethtool` (stdout, stderr, exit status)."""
    text, err, status = answer
    if text:
        await out.write(text)
    if err:
        await out.write(err, True)
    return status


@builtin("ip")
async def _ip(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    return await _interface_tool(sim_interfaces.ip(args, s.board.data.profile, s.board.data.lab), out)


@builtin("ethtool")
async def _ethtool(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    answer = sim_interfaces.ethtool(args, s.board.data.profile, s.board.data.lab)
    if answer[2] < 0:  # only `ethtool -i` is answered on its own (pacing runs inside an answered command line)
        await out.write("sh: ethtool: not found\n", True)
        return 127
    return await _interface_tool(answer, out)


@builtin("sleep")
async def _sleep(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    try:
        secs = float(re.sub(r"[smhd]$", "", args[0])) if args else 0
    except ValueError:
        await out.write(f"sleep: invalid number '{args[0]}'\n", True)
        return 1
    await asyncio.sleep(min(secs / s.board.speed, s.board.max_wait * 2))
    return 0


@builtin("command", "which", "type")
async def _which(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    names = [a for a in args if not a.startswith("-")]
    status = 0
    for n in names:
        tool = s.board.answers.tool_of_binary(n)
        base = n.rsplit("/", 1)[-1]
        present = n in BUILTINS or n in WRAPPER_ARGS or base in answers_mod.SUPPORT or tool is not None
        if tool and tool in s.board.data.faults.missing_tool:
            present = False
        if present:
            await out.write((n if "/" in n else (n if n in BUILTINS else f"/usr/bin/{n}")) + "\n")
        else:
            status = 1
    return status


@builtin("cat")
async def _cat(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    files = [a for a in args if not a.startswith("-")]
    if not files:
        await out.write(stdin or "")
        return 0
    status = 0
    for f in files:
        path = f if f.startswith("/") else f"{s.cwd}/{f}"
        text = s.board.files.get(path)
        if text is None:
            text = proc_file(s.board, path)
        if text is None:
            await out.write(f"cat: can't open '{f}': No such file or directory\n", True)
            status = 1
        else:
            await out.write(text)
    return status


@builtin("rm", "mkdir", "touch", "cp", "mv", "chmod", "ln")
async def _files(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    paths = [a if a.startswith("/") else f"{s.cwd}/{a}" for a in args if not a.startswith("-")]
    if s.current == "rm":
        for p in paths:
            s.board.files.pop(p, None)
    elif s.current == "touch":
        for p in paths:
            s.board.files.setdefault(p, "")
    return 0


@builtin("dd")
async def _dd(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    opts = dict(a.split("=", 1) for a in args if "=" in a)
    units = {"": 1, "k": 1024, "K": 1024, "M": 1 << 20, "G": 1 << 30}
    bs_text = opts.get("bs", "512")
    bs = int(bs_text.rstrip("kKMG") or 0) * units.get(bs_text[-1:] if not bs_text[-1:].isdigit() else "", 1)
    count = int(opts.get("count", "1"))
    if "of" in opts:
        path = opts["of"] if opts["of"].startswith("/") else f"{s.cwd}/{opts['of']}"
        s.board.files[path] = ""
    secs = max(bs * count / 60e6, 0.001)
    await asyncio.sleep(min(secs / s.board.speed, s.board.max_wait))
    await out.write(f"{count}+0 records in\n{count}+0 records out\n{bs * count} bytes copied, {secs:.4f} s, "
                    f"{bs * count / secs / 1e6:.1f} MB/s\n", True)  # fmt: skip
    return 0


@builtin("rtcwake")
async def _rtcwake(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    """Set the RTC alarm, say so like rtcwake does, and suspend (`-m mem|standby|freeze`) until it rings."""
    secs = float(args[args.index("-s") + 1]) if "-s" in args and args.index("-s") + 1 < len(args) else 0.0
    mode = args[args.index("-m") + 1] if "-m" in args and args.index("-m") + 1 < len(args) else "standby"
    await out.write(f'rtcwake: wakeup from "{mode}" using /dev/rtc0 at {time.strftime("%a %b %d %H:%M:%S %Y")}\n')
    if mode in ("mem", "standby", "freeze"):
        await s.board.enter_sleep(mode, secs)
    else:
        await asyncio.sleep(min(secs / s.board.speed, s.board.max_wait))
    return 0


@builtin("cd")
async def _cd(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    target = args[0] if args else s.env["HOME"]
    s.cwd = target if target.startswith("/") else f"{s.cwd.rstrip('/')}/{target}"
    return 0


@builtin("pwd")
async def _pwd(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    await out.write(s.cwd + "\n")
    return 0


@builtin("export")
async def _export(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    for a in args:
        k, sep, v = a.partition("=")
        if sep:
            s.env[k] = v
    return 0


@builtin("unset")
async def _unset(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    for a in args:
        s.env.pop(a, None)
    return 0


@builtin("ls")
async def _ls(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    where = next((a for a in args if not a.startswith("-")), s.cwd).rstrip("/")
    names = sorted(p[len(where) + 1 :] for p in s.board.files if p.startswith(where + "/"))
    await out.write("".join(n + "\n" for n in names if "/" not in n))
    return 0


@builtin("grep")
async def _grep(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    flags = [a for a in args if a.startswith("-")]
    rest = [a for a in args if not a.startswith("-")]
    if not rest:
        return 2
    pattern, files = rest[0], rest[1:]
    text = stdin or ""
    for f in files:
        text += s.board.files.get(f) or proc_file(s.board, f) or ""
    try:
        rx = re.compile(pattern, re.IGNORECASE if "-i" in flags else 0)
    except re.error:
        rx = re.compile(re.escape(pattern))
    lines = [ln for ln in text.splitlines() if bool(rx.search(ln)) != ("-v" in flags)]
    if "-c" in flags:
        await out.write(f"{len(lines)}\n")
    elif "-q" not in flags:
        await out.write("".join(ln + "\n" for ln in lines))
    return 0 if lines else 1


@builtin("head", "tail")
async def _head(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    n = 10
    for i, a in enumerate(args):
        if a == "-n" and i + 1 < len(args):
            n = int(args[i + 1])
        elif re.fullmatch(r"-\d+", a):
            n = int(a[1:])
    lines = (stdin or "").splitlines(keepends=True)
    await out.write("".join(lines[:n] if s.current == "head" else lines[-n:]) if n else "")
    return 0


@builtin("wc")
async def _wc(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    text = stdin or ""
    await out.write(f"{text.count(chr(10))}\n" if "-l" in args else f"{len(text.split())}\n")
    return 0


@builtin("dmesg")
async def _dmesg(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    if args[:1] in (["-n"], ["--console-level"]) or any(a.startswith(("-n", "--console-level=")) for a in args):
        return 0  # sets the console loglevel: prints nothing (the simulated console shows every level)
    await out.write("".join(line + "\n" for line in s.board.dmesg))
    return 0


@builtin("uptime")
async def _uptime(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    up = (time.monotonic() - s.board.booted_at) * s.board.speed
    await out.write(
        f" 00:{int(up // 60) % 60:02d}:{int(up) % 60:02d} up {int(up // 60)} min,  load average: 0.08, 0.03, 0.01\n"
    )
    return 0


@builtin("date")
async def _date(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    fmt = next((a[1:] for a in args if a.startswith("+")), None)
    await out.write((time.strftime(fmt) if fmt else time.strftime("%a %b %d %H:%M:%S UTC %Y")) + "\n")
    return 0


@builtin("id", "whoami")
async def _id(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    user = s.board.data.linux["user"]
    uid = 0 if user == "root" else 1000
    await out.write(f"uid={uid}({user}) gid={uid}({user})\n" if s.current == "id" else f"{user}\n")
    return 0


@builtin("env", "printenv")
async def _env(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    await out.write("".join(f"{k}={v}\n" for k, v in sorted(s.env.items())))
    return 0


@builtin("sh", "bash", "ash")
async def _sh(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    if len(args) >= 2 and args[0] == "-c":
        inner = Session(s.board, Sink(_to(out), s.sink.channel, s.sink.drop), False)
        inner.env, inner.cwd = dict(s.env), s.cwd
        try:
            return await inner.run(args[1])
        except Exit as e:
            return e.code
    return 0


@builtin("exit", "logout")
async def _exit(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    raise Exit(int(args[0]) & 0xFF if args and args[0].lstrip("-").isdigit() else s.status)


@builtin("reboot")
async def _reboot(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    raise Reboot()


@builtin("poweroff", "halt", "shutdown")
async def _poweroff(s: Session, args: list[str], out: _Out, stdin: str | None) -> int:
    raise PowerOff()


WRAPPER_ARGS = {"time": False, "/usr/bin/time": False, "taskset": True, "chrt": True, "nice": True, "nohup": False,
                "timeout": True, "stdbuf": False, "sudo": False}  # fmt: skip


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


def _backgrounded(segment: str) -> bool:
    """`cmd &` (split_list keeps the `&` on the job it sends to the background)."""
    return segment.rstrip().endswith(" &") or segment.strip() == "&"


def _is_compound(line: str) -> bool:
    return len(split_list(line)) > 1 or len(split_pipes(line)) > 1


def _without_redirections(raw: str) -> str:
    try:
        words, _ = split_redirections(shlex.split(raw))
    except ValueError:
        return raw
    return shlex.join(words)


def arithmetic(expr: str, env: dict[str, str]) -> str:
    """sh's `$(( ))`: integers, + - * / %, parentheses, variables (unset = 0)."""
    import ast

    text = re.sub(r"\$?\b([A-Za-z_]\w*)\b", lambda m: str(int(env.get(m.group(1), "0") or 0)), expr)

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            ops = {
                ast.Add: lambda: a + b,
                ast.Sub: lambda: a - b,
                ast.Mult: lambda: a * b,
                ast.Div: lambda: a // b if a * b >= 0 else -(-a // b),  # sh truncates toward zero
                ast.FloorDiv: lambda: a // b,
                ast.Mod: lambda: a % b,
            }
            if type(node.op) in ops:
                return ops[type(node.op)]()
        raise ValueError(expr)

    try:
        return str(ev(ast.parse(text, mode="eval")))
    except (ValueError, SyntaxError, ZeroDivisionError, TypeError):
        return "0"


# -- files of /proc and /sys ---------------------------------------------------------------------------------
def cpu_khz(board: Board) -> int:
    for c in board.data.criteria:
        if "cpu_clock" in c.name or "cpu_clock" in c.metric or "cpu_clock" in c.row:
            return int(c.value * 1000)
    m = re.search(r"(\d+(?:\.\d+)?)\s*GHz", str(board.data.profile.get("description", "")), re.IGNORECASE)
    return int(float(m.group(1)) * 1_000_000) if m else 1_000_000


def proc_file(board: Board, path: str) -> str | None:
    d = board.data
    if path == "/proc/cpuinfo":
        one = (
            "processor\t: {n}\nBogoMIPS\t: 400.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid\n"
            "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd03\n"
            "CPU revision\t: 4\n\n"
        )
        return "".join(one.format(n=n) for n in range(int(d.profile.get("cpus") or 2)))
    if re.fullmatch(r"/sys/devices/system/cpu/cpu\d+/cpufreq/(cpuinfo|scaling)_(cur|max)_freq", path):
        return f"{cpu_khz(board)}\n"
    if path == "/proc/version":
        return f"Linux version {d.linux['kernel_release']} (perfgate simulated {d.board}) #1 SMP PREEMPT\n"
    if path == "/etc/hostname":
        return d.hostname + "\n"
    if path == "/etc/os-release":
        return 'ID=arago\nNAME="Arago"\nVERSION="2024.04 (perfgate simulated board)"\n'
    if path == "/proc/uptime":
        up = (time.monotonic() - board.booted_at) * board.speed
        return f"{up:.2f} {up * 3.5:.2f}\n"
    if path == "/proc/loadavg":
        return "0.08 0.03 0.01 1/123 1234\n"
    if path == "/proc/meminfo":
        return "MemTotal:        1897772 kB\nMemFree:         1645312 kB\nMemAvailable:    1702344 kB\n"
    return None


def gnu_time_v(command: str, secs: float, status: int) -> str:
    return (
        f'\tCommand being timed: "{command}"\n\tUser time (seconds): {secs * 0.97:.2f}\n'
        f"\tSystem time (seconds): {secs * 0.02:.2f}\n\tPercent of CPU this job got: 99%\n"
        f"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:{secs:05.2f}\n\tMaximum resident set size (kbytes): 5120\n"
        f"\tExit status: {status}\n"
    )


# -- splitting -----------------------------------------------------------------------------------------------
def _scan(line: str, ops: tuple[str, ...], cuts: list[tuple[int, str]] | None = None) -> list[tuple[str, str]]:
    """Split `line` at the operators `ops` outside quotes and parentheses; each piece with the operator before it.
    `cuts` receives (offset, operator) of every split."""
    parts: list[tuple[str, str]] = []
    buf: list[str] = []
    quote, depth, prev_op, i = "", 0, ";", 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"`":
            quote = ch
        elif ch == "(":  # $( ), $(( )) and ( subshells ) stay whole
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth and line.startswith("||", i) and "||" not in ops:
            buf.append("||")  # a pipe split leaves `a || b` whole
            i += 2
            continue
        elif not depth:
            op = next((o for o in ops if line.startswith(o, i)), None)
            if op == "&" and (line[i - 1 : i] == ">" or line[i + 1 : i + 2] == ">"):
                op = None  # 2>&1, &>file
            if op:
                if cuts is not None:
                    cuts.append((i, op))
                parts.append(("".join(buf).strip() + (" &" if op == "&" else ""), prev_op))
                prev_op = ";" if op == "&" else op
                buf = []
                i += len(op)
                continue
        buf.append(ch)
        i += 1
    parts.append(("".join(buf).strip(), prev_op))
    return [(p, o) for p, o in parts if p and p != "&"]


def list_cuts(line: str) -> list[tuple[int, str]]:
    """Offsets and operators where a command list splits (`a; b && c` -> [(1, ;), (5, &&)])."""
    cuts: list[tuple[int, str]] = []
    _scan(line, LIST_OPS, cuts)
    return cuts


LIST_OPS = ("&&", "||", ";", "\n", "&")


def split_list(line: str) -> list[tuple[str, str]]:
    """`a; b && c || d & e` -> [(a, ;), (b, ;), (c, &&), (d, ||), ...]."""
    return _scan(line, LIST_OPS)


def split_pipes(segment: str) -> list[str]:
    return [p for p, _ in _scan(segment, ("|",))]


def split_redirections(words: list[str]) -> tuple[list[str], list[tuple[int, str, str]]]:
    """Words without their redirections, and the redirections as (fd, op, target) in order."""
    out: list[str] = []
    redirs: list[tuple[int, str, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        m = re.fullmatch(r"(\d?|&)(>>|>&|>|<)(.*)", w)
        if m and not (w.startswith("<") and m.group(3) == "" and i + 1 >= len(words)):
            fd_text, op, target = m.groups()
            if not target and i + 1 < len(words):
                i += 1
                target = words[i]
            if op == "<":
                i += 1
                continue
            if fd_text == "&":
                redirs += [(1, ">", target), (2, ">&", "1")]
            else:
                fd = int(fd_text) if fd_text else 1
                if op == ">&" and not target.isdigit():
                    redirs += [(1, ">", target), (2, ">&", "1")]
                else:
                    redirs.append((fd, op, target))
            i += 1
            continue
        out.append(w)
        i += 1
    return out, redirs


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
