"""`python -m perfgate farm-guard --coordinator A --place P --token T --owner O`: started by the gate beside itself;
gives the labgrid place back when the gate dies (perfgate.farm.guard)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--coordinator", required=True, help="the labgrid coordinator, HOST:PORT")
    parser.add_argument("--place", required=True, help="the place the gate acquired")
    parser.add_argument("--token", required=True, help="the gate's reservation token")
    parser.add_argument("--owner", required=True, help="the gate's client name (<host>/<user>.perfgate-<pid>)")


def run(args: argparse.Namespace) -> int:
    from perfgate.farm.guard import watch

    return watch(args.coordinator, args.place, args.token, args.owner)
