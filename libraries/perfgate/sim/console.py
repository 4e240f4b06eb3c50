"""The serial console: a real pseudo-terminal whose slave (`/dev/pts/N`) the gate opens like a USB-serial adapter.

Output is paced like a UART (baud / 10 bytes a second, times the speed factor) and lost while nobody has the
port open (a real adapter that is not open receives nothing). Input is delivered only while the board is
powered. With the `garbage` fault, random bytes are interleaved with what the board says.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import errno
import fcntl
import os
import random
import re
import tty
from collections import deque
from collections.abc import Callable

CHUNK = 256  # bytes written at once (a UART FIFO's worth, roughly)
PROBE_S = 0.1  # how often to look for a listener while nobody has the port open
# Line noise (fault `garbage`): before any byte on the wire, a burst of 1-8 random bytes with this chance (one
# burst in about 1280 bytes). The line does not know how the board's software batches its writes: a chance per
# chunk (as before) hit a 1-byte echo or a 3-byte `=> ` prompt as often as a 256-byte block, so the gate's
# typed commands came back with a burst in every fifth character, which no real line does.
GARBAGE_PER_BYTE = 0.2 / CHUNK

_BARE_LF = re.compile(r"(?<!\r)\n")


class Console:
    def __init__(self, speed: float = 1.0, baud: int = 115200, rng: random.Random | None = None) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        tty.setraw(slave)  # no echo, no line discipline: what a USB-serial adapter opened by pyserial gives
        os.close(slave)  # the master reads EIO while no one holds the slave: that is how we see a listener
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.rate = baud / 10 * max(speed, 0.01)  # bytes per second
        self.rng = rng or random.Random()
        self.powered = False
        self.garbage = False
        self.listening = False
        self.on_input: Callable[[bytes], None] = lambda data: None
        self.transcript: Callable[[bytes], None] | None = None  # every byte the board sends (tests, debugging)
        self._queue: deque[bytes] = deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: list[asyncio.Task] = []
        self._reading = False

    # -- lifecycle -----------------------------------------------------------------------------------------
    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._writer()), asyncio.create_task(self._probe())]

    def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        self._stop_reading()
        with contextlib.suppress(OSError):
            os.close(self.master)

    # -- output --------------------------------------------------------------------------------------------
    def write(self, text: str) -> None:
        """Queue what the board says (bare LF becomes CR LF, as a tty's ONLCR does). Nothing while off."""
        if not self.powered or not text:
            return
        data = _BARE_LF.sub("\r\n", text).encode("utf-8", "replace")
        for i in range(0, len(data), CHUNK):
            self._queue.append(data[i : i + CHUNK])
        self._idle.clear()
        self._wake.set()

    async def drain(self) -> None:
        """Wait until everything queued has gone out on the line."""
        await self._idle.wait()

    def flush(self) -> None:
        """Drop whatever is still queued (power off)."""
        self._queue.clear()
        self._idle.set()

    async def _writer(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                chunk = self._queue.popleft()
                if self.garbage:
                    chunk = self._noisy(chunk)
                self._send(chunk)
                await asyncio.sleep(len(chunk) / self.rate)
            self._idle.set()

    def _noisy(self, chunk: bytes) -> bytes:
        out = bytearray()
        for byte in chunk:
            if self.rng.random() < GARBAGE_PER_BYTE:
                out += bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 8)))
            out.append(byte)
        return bytes(out)

    def _send(self, chunk: bytes) -> None:
        if not self.listening:
            return  # nobody has the port open: the bytes are lost, as on a real line
        if self.transcript:
            self.transcript(chunk)
        try:
            os.write(self.master, chunk)
        except BlockingIOError:
            pass  # the listener does not read: its buffer overflows and the bytes are lost
        except OSError as e:
            if e.errno == errno.EIO:
                self._lost_listener()

    # -- input ---------------------------------------------------------------------------------------------
    def _start_reading(self) -> None:
        if not self._reading:
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False

    def _lost_listener(self) -> None:
        self.listening = False
        self._stop_reading()

    def _read(self) -> bytes | None:
        """Bytes typed by the listener; b"" when there is a listener but nothing typed; None when no listener."""
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as e:
            if e.errno == errno.EIO:
                return None
            raise

    def _readable(self) -> None:
        data = self._read()
        if data is None:
            self._lost_listener()
            return
        if data and self.powered:
            self.on_input(data)

    async def _probe(self) -> None:
        while True:
            if not self.listening:
                data = self._read()
                if data is not None:
                    self.listening = True
                    self._start_reading()
                    if data and self.powered:
                        self.on_input(data)
            await asyncio.sleep(PROBE_S)


class LineReader:
    """Turns typed bytes into lines like a console does: echo, backspace, CR or LF (CR LF counts once),
    Ctrl-C, Ctrl-U; escape sequences (terminal answers) are dropped."""

    INTR = "\x03"

    def __init__(self, echo: Callable[[str], None]) -> None:
        self._echo = echo
        self.echo_on = True
        self._buf: list[str] = []
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._last_cr = False
        self._esc = ""

    def reset(self) -> None:
        self._buf.clear()
        self._esc = ""
        self._last_cr = False

    def feed(self, data: bytes) -> list[str]:
        """Lines completed by `data` (without line end); Ctrl-C gives LineReader.INTR."""
        events: list[str] = []
        for ch in self._decoder.decode(data):
            if self._esc:
                self._esc += ch
                if len(self._esc) > 1 and (ch.isalpha() or ch == "~" or len(self._esc) > 16):
                    self._esc = ""
                continue
            was_cr, self._last_cr = self._last_cr, ch == "\r"
            if ch == "\x1b":
                self._esc = ch
            elif ch in "\r\n":
                if ch == "\n" and was_cr:
                    continue
                self._say("\r\n")
                events.append("".join(self._buf))
                self._buf.clear()
            elif ch in "\x7f\x08":
                if self._buf:
                    self._buf.pop()
                    self._say("\b \b")
            elif ch == "\x03":
                self._buf.clear()
                events.append(self.INTR)
            elif ch == "\x15":
                self._say("\b \b" * len(self._buf))
                self._buf.clear()
            elif ch == "\t" or ch >= " ":
                self._buf.append(ch)
                self._say(ch)
        return events

    def _say(self, text: str) -> None:
        if self.echo_on:
            self._echo(text)
