"""`python -m perfgate bisect <suite>... --board B --good <build> [--build <build>...] --bad <build>`: which build
of an ordered list (good ... bad) brought a regression in.

A build is given as `perfgate ab --b` takes one, its run variables, shell-quoted words `NAME:value` (on the
simulated board a configuration, `FAULTS:degrade:<id glob>:5`; in a lab whatever it reads to boot the build,
`LAB:<lab file>`), with an optional label first (`v1.2=LAB:labs/v12.yaml`; `v1.1=` alone: the lab as it is).
`--var NAME:value` (repeatable) is given to every build. Each step is the A/B of `perfgate ab` (perfgate.commands.ab:
the builds' boots interleaved, each criterion decided by the two-sample rule within --min-boots/--max-boots) between
the known good build and a build in between, over the criteria that regressed: those given with --criterion (an id,
an id glob or a name), or those a first A/B of --good against --bad finds worse. perfgate.baseline.bisect moves the
range: only `worse` moves the bad end (an improvement is never blamed), a build whose boot measured nothing is skipped
and named: "did not boot" when the gate never read its Linux, "measured nothing" when it booted and its commands
measured no criterion. Everything goes under --out (default results/bisect/<board>-<time>/): each step's
boots and bisect.json.
Exit status: 0 when the first worse build is found, 1 when it is not (the bad build not worse, a step undecided
both ways, or builds that did not boot left in the range), 2 on bad input (an unknown variable or lab in a build,
a --criterion that names no criterion, a good build that measures nothing).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from pathlib import Path

from perfgate import boards, criteria, paths
from perfgate.baseline import bisect, rule
from perfgate.commands import ab
from perfgate.errors import PerfgateError

NO_BOOT = "did not boot"
NOTHING = "measured nothing"  # it booted (the gate read its state) but no command measured a criterion


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    ab.add_where(parser)
    parser.add_argument("--good", required=True, metavar="BUILD", help="the known good build (first of the list)")
    parser.add_argument("--bad", required=True, metavar="BUILD", help="the build that is worse (last of the list)")
    parser.add_argument("--build", action="append", default=[], metavar="BUILD",
                        help="a build in between, in order (repeatable): [LABEL=]NAME:value ...")  # fmt: skip
    parser.add_argument("--var", action="append", default=[], metavar="NAME:value",
                        help="a run variable of every build (repeatable)")  # fmt: skip
    parser.add_argument("--criterion", action="append", default=[], metavar="ID",
                        help="a criterion that regressed: id, id glob or name (repeatable; default: a first A/B of "
                        "--good against --bad finds them)")  # fmt: skip
    ab.add_boots(parser, " per step")
    parser.add_argument("--out", type=Path, help="where the steps' boots and bisect.json go")
    parser.add_argument("--json", action="store_true", help="print bisect.json's content")


@dataclass
class Build:
    label: str
    variables: list[str]
    option: str  # the option that gave it: --good, --build or --bad


def parse_build(text: str, option: str, board: str, names: set[str] | None) -> Build:
    """A build as the option gave it: its label and run variables, each name known to the gate, a LAB that loads."""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise PerfgateError(f"{option} {text!r}: {e}") from None
    label = ""
    if words and "=" in words[0] and ":" not in words[0].split("=", 1)[0]:
        label, rest = words[0].split("=", 1)
        words = [rest, *words[1:]] if rest else words[1:]
    if not words and not label:
        raise PerfgateError(f"{option} is empty: give the build's run variables (NAME:value), or LABEL= for the "
                            "lab as it is")  # fmt: skip
    ab.check_variables(words, f"{option} {text!r}", board, names)
    return Build(label or " ".join(words), words, option)


def builds_of(args: argparse.Namespace, board: str, names: set[str] | None) -> list[Build]:
    """--good, each --build, --bad in order; two builds with one label are an error naming both options."""
    builds = [parse_build(args.good, "--good", board, names),
              *(parse_build(b, "--build", board, names) for b in args.build),
              parse_build(args.bad, "--bad", board, names)]  # fmt: skip
    seen: dict[str, Build] = {}
    for b in builds:
        if b.label in seen:
            raise PerfgateError(f"{b.option} {b.label!r} is the same build as {seen[b.label].option} {b.label!r}: "
                                "each build once, in order (give a label, LABEL=..., to tell them apart)")  # fmt: skip
        seen[b.label] = b
    return builds


def matcher(patterns: list[str], board: str, release: str | None) -> set[str] | None:
    """The ids of the board's criteria the --criterion patterns name (None: none given); a pattern that names no
    criterion is an error."""
    if not patterns:
        return None
    crits = criteria.select(board, release).criteria
    ids: set[str] = set()
    for pat in patterns:
        hit = {c.id for c in crits if fnmatchcase(c.id, pat) or c.name == pat}
        if not hit:
            raise PerfgateError(f"--criterion {pat!r} names no criterion of {board} (an id, an id glob or a name; "
                                f"`perfgate criteria {board}` lists them)")  # fmt: skip
        ids |= hit
    return ids


def overall(done: ab.Decided) -> str:
    """One step's verdict over its criteria: worse when any is, else undecided when any is, else better when any
    is, else same."""
    verdicts = {o.change.verdict for o in done.final.values()}
    return next((v for v in (rule.WORSE, rule.UNDECIDED, rule.BETTER) if v in verdicts), rule.SAME)


class Steps:
    """The bisect's compare: each call one A/B (perfgate ab's) of two builds under out/step-<n>/, kept for
    bisect.json; a candidate whose boot measured nothing did not boot (None)."""

    def __init__(self, args: argparse.Namespace, board: str, out: Path, builds: list[Build]) -> None:
        self.args, self.board, self.out = args, board, out
        self.by = {b.label: b for b in builds}
        self.keep: set[str] | None = None
        self.done: list[dict] = []

    def __call__(self, good: str, candidate: str) -> str | None:
        n = len(self.done) + 1
        where = self.out / f"step-{n}"
        where.mkdir(parents=True, exist_ok=True)
        record: dict = {"step": n, "good": good, "candidate": candidate, "out": str(where)}
        self.done.append(record)
        print(f"perfgate bisect: step {n}: {candidate} against {good}", file=sys.stderr, flush=True)
        builds = {"A": self.args.var + self.by[good].variables, "B": self.args.var + self.by[candidate].variables}
        keep = self.keep
        try:
            done = ab.decide(self.args, self.board, where, builds, None if keep is None else keep.__contains__)
        except ab.NothingMeasured as e:
            if e.build != "B":
                raise PerfgateError(f"step {n}: {good}, the reference, measured nothing: {e}") from None
            if e.booted:
                record.update(verdict=NOTHING, reason=f"it booted, but measured nothing: {e.why[:200]}", run=str(e.run))
            else:
                record.update(verdict=NO_BOOT, reason=f"its boot measured nothing: {e.why[:200]}", run=str(e.run))
            return None
        record.update(verdict=overall(done), order=done.order, criteria=done.criteria_json())
        those = [o.change for o in done.final.values() if o.change.verdict == record["verdict"]]
        largest = max(those, key=lambda c: abs(c.change_pct or 0.0), default=None)
        count = f"{len(those)} of {len(done.final)} criteria; the largest change " if len(done.final) > 1 else ""
        record["detail"] = count + largest.describe() if largest else ""
        return record["verdict"]

    def last(self) -> dict:
        return self.done[-1]


def show(record: dict, last_good: str, first_bad: str, json_out: bool) -> None:
    """One step as it is decided (on stderr when stdout is bisect.json's)."""
    detail = record.get("reason") or record.get("detail") or ""
    print(f"step {record['step']}: {record['candidate']} against {record['good']}: {record['verdict']}"
          + (f" ({detail})" if detail else "")
          + f"; the change lies between {last_good} (good) and {first_bad}",
          file=sys.stderr if json_out else sys.stdout, flush=True)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    board = boards.resolve(args.board)
    ab.check_boots(args)
    names = ab.declared(args.suites)
    builds = builds_of(args, board, names)
    ab.check_variables(args.var, "--var", board, names)
    virtual = ab.virtual_of(args, board, {b.label: args.var + b.variables for b in builds})
    wanted = matcher(args.criterion, board, args.release)
    labels = [b.label for b in builds]
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = args.out or paths.results() / "bisect" / f"{board}-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    steps = Steps(args, board, out, builds)
    report: dict = {"board": board, "lab": args.lab, "virtual": virtual, "suites": [str(s) for s in args.suites],
                    "var": args.var,
                    "builds": [asdict(b) for b in builds], "out": str(out)}  # fmt: skip
    say = sys.stderr if args.json else sys.stdout
    print(f"bisect on {board} in lab {args.lab} ({ab.KIND[virtual]}): {len(builds)} builds, {labels[0]} (good) ... "
          f"{labels[-1]} (bad)",
          file=say)  # fmt: skip
    result: bisect.Bisect | None = None
    bad_end = ""  # why the --bad build gives no range to speak of (it did not boot, or is not worse)
    if wanted is None:  # which criteria regressed: a first A/B of the two ends
        verdict = steps(labels[0], labels[-1])
        first = steps.last()
        worse = sorted(cid for cid, c in first.get("criteria", {}).items() if c["verdict"] == rule.WORSE)
        show(first, labels[0], labels[-1], args.json)
        if verdict is None or not worse:
            bad_end = f"{labels[-1]} (--bad) {first['verdict']}" if verdict is None else \
                f"{labels[-1]} (--bad) is not worse than {labels[0]} in any criterion the suites measure"  # fmt: skip
            result = bisect.Bisect(labels[0], labels[-1], stopped=bad_end)
        wanted = set(worse)
    report["criteria"] = sorted(wanted)
    steps.keep = wanted
    if result is None:
        print(f"criteria: {', '.join(sorted(wanted))}", file=say)
        result = bisect.bisect(labels, steps, lambda _step, lo, hi: show(steps.last(), lo, hi, args.json))
        compared = any(s["candidate"] == labels[-1] and s["good"] == labels[0] for s in steps.done)
        if result.first_bad == labels[-1] and result.found and not compared:  # the bad end was never compared
            confirmed = steps(labels[0], labels[-1])
            if confirmed is None:
                bad_end = f"{labels[-1]} (--bad) {steps.last()['verdict']}"
            elif confirmed != rule.WORSE:
                bad_end = f"{labels[-1]} (--bad) is not shown worse than {labels[0]} in the criteria asked for"
            result.stopped = bad_end
            show(steps.last(), result.last_good, result.first_bad, args.json)
    describe = bad_end or result.describe()
    no_boot = {s["candidate"]: s["reason"] for s in steps.done if s["verdict"] == NO_BOOT}
    nothing = {s["candidate"]: s["reason"] for s in steps.done if s["verdict"] == NOTHING}
    report.update(steps=steps.done, result={
        "found": result.found, "last_good": result.last_good, "first_bad": result.first_bad,
        "skipped": result.skipped, "did_not_boot": no_boot, "measured_nothing": nothing, "stopped": result.stopped,
        "describe": describe})  # fmt: skip
    (out / "bisect.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"\nfirst bad build: {result.first_bad if result.found else 'not found'}: {describe}")
        for what, skipped in ((NO_BOOT, no_boot), (NOTHING, nothing)):
            for name, reason in skipped.items():
                inside = " (inside the range: the change may lie in it)" if name in result.skipped else ""
                print(f"{what}: {name}{inside}: {reason}")
        print(f"\n{out / 'bisect.json'}")
    return 0 if result.found else 1
