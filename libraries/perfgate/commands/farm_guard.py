"""`python -m perfgate farm-guard --coordinator A --owner O --gate PID`: started by the gate beside itself; gives
back the labgrid places and reservations of the gate when it dies (perfgate.farm.guard)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--coordinator", required=True, help="the labgrid coordinator, HOST:PORT")
    parser.add_argument("--owner", required=True, help="the gate's client name (<host>/<user>.perfgate-<pid>)")
    parser.add_argument("--gate", type=int, required=True, help="the gate's process id, watched")


def run(args: argparse.Namespace) -> int:
    from perfgate.farm.guard import watch

    return watch(args.coordinator, args.owner, args.gate)
