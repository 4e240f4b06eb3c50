"""The serial console: pyserial's serial_for_url (a device path, socket://, rfc2217://), read by a thread that
timestamps every chunk on the host side, strips terminal escape sequences, and writes the whole transcript to a file.

Everything waits with `expect()`: a regular expression, a timeout, and patterns that fail at once (a kernel panic).
A timeout raises ConsoleTimeout (an AssertionError) whose message says what was awaited and what came last.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import serial

from perfgate.board.text import split_partial, strip_escapes
from perfgate.errors import BoardLost

Pattern = str | re.Pattern[str]


class ConsoleTimeout(AssertionError):
    """Nothing matching came on the console in time."""


class ConsoleFailure(AssertionError):
    """The console showed a failure pattern (kernel panic...)."""


class ConsoleLost(BoardLost, AssertionError):
    """The console connection closed (the board process died, ser2net dropped)."""


class ConsoleSilent(ConsoleTimeout):
    """The console printed nothing for longer than the board data allows (a hung board, a dead adapter)."""


@dataclass
class Match:
    index: int  # which pattern matched
    start: int  # offsets in the console buffer
    end: int
    text: str  # the matched text
    groups: tuple

    def group(self, n: int = 0) -> str:
        return self.text if n == 0 else self.groups[n - 1]


def compile_(p: Pattern) -> re.Pattern[str]:
    return p if isinstance(p, re.Pattern) else re.compile(re.escape(p))


def tail(text: str, n: int = 300) -> str:
    t = text[-n:].replace("\n", "⏎")
    return repr(t) if t.strip() else "(nothing)"


class ConsoleDriver(Protocol):
    """What the other drivers need from a console. Offsets count characters of clean text (escape sequences and CR
    removed); `expect` waits for the first of its patterns after `since` (default: the end of the last match).

    Any console that keeps a host-timestamped clean stream can stand in: `Console` below reads a device path or a
    pyserial URL (`Console.from_host_port(host, port)` for a ser2net/labgrid network serial port)."""

    port: str

    def open(self) -> None: ...
    def close(self) -> None: ...
    def write(self, text: str) -> None: ...
    def sendline(self, line: str) -> int: ...
    def expect(self, patterns: Pattern | list[Pattern], timeout: float, what: str = "", since: int | None = None,
               fail: dict[str, Pattern] | None = None, poke: float | None = None,
               silence: float | None = None) -> Match: ...  # fmt: skip
    def mark(self) -> int: ...
    def consume(self) -> int: ...
    def text(self, start: int = 0, end: int | None = None) -> str: ...
    def quiet(self, seconds: float, limit: float) -> None: ...
    def time_at(self, offset: int) -> float: ...
    def timestamped(self, start: int, end: int, t0: float) -> str: ...


class Console:
    """The serial console through pyserial: a device path (/dev/ttyUSB0), socket://host:port, rfc2217://host:port."""

    @classmethod
    def from_host_port(cls, host: str, port: int, baud: int = 115200, transcript: Path | None = None,
                       rfc2217: bool = False) -> Console:  # fmt: skip
        """A network serial port (ser2net, a labgrid exporter's NetworkSerialPort): raw TCP or RFC 2217. RFC 2217
        goes with `ign_set_control`, as labgrid's SerialDriver opens it: ser2net answers no modem-control option
        for a `local` port, and pyserial would otherwise fail the open after waiting for one."""
        url = f"rfc2217://{host}:{int(port)}?ign_set_control" if rfc2217 else f"socket://{host}:{int(port)}"
        return cls(url, baud, transcript)

    def __init__(self, port: str, baud: int = 115200, transcript: Path | None = None,
                 echo: Callable[[str], None] | None = None) -> None:  # fmt: skip
        self.port = port
        self.baud = baud
        self.transcript_path = transcript
        self._transcript = None
        self._serial: serial.SerialBase | None = None
        self._buf: list[str] = []  # clean text chunks
        self._text = ""  # joined lazily
        self._len = 0
        self._times: list[tuple[int, float]] = []  # (offset of chunk start, host monotonic time)
        self._pos = 0  # what expect() has consumed
        self._pending = ""
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.error: str | None = None
        self.echo = echo
        self.t0 = time.monotonic()
        self.wall0 = time.time()

    # -- connection -------------------------------------------------------------------------------
    def _connect(self) -> serial.SerialBase:
        """The port, opened exclusively (a device: no second gate, minicom or screen reads the board's console
        meanwhile); a labgrid target's console driver overrides this: perfgate.board.labgrid_env."""
        return serial.serial_for_url(self.port, baudrate=self.baud, timeout=0.05, exclusive=True)

    def open(self) -> None:
        try:
            self._serial = self._connect()
        except (serial.SerialException, OSError, ValueError) as e:
            held = " (another program has it open: `fuser -v` on the device names it)" if "exclusive" in str(e) else ""
            raise ConsoleLost(f"cannot open the serial console {self.port}: {e}{held}") from None
        if self.transcript_path:
            self.transcript_path.parent.mkdir(parents=True, exist_ok=True)
            self._transcript = self.transcript_path.open("ab")  # the raw bytes: escapes and CR LF kept
        self._stop.clear()
        self.error = None
        self._thread = threading.Thread(target=self._reader, name=f"console {self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(2)
        if self._serial:
            with contextlib.suppress(Exception):
                self._serial.close()
        if self._transcript:
            self._transcript.close()
            self._transcript = None

    @property
    def is_open(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _reader(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        assert self._serial is not None
        while not self._stop.is_set():
            try:
                # never ask for more than is waiting: pyserial's socket:// read drops what it has read when the
                # peer hangs up before the request is filled (a board that prints, then ser2net closes)
                data = self._serial.read(min(4096, self._serial.in_waiting) or 1)
            except (serial.SerialException, OSError) as e:
                with self._cond:
                    self.error = f"the serial console {self.port} closed: {e}"
                    self._cond.notify_all()
                return
            if not data:
                continue
            now = time.monotonic()
            text = decoder.decode(data)
            if self._transcript:
                self._transcript.write(data)
                self._transcript.flush()
            clean, self._pending = split_partial(self._pending + text)
            clean = strip_escapes(clean)
            if not clean:
                continue
            with self._cond:
                self._times.append((self._len, now))
                self._buf.append(clean)
                self._len += len(clean)
                self._cond.notify_all()
            if self.echo:
                self.echo(clean)

    # -- text -------------------------------------------------------------------------------------
    def text(self, start: int = 0, end: int | None = None) -> str:
        with self._cond:
            if len(self._buf) > 1:
                self._buf = ["".join(self._buf)]
            whole = self._buf[0] if self._buf else ""
        return whole[start:end]

    def mark(self) -> int:
        """The current end of the console text; pass it as `since` to look only at what comes after."""
        with self._cond:
            return self._len

    def consume(self) -> int:
        """Forget everything received so far (expect() starts after it)."""
        self._pos = self.mark()
        return self._pos

    def time_at(self, offset: int) -> float:
        """Host time (monotonic) at which the character at `offset` arrived."""
        with self._cond:
            times = list(self._times)
        t = times[0][1] if times else self.t0
        for start, when in times:
            if start > offset:
                break
            t = when
        return t

    # -- I/O --------------------------------------------------------------------------------------
    def write(self, text: str) -> None:
        if self._serial is None:
            raise ConsoleLost(f"the serial console {self.port} is not open")
        try:
            self._serial.write(text.encode("utf-8"))
            self._serial.flush()
        except (serial.SerialException, OSError) as e:
            raise ConsoleLost(f"cannot write to the serial console {self.port}: {e}") from None

    def sendline(self, line: str) -> int:
        """Type a line; returns the console offset before it (for expect(since=...))."""
        mark = self.mark()
        self.write(line + "\r")
        return mark

    def expect(self, patterns: Pattern | list[Pattern], timeout: float, what: str = "",
               since: int | None = None, fail: dict[str, Pattern] | None = None, poke: float | None = None,
               silence: float | None = None) -> Match:  # fmt: skip
        """Wait for the first of `patterns` after `since` (default: what expect() consumed last).
        `fail` maps a message to a pattern that ends the wait at once (ConsoleFailure).
        `poke`: after that many seconds with nothing new on the console, type a line end (as labgrid's ShellDriver
        does), so that a prompt printed before the gate looked, or lost in a notice, is printed again.
        `silence`: nothing at all on the console for that long ends the wait early (ConsoleSilent)."""
        plist = [compile_(p) for p in (patterns if isinstance(patterns, list) else [patterns])]
        flist = [(msg, compile_(p)) for msg, p in (fail or {}).items()]
        start = self._pos if since is None else since
        began = time.monotonic()
        deadline = began + timeout
        pokes = 0
        last_len, last_new, last_poke = -1, began, began
        while True:
            text = self.text()
            for msg, fp in flist:
                fm = fp.search(text, start)
                if fm:
                    eol = text.find("\n", fm.end())
                    line = text[text.rfind("\n", 0, fm.start()) + 1 : eol if eol >= 0 else len(text)]
                    self._pos = fm.end()
                    raise ConsoleFailure(f"{msg}: {line.strip()!r} on the console {self.port}")
            best = None
            for i, p in enumerate(plist):
                m = p.search(text, start)
                if m and (best is None or m.start() < best[1].start()):
                    best = (i, m)
            if best:
                i, m = best
                self._pos = m.end()
                return Match(i, m.start(), m.end(), m.group(0), m.groups())
            now = time.monotonic()
            if len(text) != last_len:  # silent since the later of the wait's start and the last chunk
                last_new = max(began, self._last_data(began)) if last_len < 0 else now
                last_len = len(text)
            waiting = what or plist[0].pattern
            if silence is not None and now - last_new >= silence:
                said = f" ({pokes} line ends typed)" if pokes else ""
                raise ConsoleSilent(f"no {waiting!r} on the console {self.port}: it printed nothing for "
                                    f"{now - last_new:.0f} s{said} (a hung board or a dead console?); "
                                    f"last output: {tail(text)}")  # fmt: skip
            if poke is not None and now - max(last_new, last_poke) >= poke:
                self.write("\r")
                pokes += 1
                last_poke = now
            with self._cond:
                if self._len == len(text):
                    if self.error:
                        raise ConsoleLost(f"{self.error} while waiting for {waiting!r}")
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        said = f" ({pokes} line ends typed while it was quiet)" if pokes else ""
                        raise ConsoleTimeout(f"no {waiting!r} on the console {self.port} within {timeout:g} s{said}; "
                                             f"last output: {tail(text)}")  # fmt: skip
                    waits = [remaining, 0.5]
                    if poke is not None:
                        waits.append(max(0.01, max(last_new, last_poke) + poke - time.monotonic()))
                    if silence is not None:
                        waits.append(max(0.01, last_new + silence - time.monotonic()))
                    self._cond.wait(min(waits))

    def _last_data(self, default: float) -> float:
        """Host time of the last chunk received (`default` when none came yet)."""
        with self._cond:
            return self._times[-1][1] if self._times else default

    def quiet(self, seconds: float, limit: float) -> None:
        """Wait until the console has been silent for `seconds` (at most `limit` seconds)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            n = self.mark()
            time.sleep(seconds)
            if self.mark() == n:
                return

    def timestamped(self, start: int, end: int, t0: float) -> str:
        """Lines between two offsets prefixed like grabserial -t -d: `[h:mm:ss.ffffff delta] text`."""
        from perfgate.tools.boot import stamp

        text = self.text(start, end)
        out, offset, last = [], start, 0.0
        for line in text.split("\n"):
            t = self.time_at(offset) - t0
            if line:
                out.append(f"{stamp(t, max(0.0, t - last))} {line}")
                last = t
            offset += len(line) + 1
        return "\n".join(out)


def await_lines(console: ConsoleDriver, patterns: list[str], since: int, timeout: float,
                abort: list[str] | None = None, quiet: float = 0.0, limit: float | None = None) -> int:  # fmt: skip
    """Wait until the console shows each of `patterns` (regular expressions) after `since`, in order (what a kernel
    prints as it goes: evidence that the board did something), within `limit` seconds (default `timeout`, the
    figure the data gave, said in the message); then `quiet` seconds in which none of `abort` shows. Returns the
    offset where the last pattern matched. ConsoleTimeout when a pattern does not come in time, ConsoleFailure when
    an abort pattern shows first (both AssertionErrors), ConsoleLost when the console goes away."""
    limit = timeout if limit is None else limit
    deadline = time.monotonic() + limit
    either = "|".join(f"(?:{p})" for p in abort or [])  # one pattern: the earliest abort line is the one named
    fail = {"the console showed a line that ends the wait": re.compile(either)} if either else {}
    at, start = since, since
    for i, p in enumerate(patterns):
        try:
            m = console.expect(re.compile(p), max(0.01, deadline - time.monotonic()), what=p, since=at, fail=fail)
        except ConsoleTimeout as e:
            seen = " after " + ", ".join(f"`{q}`" for q in patterns[:i]) if i else ""
            here = f" ({limit:g} s here)" if limit != timeout else ""
            last = str(e).split("; ", 1)[-1]
            raise ConsoleTimeout(f"no `{p}` on the console{seen} within {timeout:g} s{here}: {last}") from None
        at, start = m.end, m.start
    if fail and quiet > 0:
        try:
            m = console.expect(list(fail.values()), quiet, what="an abort", since=at)
        except ConsoleTimeout:
            return start
        eol = console.text(m.start).find("\n")
        line = console.text(m.start, m.start + eol if eol >= 0 else None).strip()
        raise ConsoleFailure(f"the console showed a line that ends the wait: {line!r}, within {quiet:g} s of "
                             f"`{patterns[-1]}`")  # fmt: skip
    return start
