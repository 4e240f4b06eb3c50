"""`python -m perfgate ab <suite>... --board B --a NAME:value --b NAME:value`: build B gated against build A.

Each boot is one robot run of the given suites (robot, the gate's own suites), brought up by the lab as every gate
run is: A, B, A, B, ... Build A and build B are the run variables that make them (`--a`/`--b`, repeatable): on the
simulated board a configuration (`--b FAULTS:degrade:<id glob>:5`), in a lab whatever it reads to boot the build.
After every pair from the second on, each criterion both builds measured is looked at by the two-sample rule on its
boots' means (perfgate.baseline.ab: look k spends alpha / 2^k); the boots stop once every criterion is decided or at
--max-boots of each. Everything goes under --out (default results/ab/<board>-<time>/): each boot's robot output and
run directory (their own results tree: the A/B boots never enter the board's history), and ab.json.
Exit status: 0 when no criterion of B is worse than A, 1 when one is, 2 on bad input or a boot that measured nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from perfgate import boards, criteria, paths, runvars
from perfgate.baseline import ab, config, noise, rule, select
from perfgate.board import lab
from perfgate.decision import artefacts
from perfgate.errors import PerfgateError
from perfgate.model import Criterion


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    add_where(parser)
    parser.add_argument("--a", action="append", default=[], metavar="NAME:value", help="a run variable of build A")
    parser.add_argument("--b", action="append", default=[], metavar="NAME:value", help="a run variable of build B")
    add_boots(parser, "")
    parser.add_argument("--out", type=Path, help="where the boots and ab.json go")
    parser.add_argument("--json", action="store_true", help="print ab.json's content")


def add_where(parser: argparse.ArgumentParser) -> None:
    """The suites each boot runs, the board, its lab and release (perfgate ab's and perfgate bisect's)."""
    parser.add_argument("suites", nargs="+", type=Path, help="suite files or directories robot runs in each boot")
    parser.add_argument("--board", required=True)
    parser.add_argument("--lab", default="sim")
    parser.add_argument("--release", help="the release judged against (default: the newest)")


def add_boots(parser: argparse.ArgumentParser, per: str) -> None:
    """The A/B's budget of boots and robot's own options (perfgate ab's; perfgate bisect's `per` step)."""
    parser.add_argument("--min-boots", type=int, default=2, help="boots of each build before the first look")
    parser.add_argument("--max-boots", type=int, default=6, help=f"at most this many boots of each build{per}")
    parser.add_argument("--robot-arg", action="append", default=[], help="a further robot option (repeatable)")


KIND = {True: "VIRTUAL BOARD, not hardware", False: "hardware"}


def declared(suites: list[Path]) -> set[str] | None:
    """The variable names the suites (and their resources) declare, as the gate's preflight reads them; None when
    robot cannot read the suites (robot's own run then says why)."""
    from robot.api import TestSuiteBuilder

    from perfgate.robot import preflight

    try:
        top = TestSuiteBuilder().build(*map(str, suites))
    except Exception:  # robot's DataError and friends: the first boot's robot run reports them
        return None
    return {*preflight.declared_variables(top), *preflight.ROBOT_BUILTINS}


def check_variables(words: list[str], where: str, board: str, names: set[str] | None) -> None:
    """Each word NAME:value, no BOARD, a LAB that loads, each name one the gate or the suites know (`names`: the
    suites' declared ones; None: not checked here)."""
    for word in words:
        name, sep, value = word.partition(":")
        if not sep or not name.strip():
            raise PerfgateError(f"{where}: {word!r} is not NAME:value (a run variable, as `perfgate ab --b` takes)")
        if name.strip().upper() == "BOARD":
            raise PerfgateError(f"{where}: the board is --board, not a build's variable")
        if name.strip().upper() == "LAB":
            try:
                lab.load(value.strip(), board)
            except PerfgateError as e:
                raise PerfgateError(f"{where}: {e}") from None
    if names is None:
        return
    try:
        runvars.check_names([runvars.cli_name(w) for w in words], names)
    except PerfgateError as e:
        raise PerfgateError(f"{where}: {e}") from None


def virtual_of(args: argparse.Namespace, board: str, builds: dict[str, list[str]]) -> bool:
    """Whether the builds run on a virtual board: each build's lab (its LAB variable, else --lab) loads, and all are
    virtual or all hardware (a virtual build against a hardware one compares two different things)."""
    kinds: dict[str, bool] = {}
    for name, words in builds.items():
        chosen = next((w.partition(":")[2].strip() for w in reversed(words) if w.partition(":")[0].strip().upper()
                       == "LAB"), args.lab)  # fmt: skip
        kinds[name] = lab.load(chosen, board).virtual
    if len(set(kinds.values())) > 1:
        apart = ", ".join(f"{n}: {KIND[v]}" for n, v in kinds.items())
        raise PerfgateError(f"the builds mix a virtual board with hardware ({apart}): compare like with like")
    return next(iter(kinds.values()), False)


class NothingMeasured(PerfgateError):
    """A boot that measured none of the suites' criteria: the build did not come up (`booted` False), or came up and
    ran nothing that measured (True: the gate read the board's state around its commands)."""

    def __init__(self, build: str, boot: int, run: Path, why: str, booted: bool = False) -> None:
        self.build, self.boot, self.run, self.why, self.booted = build, boot, run, why, booted
        super().__init__(f"boot {boot} of build {build} measured nothing ({run})" + (f": {why}" if why else ""))


def booted(entries: list[dict]) -> bool:
    """Whether a run's board came up: the gate read its Linux's state (a boot id) around some command."""
    return any((s.get(when) or {}).get("boot") for e in entries for s in e.get("board_state") or []
               if isinstance(s, dict) for when in ("before", "after"))  # fmt: skip


class Boots:
    """Boots of the two builds: a robot run each, its values read back from its metrics.json. `builds`: each
    build's run variables (default --a and --b)."""

    def __init__(self, args: argparse.Namespace, board: str, out: Path,
                 builds: dict[str, list[str]] | None = None) -> None:  # fmt: skip
        self.args, self.board, self.out = args, board, out
        self.builds = builds or {"A": args.a, "B": args.b}
        self.count = {"A": 0, "B": 0}

    def __call__(self, build: str, ids: list[str]) -> dict[str, list[float]]:
        self.count[build] += 1
        where = self.out / f"{build}-{self.count[build]}"
        results = self.out / f"results-{build}"
        variables = [f"BOARD:{self.board}", f"LAB:{self.args.lab}", "BASELINE:none",
                     *([f"RELEASE:{self.args.release}"] if self.args.release else []),
                     *self.builds[build]]  # fmt: skip
        options = [a for v in variables for a in ("-v", v)] + self.args.robot_arg
        cmd = [sys.executable, "-m", "robot", "--outputdir", str(where), "--console", "dotted", *options,
               *map(str, self.args.suites)]  # fmt: skip
        print(f"perfgate ab: boot {self.count[build]} of build {build}", file=sys.stderr, flush=True)
        env = {**os.environ, "PERFGATE_RESULTS": str(results)}
        before = set(self._runs(results))
        with (where.parent / f"{build}-{self.count[build]}.console.txt").open("w") as log:
            subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, check=False)
        runs = [p for p in self._runs(results) if p not in before]  # this boot's run, never an earlier boot's
        if not runs:
            raise PerfgateError(f"boot {self.count[build]} of build {build} left no run (see {where}.console.txt)")
        entries = json.loads((runs[-1] / "metrics.json").read_text(encoding="utf-8"))
        values = select.values_of(entries, "")
        if not values:
            why = next((e["message"] for e in entries if e.get("message")), "")  # the first criterion's
            raise NothingMeasured(build, self.count[build], runs[-1], why.partition(": not measured: ")[2] or why,
                                  booted(entries))  # fmt: skip
        return values

    def _runs(self, results: Path) -> list[Path]:
        return sorted(p for p in results.glob(f"**/{self.board}/2*") if (p / "metrics.json").exists())


@dataclass
class Decided:
    """One A/B: the criteria looked at, each one's outcome, and the boots in their order."""

    measured: dict[str, Criterion]
    final: dict[str, ab.Outcome]
    order: list[str]

    def criteria_json(self) -> dict[str, dict]:
        return {cid: {"name": self.measured[cid].name, "boots": o.boots, "look": o.look, **o.change.to_json()}
                for cid, o in self.final.items()}  # fmt: skip


def decide(args: argparse.Namespace, board: str, out: Path, builds: dict[str, list[str]] | None = None,
           keep: Callable[[str], bool] | None = None) -> Decided:  # fmt: skip
    """Boot build A and build B in turn (robot runs of args.suites in args.lab) until each criterion A's first boot
    measured (and `keep` keeps) is decided or args.max_boots of each are spent."""
    crits = criteria.select(board, args.release).criteria
    by_id, cfg = {c.id: c for c in crits}, config.load()
    arte = artefacts.find(crits)
    boots = Boots(args, board, out, builds)
    first = boots("A", [])  # the criteria the suites measure: those build A's first boot gave values of
    measured = {cid: by_id[cid] for cid in first if cid in by_id and (keep is None or keep(cid))}
    if not measured:
        raise PerfgateError(f"build A's first boot measured none of the criteria asked for (see {out})")
    noises = {cid: noise.of_criterion(c, cfg, cid in arte, []) for cid, c in measured.items()}
    abrun = ab.ABRun(measured, noises, cfg, min_boots=args.min_boots, max_boots=args.max_boots)
    final = abrun.run(boots, first_a=first)
    return Decided(measured, final, abrun.order)


def check_boots(args: argparse.Namespace) -> None:
    if args.min_boots < 1 or args.max_boots < args.min_boots:
        raise PerfgateError("--min-boots must be 1 or more and --max-boots at least --min-boots")


def run(args: argparse.Namespace) -> int:
    board = boards.resolve(args.board)
    check_boots(args)
    names = declared(args.suites)
    check_variables(args.a, "--a", board, names)
    check_variables(args.b, "--b", board, names)
    virtual = virtual_of(args, board, {"A": args.a, "B": args.b})
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = args.out or paths.results() / "ab" / f"{board}-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    done = decide(args, board, out)
    measured, final = done.measured, done.final
    report = {"board": board, "lab": args.lab, "virtual": virtual, "a": args.a, "b": args.b, "order": done.order,
              "out": str(out), "criteria": done.criteria_json()}  # fmt: skip
    (out / "ab.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"A/B on {board} in lab {args.lab} ({KIND[virtual]}): A {' '.join(args.a) or '(as is)'}; "
              f"B {' '.join(args.b)}; boots {' '.join(done.order)}")  # fmt: skip
        for verdict in rule.VERDICTS:
            chosen = [(cid, o) for cid, o in final.items() if o.change.verdict == verdict]
            print(f"\n{verdict}: {len(chosen)}")
            for cid, o in chosen if verdict != rule.SAME else chosen[:0]:
                print(f"  {measured[cid].name[:60]:<60} {o.change.describe()} ({o.boots} boots each)")
        print(f"\n{out / 'ab.json'}")
    return 1 if any(o.change.verdict == rule.WORSE for o in final.values()) else 0
