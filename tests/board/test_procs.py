"""One liveness answer for the supervisor, the farm guard and sweep, and the run states (perfgate.procs)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from perfgate import procs


def test_a_running_process_is_alive_and_its_start_time_names_it() -> None:
    me = os.getpid()
    assert procs.alive(me) and procs.alive(str(me), procs.start_time(me))
    assert not procs.alive(me, "1")  # same pid, another start time: a reused pid is not the process


def test_a_zombie_an_ended_process_and_nonsense_are_dead() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and procs.alive(child.pid):
        time.sleep(0.05)
    assert not procs.alive(child.pid)  # exited, not yet reaped: a zombie
    child.wait()
    assert not procs.alive(child.pid)
    assert not procs.alive(None) and not procs.alive("abc") and not procs.alive(0)
