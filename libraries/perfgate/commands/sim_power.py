"""`python -m perfgate sim-power <state file> on|off|cycle|status`: the simulated board's power switch."""

from __future__ import annotations

import argparse
import json
import socket
from pathlib import Path

from perfgate.errors import PerfgateError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", type=Path, help="the state file `python -m perfgate sim` wrote")
    parser.add_argument("action", choices=["on", "off", "cycle", "status"])
    parser.add_argument("--timeout", type=float, default=10.0)


def switch(state_file: Path, action: str, timeout: float = 10.0) -> str:
    """Send `action` to the board of `state_file`; returns the board's state after it."""
    try:
        state = json.loads(state_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PerfgateError("no such state file: is `python -m perfgate sim` running?", state_file) from None
    except json.JSONDecodeError as e:
        raise PerfgateError(f"not a simulated board state file: {e}", state_file, e.lineno) from None
    control = state.get("control")
    if not control:
        raise PerfgateError("the state file names no power control socket ('control')", state_file)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(control)
            s.sendall(f"{action}\n".encode())
            reply = b""
            while not reply.endswith(b"\n"):
                chunk = s.recv(256)
                if not chunk:
                    break
                reply += chunk
    except OSError as e:
        raise PerfgateError(f"the simulated board (pid {state.get('pid')}) does not answer on {control}: {e}",
                            state_file) from None  # fmt: skip
    text = reply.decode(errors="replace").strip()
    if not text.startswith("ok"):
        raise PerfgateError(f"power {action} refused: {text or 'no answer'}", state_file)
    return text[2:].strip()


def run(args: argparse.Namespace) -> int:
    print(switch(args.state, args.action, args.timeout))
    return 0
