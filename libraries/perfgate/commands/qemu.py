"""`python -m perfgate qemu build|serve|start|stop|power|status`: the QEMU arm64 board.

build                          make build/qemu/ from Debian packages (cached; --force rebuilds)
serve --state F [--power on]   run the board in the foreground (like `perfgate sim`): prints the state JSON
start --state F                run the board in the background; prints the state JSON when it is ready
stop --state F                 stop the board (and QEMU)
power F on|off|cycle           the lab's power switch
status --state F               print the state JSON (exit 1 when the board process is gone)
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", required=True, metavar="action")
    b = sub.add_parser("build", help="build the image into build/qemu/ (cached)")
    b.add_argument("--force", action="store_true", help="rebuild even when no input changed")
    for name, text in (("serve", "run the board in the foreground"), ("start", "run the board in the background")):
        s = sub.add_parser(name, help=text)
        s.add_argument("--board", default="qemu_arm64")
        s.add_argument("--lab", default="qemu")
        s.add_argument("--state", required=True, help="state file (JSON) to write")
        s.add_argument("--power", choices=["on", "off"], default="on", help="power state at start (default on)")
        s.add_argument("--serial-log", help="append the whole serial transcript here")
        s.add_argument("--watch-pid", type=int, help="stop when this process ends (default: the parent)")
    st = sub.add_parser("stop", help="stop a board started with start/serve")
    st.add_argument("--state", required=True)
    p = sub.add_parser("power", help="power a running board on, off or cycle it")
    p.add_argument("state", help="the board's state file")
    p.add_argument("switch", choices=["on", "off", "cycle"])
    s = sub.add_parser("status", help="print the board's state")
    s.add_argument("--state", required=True)


def run(args: argparse.Namespace) -> int:
    if args.action == "build":
        from perfgate.qemu import image

        image.build(force=args.force, say=lambda m: print(f"perfgate qemu: {m}", file=sys.stderr))
        return 0
    from perfgate.qemu import supervisor

    if args.action == "serve":
        return supervisor.serve(supervisor.Options.from_args(args))
    if args.action == "start":
        state = supervisor.start(supervisor.Options.from_args(args))
        print(json.dumps(state))
        return 0
    if args.action == "stop":
        return supervisor.stop(args.state)
    if args.action == "power":
        print(supervisor.power(args.state, args.switch))
        return 0
    state = supervisor.read_state(args.state)
    print(json.dumps(state, indent=2))
    return 0 if supervisor.alive(state) else 1
