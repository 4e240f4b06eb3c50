"""One gate drives a board at a time: a lock per lab and board, held from before the run opens until its lab closes.

The lock is an flock(2) on a file named after the lab and the board in the lock directory (PERFGATE_LOCKS, default
<tmp>/perfgate-locks, shared by every user of the machine): the kernel drops it when the holding process ends,
however it ends, so a killed gate never leaves a stale lock. The file says who holds it (pid, host, start time,
command) for the gate that finds it taken: that gate refuses at once naming the holder, or, given a wait
(`-v BOARD_WAIT:<seconds>`), waits and says so on the console until the board is free or the wait is over.

A board the gate starts itself (the sim and qemu labs) is the run's own and needs no lock; a labgrid place is
reserved through its coordinator and a LAVA board by LAVA's scheduler. Two gates on one machine share the lock
directory; gates on different machines meet at the board's serial port, which the console opens exclusively.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

PROGRESS_EVERY = 30.0  # seconds between the console lines of a gate waiting for a board


class BoardBusy(AssertionError):
    """Another gate drives the board."""


def lock_dir() -> Path:
    return Path(os.environ.get("PERFGATE_LOCKS") or Path(tempfile.gettempdir()) / "perfgate-locks")


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name) or "_"


class BoardLock:
    """The lock of one board in one lab. `acquire()` takes it (or raises BoardBusy), `release()` gives it back."""

    def __init__(self, lab: str, board: str, directory: Path | None = None) -> None:
        self.lab, self.board = lab, board
        self.path = (directory or lock_dir()) / f"{_safe(lab)}.{_safe(board)}.lock"
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def holder(self) -> str:
        """Who holds the lock, as its file says."""
        try:
            info = json.loads(self.path.read_text(encoding="utf-8") or "{}")
        except (OSError, ValueError):
            info = {}
        if not info:
            return "another gate (it has not said who yet)"
        return (f"pid {info.get('pid')} on {info.get('host')} since {info.get('started')} "
                f"(`{info.get('command', '?')}`)")  # fmt: skip

    def _open(self) -> int:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # one directory for every user of the machine, as /tmp is
            os.chmod(self.path.parent, 0o1777)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        with contextlib.suppress(OSError):
            os.fchmod(fd, 0o666)
        return fd

    def _try(self, fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno in (errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True

    def acquire(self, wait: float = 0.0, say: Callable[[str], None] = print, poll: float = 0.5) -> float:
        """Take the lock; returns the seconds waited. Taken by another gate: BoardBusy at once (`wait` 0), or after
        waiting up to `wait` seconds, said on the console at the start and every PROGRESS_EVERY seconds."""
        if self._fd is not None:
            return 0.0
        fd = self._open()
        started = time.monotonic()
        said = -PROGRESS_EVERY
        what = f"{self.board} in LAB={self.lab}"
        while not self._try(fd):
            waited = time.monotonic() - started
            if waited >= wait:
                os.close(fd)
                how = (f"waited {waited:.0f} s (BOARD_WAIT)" if wait else
                       "-v BOARD_WAIT:<seconds> waits for it")  # fmt: skip
                raise BoardBusy(f"{what} is driven by another gate: {self.holder()}; {how} (lock {self.path})")
            if waited - said >= PROGRESS_EVERY:
                say(f"{what} is driven by another gate: {self.holder()}; waiting for it ({waited:.0f} s of "
                    f"{wait:g} s, BOARD_WAIT)")  # fmt: skip
                said = waited
            time.sleep(poll)
        program = Path(sys.argv[0])
        program_name = f"python -m {program.parent.name}" if program.name == "__main__.py" else program.name
        command = " ".join([program_name, *sys.argv[1:]])[:300]
        info = {"pid": os.getpid(), "host": socket.gethostname(), "board": self.board, "lab": self.lab,
                "started": datetime.now(UTC).isoformat(timespec="seconds"), "command": command}  # fmt: skip
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        self._fd = fd
        return time.monotonic() - started

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        os.close(self._fd)  # the flock goes with the last descriptor
        self._fd = None
