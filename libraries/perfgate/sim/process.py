"""The simulated board as a process: its state file, its power switch (a Unix socket that
`python -m perfgate sim-power` talks to), and no orphans: it exits on SIGTERM/SIGINT/SIGHUP and when its parent
(the gate, robot) dies, removing its state file."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from perfgate import paths
from perfgate.sim import data as data_mod
from perfgate.sim import faults as faults_mod
from perfgate.sim import spread as spread_mod
from perfgate.sim.answers import Answers
from perfgate.sim.board import SimBoard
from perfgate.sim.console import Console
from perfgate.sim.shell import Board as Shared
from perfgate.sim.sshd import SshServer, host_key

PR_SET_PDEATHSIG = 1
MIN_DEFAULT_SPEED = 10.0
TARGET_BOOT_S = 2.0  # at the default speed, the slowest published boot takes about this many host seconds


def default_speed(data: data_mod.BoardData) -> float:
    """Fast enough that power-on to a shell stays well under 5 s, slow enough to measure boot times back."""
    return max(MIN_DEFAULT_SPEED, data.boot_figure("default").value / TARGET_BOOT_S)


def die_with_parent() -> None:
    """Ask the kernel to send SIGTERM when the parent dies (Linux)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def write_state(path: Path, state: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)  # atomic: a reader never sees half a file


class Simulator:
    def __init__(self, board: str, speed: float | None, faults: str | None, state: Path | None, seed: int | None,
                 lab: str = "sim", spread: float | None = None, watch_pid: int | None = None,
                 regime: str | None = None) -> None:  # fmt: skip
        self.faults = faults_mod.parse(faults)
        self.data = data_mod.load(board, self.faults, lab)
        self.speed = float(speed) if speed else default_speed(self.data)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)
        self.spread = spread_mod.load(spread, regime=regime)  # SIM_NOISE's regime, capped by SIM_SPREAD
        self.state_path = state or paths.build() / "sim" / f"{self.data.board}.json"
        self.watch_pid = watch_pid
        self.parent = os.getppid()
        self.stop = asyncio.Event()
        self.control_dir = Path(tempfile.mkdtemp(prefix="perfgate-sim-"))
        self.control = self.control_dir / "power.sock"

    async def serve(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.add_signal_handler(sig, self.stop.set)
        die_with_parent()
        if os.getppid() != self.parent:  # the parent died before the death signal was armed
            return 0
        answers = Answers(self.data, random.Random(self.rng.random()), self.spread, build=False)
        data_mod.say(self.data.notes)
        # Faster than real time, a workload's run is also capped (a 60 s iperf3 takes 3 s); real time is real.
        shared = Shared(self.data, answers, self.speed, max_wait=3.0 if self.speed > 1 else float("inf"))
        console = Console(self.speed, rng=random.Random(self.rng.random()))
        ssh = SshServer(shared, host_key(paths.build() / "sim"), lambda: board.reboot_soon(),
                        lambda: board.poweroff_soon())  # fmt: skip
        board = SimBoard(self.data, shared, console, ssh, self.speed, random.Random(self.rng.random()), self.spread)
        console.start()
        server = await asyncio.start_unix_server(lambda r, w: self._power(board, r, w), str(self.control))
        state = {
            "pid": os.getpid(),
            "board": self.data.board,
            "serial": console.path,
            "ssh_port": ssh.port,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "speed": self.speed,
            "seed": self.seed,
            "faults": self.faults.describe(),
            "control": str(self.control),
            "simulated": True,
            "noise": self.spread.regime.name,
            "noise_description": self.spread.describe(),
            "notes": self.data.notes,
        }
        write_state(self.state_path, state)
        print(json.dumps(state), flush=True)
        board.power_on()
        indexing = asyncio.create_task(self._index(shared))
        watch = asyncio.create_task(self._watch_parent())
        try:
            await self.stop.wait()
        finally:
            watch.cancel()
            indexing.cancel()
            server.close()
            await board.power_off()
            console.close()
            self.cleanup()
        return 0

    async def _index(self, shared: Shared) -> None:
        """Index the workloads' commands in a thread while the board boots (the shell waits for it)."""
        await asyncio.get_running_loop().run_in_executor(None, shared.answers.build)
        shared.answers.say_problems()
        shared.ready.set()

    def cleanup(self) -> None:
        with contextlib.suppress(OSError):
            self.state_path.unlink()
        shutil.rmtree(self.control_dir, ignore_errors=True)

    async def _watch_parent(self) -> None:
        """Belt and braces beside PR_SET_PDEATHSIG: poll the parent (and --watch-pid)."""
        while not self.stop.is_set():
            if os.getppid() != self.parent:
                print("perfgate sim: the parent process died: stopping", file=sys.stderr)
                self.stop.set()
            if self.watch_pid:
                try:
                    os.kill(self.watch_pid, 0)
                except ProcessLookupError:
                    print(f"perfgate sim: process {self.watch_pid} ended: stopping", file=sys.stderr)
                    self.stop.set()
                except PermissionError:
                    pass
            await asyncio.sleep(0.5)

    async def _power(self, board: SimBoard, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            what = (await asyncio.wait_for(reader.readline(), 5)).decode().strip()
            if what == "on":
                board.power_on()
            elif what == "off":
                await board.power_off()
            elif what == "cycle":
                await board.cycle()
            elif what != "status":
                writer.write(f"error unknown power command {what!r} (on, off, cycle, status)\n".encode())
                return
            writer.write(f"ok {board.state}\n".encode())
        except Exception as e:
            writer.write(f"error {type(e).__name__}: {e}\n".encode())
        finally:
            with contextlib.suppress(Exception):
                await writer.drain()
                writer.close()


def main(board: str, speed: float | None, faults: str | None, state: Path | None, seed: int | None,
         lab: str = "sim", spread: float | None = None, watch_pid: int | None = None,
         regime: str | None = None) -> int:  # fmt: skip
    sim = Simulator(board, speed, faults, state, seed, lab, spread, watch_pid, regime)
    try:
        return asyncio.run(sim.serve())
    finally:
        sim.cleanup()
