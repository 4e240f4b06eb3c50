"""Is a process still there? One answer for the QEMU supervisor, the farm's guard and sweep, and the run states.

A zombie is dead (it will never do anything again); a process of another user is alive; with `started` (its start
time, /proc/<pid>/stat field 22) a reused pid is told apart from the process it names."""

from __future__ import annotations

import os
from pathlib import Path


def start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (/proc/<pid>/stat field 22): pid + this = one process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def alive(pid: object, started: object = None) -> bool:
    try:
        pid = int(pid)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return True  # no /proc to ask: the signal said it is there
    if fields[0] == "Z":
        return False
    return started is None or fields[19] == str(started)
