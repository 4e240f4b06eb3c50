"""Benchmark: the gate's own error rates and lab time under its verdict (perfgate.sequential, perfgate.pooling,
perfgate.suite_decision, perfgate.budget), for whole boards, in process, with the simulated board's noise model
(perfgate.sim.spread and perfgate.sim.values: the guides' own min/max where they print one that is not an artefact,
else the class spread, capped by SIM_SPREAD).

Each "gate run" measures every command of every suite once, then runs again only the commands of criteria still
undecided, within each command's most runs and the suite's rerun budget (variables/budget.yaml); criteria are grouped
into commands by their workload's plan, as the gate runs them. Reported, per board:
- the gate's verdict rates: a run fails the gate when any criterion fails or stays inconclusive;
- false FAILs (a criterion failed on a healthy board), inconclusive and `limited` criteria per run;
- detection: a 15 % regression injected into one random criterion whose tolerance is below 15 %: how often the gate
  fails, and how often that criterion reads FAIL (not inconclusive);
- lab time: planned hardware seconds of every command run, against one pass of every command and against the
  previous rule's whole-suite reruns (3 passes of a suite with anything undecided, as the previous release did).

What this does not cover: the values are drawn in process, not printed by the sim's tools and read back by the
parsers over SSH: benchmarks/error_rates_robot.py does that, a robot run per sample.

    python benchmarks/error_rates.py [--board am62xx_sk --board am64xx_evm] [--runs 20] [--degraded 20]
                                     [--spread 0.02|1] [--seed 1] [--boot-cycles 3] [--repeat N]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from perfgate import artefacts, boards, budget, criteria, sequential
from perfgate.model import Criterion
from perfgate.run import plan
from perfgate.sim import spread as sim_spread
from perfgate.sim import values
from perfgate.suite_decision import Command, SuiteSequence
from perfgate.tolerance import Policy

REGRESSION = 15.0  # percent


@dataclass
class Board:
    name: str
    release: str
    crits: list[Criterion]
    suites: dict[str, list[Criterion]]
    commands: dict[str, list[Command]]
    priors: dict
    tols: dict
    averaged: dict[str, int] = field(default_factory=dict)


def load_board(name: str, model: sequential.NoiseModel, plan_budget: budget.Budget, boot_cycles: int) -> Board:
    sel = criteria.select(name, None)
    crits = list(sel.criteria)
    arte = artefacts.find(crits)
    policy = Policy.load()
    profile = boards.profile(name)
    suites: dict[str, list[Criterion]] = defaultdict(list)
    for c in crits:
        suites[c.suite].append(c)
    averaged = {c.id: boot_cycles for c in crits if c.suite == "boot_time"}
    return Board(
        name, sel.label, crits, dict(suites),
        {s: plan.commands(s, cs, profile, {}, plan_budget) for s, cs in suites.items()},
        {c.id: model.prior(c, None, arte.get(c.id, ""), averaged.get(c.id, 1)) for c in crits},
        {c.id: policy.for_criterion(c) for c in crits}, averaged,
    )  # fmt: skip


def draw(c: Criterion, truth: Criterion, spread: sim_spread.Spread, rng: random.Random, k: int) -> float:
    sd = spread.of(c)
    return sum(values.draw(truth.value, c.direction, rng, sd) for _ in range(k)) / k


def gate_run(b: Board, model: sequential.NoiseModel, plan_budget: budget.Budget, spread: sim_spread.Spread,
             rng: random.Random, truth: dict[str, Criterion]) -> dict:  # fmt: skip
    out = {"final": {}, "seconds": 0.0, "one_pass": 0.0, "old_seconds": 0.0, "runs": 0}
    for suite, crits in b.suites.items():
        seq = SuiteSequence({c.id: c for c in crits}, {c.id: b.priors[c.id] for c in crits},
                            {c.id: b.tols[c.id] for c in crits}, model, len(b.crits), b.commands[suite],
                            plan_budget)  # fmt: skip
        one = sum(cmd.seconds for cmd in b.commands[suite])
        by_id = {c.id: c for c in crits}
        ids = list(by_id)
        first = True
        while ids:
            seq.add({cid: draw(by_id[cid], truth.get(cid, by_id[cid]), spread, rng, b.averaged.get(cid, 1))
                     for cid in ids})  # fmt: skip
            out["runs"] += 1 if first else 0
            first = False
            ids = seq.step()
        out["seconds"] += one + seq.spent
        out["one_pass"] += one
        out["runs"] += seq.reruns
        out["final"].update(seq.final)
        old_runs, _, old_undecided = previous_rule(b, suite, truth, spread, rng)
        out["old_seconds"] += one * old_runs
        out["old_undecided"] = out.get("old_undecided", 0) + old_undecided
    return out


def previous_rule(b: Board, suite: str, truth: dict[str, Criterion], spread: sim_spread.Spread,
                  rng: random.Random) -> tuple[int, int, int]:  # fmt: skip
    """The previous release's rule, for comparison: each criterion alone, its noise the guide's min/max (artefacts
    included) else its class, the median against the threshold in standard errors (2 to pass, 3 to fail), the whole
    suite run again while any of its criteria is undecided, up to REPEAT 3. Returns (suite runs, fails, undecided)."""
    crits = b.suites[suite]
    samples: dict[str, list[float]] = defaultdict(list)
    for runs in range(1, 4):
        for c in crits:
            samples[c.id].append(draw(c, truth.get(c.id, c), spread, rng, b.averaged.get(c.id, 1)))
        zs = {}
        for c in crits:
            g = sequential.from_guide(c)
            sd = g if g is not None else b.priors[c.id].fallback
            sd = sd / (b.averaged.get(c.id, 1) ** 0.5 if g is not None else 1)
            v = sorted(samples[c.id])[len(samples[c.id]) // 2]
            thr = sequential.threshold(c, b.tols[c.id])
            if c.direction == "match" or thr <= 0 or v <= 0:
                zs[c.id] = 99.0
                continue
            m = math.log(v / thr) if c.direction == "higher" else math.log(thr / v)
            se = sd * (math.sqrt(math.pi / 2) if runs > 2 else 1) / math.sqrt(runs)
            zs[c.id] = m / se if se > 0 else 99.0
        undecided = [cid for cid, z in zs.items() if -3 < z < 2]
        if not undecided or runs == 3:
            return runs, sum(z <= -3 for z in zs.values()), len(undecided)
    return 3, 0, 0


def verdicts(final: dict) -> Counter:
    n: Counter = Counter()
    for f in final.values():
        n[f.decision.verdict] += 1
        if f.limited is not None:
            n["limited"] += 1
    return n


def report_board(b: Board, args: argparse.Namespace, model: sequential.NoiseModel, plan_budget: budget.Budget,
                 spread: sim_spread.Spread, rng: random.Random) -> bool:  # fmt: skip
    print(f"\n== {b.name} {b.release}: {len(b.crits)} criteria in {len(b.suites)} suites, "
          f"{sum(len(v) for v in b.commands.values())} commands; SIM_SPREAD {args.spread:g}; "
          f"{sum(1 for p in b.priors.values() if p.artefact)} artefact spreads not used")  # fmt: skip
    passed = 0
    fails: Counter = Counter()
    undecided: Counter = Counter()
    limited: Counter = Counter()
    seconds = one = old = 0.0
    old_passed = 0
    for _ in range(args.runs):
        r = gate_run(b, model, plan_budget, spread, rng, {})
        v = verdicts(r["final"])
        passed += v[sequential.FAIL] == 0 and v[sequential.INCONCLUSIVE] == 0
        for cid, f in r["final"].items():
            if f.decision.verdict == sequential.FAIL:
                fails[cid] += 1
            elif f.decision.verdict == sequential.INCONCLUSIVE:
                undecided[cid] += 1
            if f.limited is not None:
                limited[cid] += 1
        seconds, one, old = seconds + r["seconds"], one + r["one_pass"], old + r["old_seconds"]
        old_passed += r.get("old_undecided", 0) == 0
    n = max(args.runs, 1)
    print(f"healthy: the gate passes {passed}/{args.runs}; false FAIL in {sum(1 for _ in fails)} criteria, "
          f"{sum(fails.values())} times; inconclusive {sum(undecided.values()) / n:.2f} per run; limited "
          f"{sum(limited.values()) / n:.1f} per run")  # fmt: skip
    for cid, k in fails.most_common(5):
        print(f"  false FAIL {k}x {cid}")
    for cid, k in undecided.most_common(8):
        print(f"  inconclusive {k}x {cid}")
    print(f"lab time per gate (planned hardware time): {seconds / n / 3600:.2f} h; one pass of every command "
          f"{one / n / 3600:.2f} h (ratio {seconds / max(one, 1):.2f}); the previous rule (whole suites rerun, "
          f"REPEAT 3) {old / n / 3600:.2f} h, its gate undecided-free in {old_passed}/{args.runs}")  # fmt: skip
    if args.degraded:
        candidates = [c for c in b.crits if b.tols[c.id].relative < REGRESSION / 100 and c.direction != "match"
                      and b.tols[c.id].absolute < abs(c.value) * 0.05]  # fmt: skip
        if not candidates:
            print(f"no criterion of {b.name} has a tolerance under {REGRESSION:g}%: no regression to detect")
            return passed > 0 or args.runs == 0
        gate_fails = reads_fail = 0
        missed: list[str] = []
        for _ in range(args.degraded):
            target = rng.choice(candidates)
            truth = {target.id: values.degrade(target, REGRESSION)}
            r = gate_run(b, model, plan_budget, spread, rng, truth)
            v = verdicts(r["final"])
            gate_fails += v[sequential.FAIL] > 0 or v[sequential.INCONCLUSIVE] > 0
            got = r["final"][target.id].decision.verdict
            reads_fail += got == sequential.FAIL
            if got != sequential.FAIL:
                missed.append(f"{target.id}: {got}")
        print(f"a {REGRESSION:g}% regression in one of {len(candidates)} criteria with a tolerance under "
              f"{REGRESSION:g}%: the gate fails {gate_fails}/{args.degraded}, the criterion reads FAIL "
              f"{reads_fail}/{args.degraded}")  # fmt: skip
        for m in missed[: args.show]:
            print(f"  not FAIL: {m}")
    return passed > 0 or args.runs == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", action="append", help="a board (repeat it; default am62xx_sk and am64xx_evm)")
    ap.add_argument("--all-boards", action="store_true", help="every board with criteria")
    ap.add_argument("--runs", type=int, default=20, help="healthy gate runs per board")
    ap.add_argument("--degraded", type=int, default=20, help="gate runs with one criterion regressed by 15%%")
    ap.add_argument("--spread", type=float, default=0.02, help="SIM_SPREAD (0.02: the sim's default; 1: the "
                    "guides' own spread, artefacts excluded)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boot-cycles", type=int, default=3, help="BOOT_CYCLES: boots averaged per boot-time value")
    ap.add_argument("--repeat", type=int, help="REPEAT: a cap on every command's runs (default: the budget's)")
    ap.add_argument("--show", type=int, default=8, help="how many missed regressions to list")
    args = ap.parse_args()
    names = [b.strip() for b in (args.board or ["am62xx_sk", "am64xx_evm"])]
    if args.all_boards:
        names = [b for b in boards.known() if criteria.default_release(b) and b != "qemu_arm64"]
    model = sequential.load()
    plan_budget = budget.load(repeat=args.repeat)
    spread = sim_spread.load(cap=args.spread)
    rng = random.Random(args.seed)
    print(f"alpha_pass {model.alpha_pass:g} per criterion, alpha_gate {model.alpha_gate:g} per gate; budget: "
          f"{plan_budget.min_runs}-{plan_budget.max_runs} runs per command, reruns within "
          f"{plan_budget.rerun_share:g} x one pass (at least {plan_budget.rerun_floor:g} s) per suite")  # fmt: skip
    measured = False
    for name in names:
        b = load_board(name, model, plan_budget, args.boot_cycles)
        if not b.crits:
            print(f"error: {name} publishes no criterion: nothing measured", file=sys.stderr)
            return 1
        b_spread = spread.excluding(b.crits)
        measured |= report_board(b, args, model, plan_budget, b_spread, rng)
    return 0 if measured else 1


if __name__ == "__main__":
    sys.exit(main())
