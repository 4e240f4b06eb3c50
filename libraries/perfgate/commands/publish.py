"""`python -m perfgate publish squad <run>`: publish a finished run to a SQUAD server (see docs/squad.md).

The run is a directory or `[virtual/]<board>[/<run>|/latest|/previous]` under results/. Where it goes: --url,
--group and --project, or --lab <lab> (the lab file's `squad:` section; by default the lab the run names, when
--url is not given). The API token is read from the environment variable --token-env (default: the lab's
token_env, else SQUAD_TOKEN), never from a file. SQUAD's build is the release the run was judged against (or
--build), its environment the board (`<board>-virtual` for a simulated or emulated board; or --environment).
A run that did not finish is refused: it is never published as complete.
Exit status: 0 published, 2 refused or failed (the message says why).
"""

from __future__ import annotations

import argparse
import sys

from perfgate.errors import PerfgateError
from perfgate.report import rundir
from perfgate.squad import publish, target


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="where", required=True, metavar="where")
    p = sub.add_parser(
        "squad",
        help="a SQUAD server (submit API)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run", help="the run directory, or [virtual/]<board>[/<run>|/latest] under results/")
    p.add_argument("--url", help="the SQUAD server's URL (https://squad.example.org)")
    p.add_argument("--group", help="the SQUAD group's slug")
    p.add_argument("--project", help="the SQUAD project's slug")
    p.add_argument(
        "--lab",
        help="take url, group, project and token_env from this lab file's squad section "
        "(default without --url: the lab the run names)",
    )
    p.add_argument("--token-env", help="the environment variable holding the API token (default SQUAD_TOKEN)")
    p.add_argument("--build", help="SQUAD's build (default: the release the run names)")
    p.add_argument("--environment", help="SQUAD's environment (default: the board; <board>-virtual if virtual)")
    p.add_argument("--timeout", type=float, default=60, help="seconds to wait for SQUAD (default 60)")


def _target(args: argparse.Namespace, run: rundir.Run) -> target.Target:
    if args.url or args.group or args.project:
        missing = [f"--{k}" for k in ("url", "group", "project") if not getattr(args, k)]
        if missing:
            raise PerfgateError(f"publish squad: {', '.join(missing)} missing (or give none of them, and --lab)")
        return target.make(args.url, args.group, args.project, args.token_env)
    from perfgate.board import lab as labs

    name = args.lab or str(run.meta.get("lab") or "")
    if not name:
        raise PerfgateError("publish squad: give --url, --group and --project (the run names no lab)")
    lab = labs.load(name, run.board)
    section = lab.data.get("squad")
    if not section:
        raise PerfgateError(
            f"publish squad: lab {lab.name} has no squad section ({lab.path}); give --url, "
            "--group and --project, or add squad: {url, group, project, token_env} to the lab"
        )
    if args.token_env:
        section = {**section, "token_env": args.token_env}
    return target.from_section(section, lab.name, lab.path)


def run(args: argparse.Namespace) -> int:
    run_dir = rundir.resolve(args.run)
    where = _target(args, rundir.load(run_dir))
    done = publish.publish(run_dir, where, args.build, args.environment, args.timeout)
    print(f"perfgate: {done.summary()}")
    print(f"perfgate: SQUAD API: {done.api_url}", file=sys.stderr)
    return 0
