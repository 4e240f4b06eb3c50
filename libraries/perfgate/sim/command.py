"""`python -m perfgate sim --board <b> [--speed F] [--faults SPEC] [--state FILE] [--seed N]`: run the simulated
board (serial console on a pseudo-terminal, SSH on 127.0.0.1) until SIGTERM/SIGINT or until its parent dies."""

from __future__ import annotations

import argparse
from pathlib import Path

from perfgate.errors import DataError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", required=True, help="board name (any alias), e.g. am62xx_sk")
    parser.add_argument("--speed", default="", help="how much faster than real time (default or `auto`: at least "
                        "10, and the slowest published boot in about 2 s; 1 = real time)")  # fmt: skip
    parser.add_argument("--faults", default="", help="comma-separated: degrade:<id glob>:<pct>, uboot-hang, "
                        "kernel-panic, no-login, ssh-drop:<tool>, garbage, missing-tool:<tool>")  # fmt: skip
    parser.add_argument("--state", type=Path, default=None, help="state file (default build/sim/<board>.json)")
    parser.add_argument("--seed", default="", help="random seed (reproducible values)")
    parser.add_argument("--lab", default="sim", help="lab file under variables/labs (per-board overrides)")
    parser.add_argument("--spread", default="", help="the widest relative standard deviation of results (SIM_SPREAD; "
                        "default: cap in variables/sim.yaml; 1 = every guide's own min/max spread)")  # fmt: skip
    parser.add_argument("--noise", default="", help="the noise regime (SIM_NOISE; variables/sim.yaml: quiet, "
                        "realistic, harsh; default: the file's regime)")  # fmt: skip
    parser.add_argument("--watch-pid", type=int, default=None, help="also stop when this process ends")


def run(args: argparse.Namespace) -> int:
    from perfgate.sim import process
    from perfgate.sim.spread import cap_from, regime_from

    try:
        speed = float(args.speed) if str(args.speed).strip().lower() not in ("", "auto") else None
    except ValueError:
        raise DataError(f"--speed {args.speed!r} is not a number") from None
    if speed is not None and speed <= 0:
        raise DataError(f"--speed {args.speed!r} must be above 0")
    try:
        seed = int(args.seed) if str(args.seed).strip() else None
    except ValueError:
        raise DataError(f"--seed {args.seed!r} is not an integer") from None
    spread = cap_from(args.spread, "--spread (SIM_SPREAD)")
    regime = regime_from(args.noise, "--noise (SIM_NOISE)")
    return process.main(args.board, speed, args.faults or None, args.state, seed, args.lab, spread,
                        args.watch_pid, regime)  # fmt: skip
