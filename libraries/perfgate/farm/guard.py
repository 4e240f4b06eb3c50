"""The guard: a small process the gate starts beside itself when it acquires a place. It watches its parent (the
gate: robot, or a pabot worker) and, when the parent dies without giving the place back (SIGKILL, a crash, the CI
job cancelled), releases the place - only if the dead gate still holds it - and cancels its reservation. When the
gate gives the place back itself, it stops the guard (SIGTERM), which then does nothing.

If the guard cannot reach the coordinator, or dies with the gate (a whole machine going down), the next gate on the
same host releases what the dead gate left (perfgate.farm.client.Farm.sweep).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from perfgate.farm.client import Farm, FarmError, Place, owner_name


def start(place: Place, log: Path | None = None) -> subprocess.Popen:
    """Start the guard for `place` as a child of this process, in its own session (a Ctrl-C or a kill of the
    gate's process group does not reach it)."""
    argv = [sys.executable, "-m", "perfgate", "farm-guard", "--coordinator", place.coordinator, "--place", place.name,
            "--token", place.token, "--owner", place.owner]  # fmt: skip
    out = log.open("ab") if log else subprocess.DEVNULL
    try:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
    finally:
        if log:
            out.close()


def stop(process: subprocess.Popen | None, timeout: float = 5.0) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout)


def watch(coordinator: str, place: str, token: str, owner: str, poll: float = 0.5, retry_for: float = 60.0) -> int:
    parent = os.getppid()
    stopped = False

    def on_term(*_: object) -> None:
        nonlocal stopped
        stopped = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C for the gate is not for the guard
    print(f"farm-guard {os.getpid()}: watching gate {parent} holding {place} (reservation {token})", flush=True)
    while not stopped and os.getppid() == parent:
        time.sleep(poll)
    if stopped:
        return 0
    print(f"farm-guard: gate {parent} is gone: giving {place} back", flush=True)
    deadline = time.monotonic() + retry_for
    while True:
        try:
            with Farm(coordinator, owner=owner_name().replace(".perfgate-", ".perfgate-guard-"), say=print) as farm:
                released = farm.release(place, owner)
                cancelled = farm.cancel(token)
            print(f"farm-guard: {place} {'released' if released else 'was no longer held by ' + owner}; "
                  f"reservation {token} {'cancelled' if cancelled else 'already gone'}", flush=True)  # fmt: skip
            return 0
        except FarmError as e:
            if time.monotonic() > deadline:
                print(f"farm-guard: could not give {place} back: {e} (the next gate on this host will)", flush=True)
                return 1
            time.sleep(2)
