"""Benchmark: the gate's own error rates under the sequential verdict (perfgate.sequential), for one board's full
set of published criteria, with the simulated board's noise model (perfgate.sim.spread and perfgate.sim.values, the
guides' own min/max where they print them; SIM_SPREAD as given, 1 = uncapped).

Each "gate run" measures every suite once and repeats a suite only while one of its criteria is undecided, up to
REPEAT runs (a maximum); the verdict is the median's. Reported:
- false FAIL: undegraded gate runs with any criterion failed (and, apart, with any left inconclusive);
- detection per metric class: a 15 % regression injected into one random criterion of the class, 20 times;
- workload runs against a fixed REPEAT:3.

What this does not cover: the values are drawn with the sim's model in-process, not printed by the sim's tools and
read back by the parsers over SSH (a full robot gate run per sample would take hours on this machine).

    python benchmarks/error_rates.py [--board am62xx_sk] [--runs 20] [--repeat 3] [--spread 1] [--seed 1]
                                     [--boot-cycles 3]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

from perfgate import criteria, sequential
from perfgate.model import Criterion
from perfgate.sim import spread as sim_spread
from perfgate.sim import values
from perfgate.tolerance import Policy

REGRESSION = 15.0  # percent


def run_suite(crits: list[Criterion], truth: dict[str, Criterion], ctx: dict, rng: random.Random) -> tuple[dict, int]:
    """One suite measured sequentially: the final decision per criterion and the workload runs it took."""
    samples: dict[str, list[float]] = defaultdict(list)
    runs = 0
    while True:
        runs += 1
        for c in crits:
            t = truth.get(c.id, c)
            k = ctx["averaged"].get(c.id, 1)  # boot time: the mean of BOOT_CYCLES boots, each drawn apart
            draws = [values.draw(t.value, c.direction, rng, ctx["spread"].of(c)) for _ in range(k)]
            samples[c.id].append(sum(draws) / k)
        last = runs >= ctx["repeat"]
        z, z_fail = ctx["z"], ctx["z_fail"]
        out = {c.id: sequential.decide(c, samples[c.id], ctx["tol"][c.id], ctx["noise"][c.id], z, last, z_fail)
               for c in crits}  # fmt: skip
        if not sequential.undecided(out):
            return out, runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="am62xx_sk")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3, help="REPEAT: the most runs of a workload (default 3)")
    ap.add_argument("--spread", type=float, default=1.0, help="SIM_SPREAD (default 1: the guides' own spread)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boot-cycles", type=int, default=3, help="BOOT_CYCLES: boots averaged per boot-time value")
    ap.add_argument("--z-fail", type=float, help="z_fail (default: variables/noise.yaml's)")
    args = ap.parse_args()
    sel = criteria.select(args.board, None)
    crits = list(sel.criteria)
    if not crits:
        print(f"error: {args.board} publishes no criterion: nothing measured", file=sys.stderr)
        return 1
    policy = Policy.load()
    model = sequential.load()
    ctx = {
        "spread": sim_spread.load(cap=args.spread),
        "repeat": args.repeat,
        "z": model.z,
        "z_fail": args.z_fail if args.z_fail is not None else model.z_fail,
        "tol": {c.id: policy.for_criterion(c) for c in crits},
        "averaged": {c.id: args.boot_cycles for c in crits if c.suite == "boot_time"},
    }
    ctx["noise"] = {c.id: sequential.averaged(model.of(c), ctx["averaged"].get(c.id, 1)) for c in crits}
    suites: dict[str, list[Criterion]] = defaultdict(list)
    for c in crits:
        suites[c.suite].append(c)
    rng = random.Random(args.seed)
    guided = sum(ctx["noise"][c.id].source.startswith("guide min/max") for c in crits)
    print(f"board {args.board} release {sel.label}: {len(crits)} criteria in {len(suites)} suites "
          f"({guided} with the guide's min/max); REPEAT {args.repeat} (max), z {model.z:g}, z_fail {ctx['z_fail']:g}, "
          f"SIM_SPREAD {args.spread:g}")  # fmt: skip

    # 1. undegraded runs
    fail_runs = inconclusive_runs = workload_runs = 0
    fails: dict[str, int] = defaultdict(int)
    inconclusive: dict[str, int] = defaultdict(int)
    for _ in range(args.runs):
        any_fail = any_inc = False
        for suite_crits in suites.values():
            out, runs = run_suite(suite_crits, {}, ctx, rng)
            workload_runs += runs
            for cid, d in out.items():
                if d.verdict == sequential.FAIL:
                    any_fail = True
                    fails[cid] += 1
                elif d.verdict == sequential.INCONCLUSIVE:
                    any_inc = True
                    inconclusive[cid] += 1
        fail_runs += any_fail
        inconclusive_runs += any_inc
    fixed = 3 * len(suites) * args.runs
    print(f"\nundegraded: {fail_runs}/{args.runs} runs with a false FAIL ({sum(fails.values())} criteria), "
          f"{inconclusive_runs}/{args.runs} with an inconclusive criterion "
          f"({sum(inconclusive.values())} criteria)")  # fmt: skip
    for cid, n in sorted(fails.items(), key=lambda x: -x[1])[:5]:
        print(f"  false FAIL {n}x {cid}")
    for cid, n in sorted(inconclusive.items(), key=lambda x: -x[1])[:5]:
        print(f"  inconclusive {n}x {cid}")
    print(f"workload runs: {workload_runs} against {fixed} with a fixed REPEAT:3 "
          f"({(1 - workload_runs / fixed) * 100:.0f}% fewer)")  # fmt: skip

    # which criteria no number of runs up to REPEAT can decide, even on a board exactly at its published value
    stuck: dict[str, int] = defaultdict(int)
    for c in crits:
        at_value = [c.value] * args.repeat
        d = sequential.decide(c, at_value, ctx["tol"][c.id], ctx["noise"][c.id], ctx["z"], True, ctx["z_fail"])
        if d.verdict == sequential.INCONCLUSIVE:
            stuck[c.suite] += 1
    print(f"undecidable in {args.repeat} runs even at the published value (the guide's own spread is wider than "
          f"the tolerance allows): {sum(stuck.values())} criteria: "
          + ", ".join(f"{s} {n}" for s, n in sorted(stuck.items(), key=lambda x: -x[1])))  # fmt: skip

    # 2. detection of a 15 % regression per metric class
    classes: dict[str, list[Criterion]] = defaultdict(list)
    for c in crits:
        if c.direction != "match" and c.value:
            classes[model.class_of(c)].append(c)
    print(f"\n{'class':<14} {'criteria':>8} {'FAIL':>6} {'FAIL|INC':>8}  why a class cannot reach 19/20")
    for name, members in sorted(classes.items()):
        caught = flagged = 0
        cannot: list[str] = []
        for _ in range(20):
            target = rng.choice(members)
            bad = values.degrade(target, REGRESSION)
            suite_crits = suites[target.suite]
            out, _runs = run_suite(suite_crits, {target.id: bad}, ctx, rng)
            d = out[target.id]
            caught += d.verdict == sequential.FAIL
            flagged += d.verdict in (sequential.FAIL, sequential.INCONCLUSIVE)
        tols = sorted({ctx["tol"][c.id].relative for c in members})
        if min(tols) >= REGRESSION / 100 - 1e-9:
            cannot.append(f"tolerance {min(tols) * 100:g}%+ is not below the {REGRESSION:g}% regression")
        slow = 0  # criteria whose published noise needs more than REPEAT runs to FAIL the regression decisively
        for c in members:
            t = ctx["tol"][c.id]
            gap = REGRESSION / 100 * abs(c.value) - max(t.relative * abs(c.value), t.absolute)
            if gap > 0:
                sd = ctx["noise"][c.id].sd * abs(c.value) * 1.2533
                slow += (ctx["z_fail"] * sd / gap) ** 2 > args.repeat
        if slow:
            cannot.append(f"{slow} of {len(members)} criteria publish a spread that needs more than {args.repeat} "
                          f"runs for a decisive FAIL ({ctx['z_fail']:g} standard errors): inconclusive instead, "
                          f"which fails the gate too")  # fmt: skip
        print(f"{name:<14} {len(members):>8} {caught:>4}/20 {flagged:>5}/20  {'; '.join(cannot)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
