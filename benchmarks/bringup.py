"""Benchmark: power-on to a logged-in shell plus SSH on the simulated board, through the gate's own board control
(lab file, launcher, sim-power, serial console, autoboot, login, address, SSH), at the default speed.

    python benchmarks/bringup.py [--board am62xx_sk] [--runs 3] [--lab sim]

Prints one line per run and the median; exit status 1 when the median is not under the target (5 s).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from perfgate import boards
from perfgate.board.commands import Commands
from perfgate.board.console import Console
from perfgate.board.lab import expand, load
from perfgate.board.launcher import Launcher
from perfgate.board.strategy import Board

TARGET = 5.0


def bring_up(board: str, lab_name: str, log_dir: Path) -> dict[str, float]:
    lab = load(lab_name, board)
    launcher = Launcher(lab, {"board": board, "lab": lab.name}, log_dir=log_dir)
    t_launch = time.monotonic()
    state = launcher.start()
    launched = time.monotonic() - t_launch
    try:
        serial = expand(lab.data["serial"], launcher.context)
        console = Console(str(state.get("serial") or serial["port"]), int(serial["baud"]), log_dir / "serial.log")
        console.open()
        try:
            b = Board(board, boards.profile(board), lab, console, launcher.context, log=lambda m: None,
                      speed=float(state.get("speed") or 1))  # fmt: skip
            since = console.mark()
            t0 = time.monotonic()
            b.transition("shell")  # power-cycle, autoboot, login, address, SSH
            up = time.monotonic() - t0
            out, status = Commands(b).run("uname -a", 10)
            assert status == 0 and out.strip(), out
            text = console.text()
            phases = {}
            for name, pattern in (("kernel", b.traits.kernel_start_re()), ("login prompt", b.traits.login_prompt_re())):
                found = pattern.search(text, since)
                if found:
                    phases[name] = console.time_at(found.start()) - t0
            return {"launch": launched, "power-on to shell+SSH": up, "speed": float(state.get("speed") or 1),
                    **phases}  # fmt: skip
        finally:
            if b.ssh:
                b.ssh.close()
            console.close()
    finally:
        launcher.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="am62xx_sk")
    ap.add_argument("--lab", default="sim")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be 1 or more (a benchmark that measures nothing gives no figure)")
    board = boards.resolve(args.board)
    times = []
    with tempfile.TemporaryDirectory(prefix="perfgate-bringup-") as d:
        for i in range(args.runs):
            r = bring_up(board, args.lab, Path(d) / str(i))
            times.append(r["power-on to shell+SSH"])
            up = r["power-on to shell+SSH"]
            after = up - r.get("login prompt", up)
            print(
                f"run {i + 1}: {board} on LAB={args.lab} (speed {r['speed']:g}): board process ready in "
                f"{r['launch']:.2f} s; power-on to logged-in shell + SSH {up:.2f} s (Starting kernel at "
                f"{r.get('kernel', float('nan')):.2f} s, login prompt at {r.get('login prompt', float('nan')):.2f} s; "
                f"login + address + SSH {after:.2f} s)"
            )
    median = statistics.median(times)
    verdict = "under" if median < TARGET else "NOT under"
    print(f"median power-on to shell+SSH: {median:.2f} s ({verdict} the {TARGET:g} s target); "
          f"min {min(times):.2f}, max {max(times):.2f} over {len(times)} runs")  # fmt: skip
    return 0 if median < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
