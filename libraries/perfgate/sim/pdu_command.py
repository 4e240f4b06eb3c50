"""`python -m perfgate sim-pdu --outlet <n>=<state file> ... [--port P] [--state FILE]`: a simulated network PDU
(HTTP, labgrid's `rest` power model) whose outlets switch simulated boards. Writes {"pid", "port", "url"} to the
state file and stdout; exits on SIGTERM/SIGINT and when its parent dies."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

from perfgate.errors import DataError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--outlet", action="append", default=[], metavar="N=STATE",
                        help="outlet number and the state file of the simulated board it switches")  # fmt: skip
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--state", type=Path, default=None, help="write {pid, port, url} here (JSON)")


def run(args: argparse.Namespace) -> int:
    from perfgate.sim.pdu import Pdu
    from perfgate.sim.process import die_with_parent, write_state

    outlets: dict[int, Path] = {}
    for spec in args.outlet:
        number, sep, state = spec.partition("=")
        if not sep or not number.isdigit() or not state:
            raise DataError(f"--outlet {spec!r}: expected <number>=<state file>")
        outlets[int(number)] = Path(state)
    if not outlets:
        raise DataError("no --outlet given")
    parent = os.getppid()
    die_with_parent()
    pdu = Pdu(outlets, args.port)
    info = {"pid": os.getpid(), "port": pdu.server_address[1], "url": pdu.url(), "outlets": sorted(outlets)}
    if args.state:
        write_state(args.state, info)
    print(json.dumps(info), flush=True)

    def stop(*_: object) -> None:
        threading.Thread(target=pdu.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def watch() -> None:  # beside PR_SET_PDEATHSIG: the parent may have died before it was armed
        while os.getppid() == parent:
            time.sleep(0.5)
        stop()

    threading.Thread(target=watch, daemon=True).start()
    try:
        pdu.serve_forever(poll_interval=0.2)
    finally:
        pdu.server_close()
        if args.state:
            args.state.unlink(missing_ok=True)
    print("sim-pdu: stopped", file=sys.stderr)
    return 0
