"""Benchmark: the simulated board alone, at its default speed: process start to state file, then power-on to a
logged-in serial shell plus one SSH command, split in phases. Talks to the board directly (pyserial on its
pseudo-terminal, paramiko on its SSH port); benchmarks/bringup.py measures the same through the gate.

    python benchmarks/sim_boot.py [--board am62xx_sk ...|--all] [--runs 3] [--speed F]

Prints a table (seconds, median of the runs) and exits 1 when a board's median is not under the target (5 s).
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import paramiko
import serial

from perfgate import boards

TARGET = 5.0
ROOT = Path(__file__).resolve().parents[1]


def read_until(port: serial.Serial, buf: bytearray, pattern: bytes, timeout: float = 30.0) -> None:
    rx = re.compile(pattern)
    deadline = time.monotonic() + timeout
    while not rx.search(buf):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {pattern!r} within {timeout} s; last {bytes(buf[-200:])!r}")
        buf += port.read(4096)
    del buf[: rx.search(buf).end()]


def power(state: Path, action: str) -> None:
    subprocess.run([sys.executable, "-m", "perfgate", "sim-power", str(state), action], check=True,
                   capture_output=True, cwd=ROOT)  # fmt: skip


def one_board(board: str, runs: int, speed: str, tmp: Path) -> dict[str, float]:
    state = tmp / f"{board}.json"
    argv = [sys.executable, "-m", "perfgate", "sim", "--board", board, "--state", str(state)]
    if speed:
        argv += ["--speed", speed]
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        while not state.exists():
            if proc.poll() is not None:
                raise RuntimeError(f"the sim for {board} exited with {proc.returncode}")
            time.sleep(0.01)
        started = time.monotonic() - t0
        st = json.loads(state.read_text())
        port = serial.Serial(st["serial"], 115200, timeout=0.02)
        phases: dict[str, list[float]] = {k: [] for k in ("autoboot", "to kernel", "kernel to login", "login",
                                                          "ssh", "total")}  # fmt: skip
        for _ in range(runs):
            buf = bytearray()
            t = time.monotonic()
            power(state, "cycle")
            read_until(port, buf, b"Hit any key to stop autoboot")
            t1 = time.monotonic()
            read_until(port, buf, b"Starting kernel")
            t2 = time.monotonic()
            read_until(port, buf, b"login: ")
            t3 = time.monotonic()
            port.write(b"root\r")
            read_until(port, buf, rb"root@[\w-]+:~# ")
            t4 = time.monotonic()
            c = paramiko.SSHClient()
            c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
            c.connect("127.0.0.1", st["ssh_port"], "root", "", look_for_keys=False, allow_agent=False, timeout=10)
            _, out, _ = c.exec_command("uname -a")
            out.read()
            c.close()
            t5 = time.monotonic()
            for k, v in zip(phases, (t1 - t, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t), strict=True):
                phases[k].append(v)
        port.close()
        result = {k: statistics.median(v) for k, v in phases.items()}
        result["process start"] = started
        result["speed"] = float(st["speed"])
        return result
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", action="append", help="board (repeatable); default am62xx_sk")
    ap.add_argument("--all", action="store_true", help="every known board")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--speed", default="", help="default: the sim's own default")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be 1 or more (a benchmark that measures nothing gives no figure)")
    names = boards.known() if args.all else (args.board or ["am62xx_sk"])
    cols = ["speed", "process start", "autoboot", "to kernel", "kernel to login", "login", "ssh", "total"]
    print(f"{'board':<15}" + "".join(f"{c:>16}" for c in cols))
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="perfgate-bench-") as tmp:
        for name in names:
            r = one_board(boards.resolve(name), args.runs, args.speed, Path(tmp))
            worst = max(worst, r["total"])
            print(f"{name:<15}" + "".join(f"{r[c]:>16.3f}" for c in cols), flush=True)
    verdict = "under" if worst < TARGET else "NOT under"
    print(f"power-on to logged-in shell plus SSH: worst median {worst:.2f} s, {verdict} the {TARGET:g} s target")
    return 0 if worst < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
