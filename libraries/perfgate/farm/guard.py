"""The guard: a small process the gate starts beside itself before it reserves a place. It watches the gate (robot,
or a pabot worker) by its pid and, when the gate dies without giving the place back (SIGKILL, a crash, the CI job
cancelled), releases every place the gate's client still holds and cancels its reservations (a gate killed while
it waits in the queue leaves no reservation either). When the gate gives the place back itself, it stops the guard
(SIGTERM), which then does nothing.

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

from perfgate.farm.client import Farm, FarmError
from perfgate.procs import alive


def start(coordinator: str, owner: str, log: Path | None = None) -> subprocess.Popen:
    """Start the guard for the gate `owner` (this process) as its child, in its own session (a Ctrl-C or a kill of
    the gate's process group does not reach it). Started before the reservation is made, so that there is no moment
    when the gate holds a reservation or a place and nothing would give it back."""
    argv = [sys.executable, "-m", "perfgate", "farm-guard", "--coordinator", coordinator, "--owner", owner,
            "--gate", str(os.getpid())]  # fmt: skip
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


def give_back_all(farm: Farm, owner: str) -> list[str]:
    """Release every place `owner` holds and cancel every reservation it made."""
    done = []
    for name, place in sorted(farm.places().items()):
        if place.acquired == owner and farm.release(name, owner):
            done.append(f"{name} released")
    for res in farm.reservations():
        if res.owner == owner and farm.cancel(res.token):
            done.append(f"reservation {res.token} cancelled")
    return done


def watch(coordinator: str, owner: str, gate: int, poll: float = 0.5, retry_for: float = 60.0) -> int:
    stopped = False

    def on_term(*_: object) -> None:
        nonlocal stopped
        stopped = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C for the gate is not for the guard
    print(f"farm-guard {os.getpid()}: watching gate {gate} ({owner}) on {coordinator}", flush=True)
    while not stopped and alive(gate):
        time.sleep(poll)
    if stopped:
        return 0
    print(f"farm-guard: gate {gate} is gone: giving back what {owner} holds", flush=True)
    deadline = time.monotonic() + retry_for
    while True:
        try:
            with Farm(coordinator, owner=owner.replace(".perfgate-", ".perfgate-guard-"), say=print) as farm:
                done = give_back_all(farm, owner)
            print(f"farm-guard: {'; '.join(done) or 'nothing was held'}", flush=True)
            return 0
        except FarmError as e:
            if time.monotonic() > deadline:
                print(f"farm-guard: could not give back what {owner} holds: {e} (the next gate on this host will)",
                      flush=True)  # fmt: skip
                return 1
            time.sleep(2)
