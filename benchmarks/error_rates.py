"""Benchmark: the gate's own error rates and lab time, judged through exactly the gate's code path, in process.

Each "gate run" draws values as the simulated board draws them (perfgate.sim.values.Sampler over the regime of
variables/sim.yaml: per-class noise, a between-boot part, tails, failed runs, two-mode rows), and judges each suite
with perfgate.decision.judge.Judge as the runner drives it (perfgate.run.runner.Runner.measure): every command
once, then the commands of the criteria the judge still calls undecided, after a fresh boot when it asks for one,
until it gives its final judgements; failed runs are set aside by the judge itself. Criteria are grouped into
commands by their workload's plan, as the gate runs them. Reported, per board:
- healthy gates: how many pass (no FAIL, nothing inconclusive), how many hold a false FAIL; inconclusive and LIMITED
  criteria per run, and the criteria behind them;
- how many criteria are gated at their own tolerance, at most 15 % worse, and worse than that (LIMITED ones by the
  smallest regression their runs can fail);
- detection: a 15 % regression injected into one random criterion (every criterion whose stated detectable
  regression is at most 15 %, by suite): how often the gate fails, and how often that criterion reads FAIL;
- lab time: planned hardware seconds of every command run and boot, against one pass of every command;
- with --cost: what holding more criteria at their own tolerance would cost: for K runs of every command, each in
  a boot of its own (K boots per suite), how many criteria the gate's allocation keeps at their own tolerance
  (Judge.allocate, as a run opens) and the planned lab time of those K passes and boots.

    python benchmarks/error_rates.py [--board am62xx_sk ...] [--runs 100] [--degraded 100] [--regime realistic]
                                     [--seed 1] [--boot-cycles N] [--repeat N] [--why] [--cost 4,8,16]
                                     [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from perfgate import boards, criteria
from perfgate.decision import artefacts, budget, sequential
from perfgate.decision.judge import Judge, SuiteState
from perfgate.decision.suite_decision import Command
from perfgate.decision.tolerance import Policy
from perfgate.decision.verdict import FAIL
from perfgate.model import Criterion
from perfgate.run import plan
from perfgate.sim import spread as sim_spread
from perfgate.sim import values
from perfgate.workloads import boot_time
from perfgate.workloads.base import Measurements

REGRESSION = 15.0  # percent


@dataclass
class Board:
    name: str
    release: str
    crits: list[Criterion]
    suites: dict[str, list[Criterion]]
    commands: dict[str, list[Command]]
    arte: dict[str, str]
    averaged: dict[str, int] = field(default_factory=dict)
    profile: dict = field(default_factory=dict)
    own: frozenset[str] | None = None  # what the gate's allocation keeps at its own tolerance (Judge.allocate)
    history: dict[str, list[list[float]]] = field(default_factory=dict)  # an A/A calibration campaign's runs


def load_board(name: str, plan_budget: budget.Budget, boot_cycles: int | None) -> Board:
    sel = criteria.select(name, None)
    crits = list(sel.criteria)
    profile = boards.profile(name)
    suites: dict[str, list[Criterion]] = defaultdict(list)
    for c in crits:
        suites[c.suite].append(c)
    # boot time: each value the mean of as many boots as the workload runs: the guide's count, or --boot-cycles as a
    # lab that lowers it (workloads.boot_time.cycles), which the plan's seconds then count too
    lab = {"workloads": {"boot_time": {"cycles": boot_cycles}}} if boot_cycles else {}
    boot = [c for c in crits if c.suite == "boot_time"]
    averaged = {c.id: boot_time.cycles([c], profile, lab) for c in boot}
    return Board(name, sel.label, crits, dict(suites),
                 {s: plan.commands(s, cs, profile, lab, plan_budget) for s, cs in suites.items()},
                 artefacts.find(crits), averaged, profile)  # fmt: skip


@dataclass
class Gate:
    """One gate run's outcome."""

    judgements: dict = field(default_factory=dict)  # criterion id -> Judgement
    limited: dict[str, float] = field(default_factory=dict)  # criterion id -> detectable regression (%)
    seconds: float = 0.0
    one_pass: float = 0.0
    boots: int = 1


def gate_run(b: Board, policy: Policy, model: sequential.NoiseModel, plan_budget: budget.Budget,
             spread: sim_spread.Spread, rng: random.Random, truth: dict[str, Criterion]) -> Gate:  # fmt: skip
    out = Gate()
    judge = Judge(policy, model, b.history, "median", plan_budget, judged=len(b.crits), artefacts=b.arte, own=b.own)
    sampler = values.Sampler(rng)
    sampler.boot()
    boot = 0
    for suite, crits in b.suites.items():
        by_id = {c.id: c for c in crits}
        cmds = b.commands[suite]
        of_cmd = {cid: cmd for cmd in cmds for cid in cmd.ids}
        judge.begin(by_id)
        samples: dict[str, list[float]] = {}
        boots: dict[str, list[int]] = {}
        ids = list(by_id)
        mine = {cid: k for cid, k in b.averaged.items() if cid in by_id}
        # as the workload reports them: each value's boots, and that count beside the guide's (fewer: never a pass)
        lengths = {cid: boot_time.run_length(by_id[cid], k, b.profile) for cid, k in mine.items()}
        measured = Measurements(averaged=mine, lengths=lengths)
        out.one_pass += sum(cmd.seconds for cmd in cmds)
        first = True
        while True:
            if not first:  # the commands that run again, each once
                out.seconds += sum(cmd.seconds for cmd in {of_cmd[cid] for cid in ids if cid in of_cmd})
            first = False
            for cid in ids:
                c = by_id[cid]
                t = truth.get(cid, c)
                k = b.averaged.get(cid, 1)
                row = spread.row(c)
                v = sum(sampler.draw(t.value, c.direction, row, cid) for _ in range(k)) / k
                samples.setdefault(cid, []).append(v)
                boots.setdefault(cid, []).append(boot)
            d = judge.decide(SuiteState(by_id, samples, measured, True, cmds, boots=boots))
            if d.final:
                break
            if d.reboot:
                sampler.boot()
                boot += 1
                out.boots += 1
                out.seconds += plan_budget.boot_seconds
            ids = d.undecided
        out.judgements.update(d.judgements)
        for cid in by_id:
            f = judge.final(cid)
            if f is not None and f.limited is not None:
                out.limited[cid] = f.limited.detectable_pct
    out.seconds += out.one_pass
    return out


def campaign(b: Board, spread: sim_spread.Spread, rng: random.Random, gates: int, runs: int) -> dict:
    """An A/A calibration campaign on a known-good board (README, "Calibration"): `gates` gate runs, each a fresh boot,
    every command `runs` times (-v CALIBRATE:<runs>): each criterion's samples, one list per boot, as the board's
    history keeps them."""
    sampler = values.Sampler(rng)
    out: dict[str, list[list[float]]] = {}
    for _ in range(gates):
        sampler.boot()
        for c in b.crits:
            k = b.averaged.get(c.id, 1)
            row = spread.row(c)
            drawn = [sum(sampler.draw(c.value, c.direction, row, c.id) for _ in range(k)) / k for _ in range(runs)]
            kept = [v for v in drawn if v > 0]  # a failed run is set aside, as the gate does
            if kept:
                out.setdefault(c.id, []).append(kept)
    return out


def gate_fails(g: Gate) -> bool:
    return any(j.verdict in (FAIL, sequential.INCONCLUSIVE) for j in g.judgements.values())


def stated(b: Board, policy: Policy, model: sequential.NoiseModel,
           plan_budget: budget.Budget) -> dict[str, tuple[float, float]]:  # fmt: skip
    """Each criterion's tolerance it is held to (%: its own, or its LIMITED one) and its stated detectable regression
    (%: what its budget fails 90 % of the time), before any run, from the suite sequence the gate builds."""
    from perfgate.decision.suite_decision import SuiteSequence

    out: dict[str, tuple[float, float]] = {}
    judge = Judge(policy, model, b.history, "median", plan_budget, judged=len(b.crits), artefacts=b.arte)
    for suite, crits in b.suites.items():
        seq = SuiteSequence({c.id: c for c in crits}, {c.id: judge.prior(c, b.averaged.get(c.id, 1)) for c in crits},
                            {c.id: policy.for_criterion(c) for c in crits}, model, len(b.crits), b.commands[suite],
                            plan_budget, own=b.own)  # fmt: skip
        for c in crits:
            tol = policy.for_criterion(c)
            own = max(tol.relative, tol.absolute / abs(c.value) if c.value else 0.0) * 100
            held = seq.limits[c.id].tolerance * 100 if c.id in seq.limits else own
            out[c.id] = (held, seq.detectable_pct(c.id))
    return out


def allocated(b: Board, policy: Policy, model: sequential.NoiseModel, plan_budget: budget.Budget) -> frozenset[str]:
    """What the gate's allocation keeps at its own tolerance under `plan_budget` (perfgate.run.plan.allocate)."""
    judge = Judge(policy, model, b.history, "median", plan_budget, judged=len(b.crits), artefacts=b.arte)
    judge.allocate({s: (cs, b.commands[s], min([b.averaged[c.id] for c in cs if c.id in b.averaged], default=1))
                    for s, cs in b.suites.items()})  # fmt: skip
    assert judge.own is not None
    return judge.own


def cost(b: Board, policy: Policy, model: sequential.NoiseModel, plan_budget: budget.Budget,
         runs: list[int]) -> list[dict]:  # fmt: skip
    """For each K of `runs`: every command may run K times, each run after a boot of its own (K boots per suite): the
    criteria the allocation keeps at their own tolerance, and the planned lab time of K passes and K boots per suite
    (an upper bound: the gate stops a criterion's runs once it is decided)."""
    one = sum(cmd.seconds for cmds in b.commands.values() for cmd in cmds)
    out = []
    for k in runs:
        wide = replace(plan_budget, min_runs=k, max_runs=k, max_boots=k, short_seconds=1e12, rerun_share=float(k))
        kept = allocated(b, policy, model, wide)
        hours = (k * one + k * len(b.suites) * plan_budget.boot_seconds) / 3600
        by_suite = Counter(c.suite for c in b.crits if c.id not in kept)
        out.append({"runs": k, "own": len(kept), "criteria": len(b.crits), "lab_hours": round(hours, 2),
                    "one_pass_hours": round(one / 3600, 2),
                    "limited_by_suite": dict(by_suite.most_common())})  # fmt: skip
    return out


def report_board(b: Board, args: argparse.Namespace, policy: Policy, model: sequential.NoiseModel,
                 plan_budget: budget.Budget, spread: sim_spread.Spread, rng: random.Random) -> dict:  # fmt: skip
    say = (lambda *a, **k: None) if args.json else print
    say(f"\n== {b.name} {b.release}: {len(b.crits)} criteria in {len(b.suites)} suites, "
        f"{sum(len(v) for v in b.commands.values())} commands; {spread.describe()}")  # fmt: skip
    passed = false_fail_gates = 0
    fails: Counter = Counter()
    undecided: Counter = Counter()
    why: dict[str, str] = {}  # criterion id -> why it stopped a healthy gate (its first such judgement)
    limited: Counter = Counter()
    seconds = one = 0.0
    boots = 0
    for _ in range(args.runs):
        g = gate_run(b, policy, model, plan_budget, spread, rng, {})
        passed += not gate_fails(g)
        false_fail_gates += any(j.verdict == FAIL for j in g.judgements.values())
        for cid, j in g.judgements.items():
            if j.verdict == FAIL:
                fails[cid] += 1
            elif j.verdict == sequential.INCONCLUSIVE:
                undecided[cid] += 1
            if j.verdict in (FAIL, sequential.INCONCLUSIVE):
                why.setdefault(cid, j.message.partition("; INCONCLUSIVE: ")[2] or j.message)
        for cid in g.limited:
            limited[cid] += 1
        seconds, one, boots = seconds + g.seconds, one + g.one_pass, boots + g.boots
    n = max(args.runs, 1)
    st = stated(b, policy, model, plan_budget)
    limited_ids = {
        c.id
        for c in b.crits
        if c.id in st
        and st[c.id][0] > policy.for_criterion(c).relative * 100 + 1e-6
        and st[c.id][0] > (policy.for_criterion(c).absolute / abs(c.value) * 100 if c.value else 0) + 1e-6
    }
    own = len(b.crits) - len(limited_ids)
    at15 = sum(1 for cid in limited_ids if st[cid][0] <= REGRESSION + 1e-9)
    worse = len(limited_ids) - at15
    say(f"healthy: the gate passes {passed}/{args.runs}; gates with a false FAIL {false_fail_gates}/{args.runs} "
        f"({sum(fails.values())} false FAILs in {len(fails)} criteria); inconclusive "
        f"{sum(undecided.values()) / n:.2f} per run; LIMITED {sum(limited.values()) / n:.1f} per run")  # fmt: skip
    for cid, k in fails.most_common(args.show):
        say(f"  false FAIL {k}x {cid}")
    for cid, k in undecided.most_common(args.show):
        say(f"  inconclusive {k}x {cid}")
    if args.why:  # what stops healthy gates: by noise class, then each criterion with its first reason
        by_class: Counter = Counter()
        for cid, k in (fails + undecided).items():
            by_class[model.class_of(next(c for c in b.crits if c.id == cid)).name] += k
        say("  stopping healthy gates, by noise class: " + ", ".join(f"{n} {k}" for n, k in by_class.most_common()))
        for cid, k in (fails + undecided).most_common(args.show):
            held = "LIMITED" if cid in limited else "own tolerance"
            say(f"  {k}x {cid} ({held}): {why[cid]}")
    say(f"gated at their own tolerance: {own}/{len(b.crits)} ({own / len(b.crits) * 100:.1f}%); LIMITED to a "
        f"tolerance of at most {REGRESSION:g}%: {at15}; to a wider one: {worse}")  # fmt: skip
    by_suite: Counter = Counter(c.suite for c in b.crits if c.id in limited_ids)
    if by_suite:
        say("  LIMITED, by suite: " + ", ".join(f"{s} {k}" for s, k in by_suite.most_common()))
    hours, one_hours = seconds / n / 3600, one / n / 3600
    say(f"lab time per gate (planned hardware time): {hours:.2f} h; one pass of every command {one_hours:.2f} h "
        f"(ratio {seconds / max(one, 1):.2f}); boots per gate {boots / n:.2f}")  # fmt: skip
    result = {"board": b.name, "release": b.release, "regime": spread.regime.name, "criteria": len(b.crits),
              "runs": args.runs, "healthy_pass": passed, "false_fail_gates": false_fail_gates,
              "inconclusive_per_run": round(sum(undecided.values()) / n, 3),
              "limited_per_run": round(sum(limited.values()) / n, 2),
              "gated_own_tolerance": own, "gated_within_15": at15, "gated_worse": worse,
              "lab_hours": round(hours, 3), "one_pass_hours": round(one_hours, 3),
              "degraded": 0, "degraded_gate_fail": 0, "degraded_read_fail": 0,
              "false_fail_criteria": dict(fails.most_common(args.show)),
              "inconclusive_criteria": dict(undecided.most_common(args.show))}  # fmt: skip
    candidates = [c for c in b.crits if c.direction != "match" and st[c.id][1] <= REGRESSION + 1e-9]
    if args.degraded and candidates:
        gate_fail = reads_fail = 0
        missed: list[str] = []
        per_suite: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for _ in range(args.degraded):
            target = rng.choice(candidates)
            g = gate_run(b, policy, model, plan_budget, spread, rng, {target.id: values.degrade(target, REGRESSION)})
            gate_fail += gate_fails(g)
            got = g.judgements[target.id].verdict
            reads_fail += got == FAIL
            per_suite[target.suite][0] += 1
            per_suite[target.suite][1] += got == FAIL
            if got != FAIL:
                missed.append(f"{target.id}: {got}")
        say(f"a {REGRESSION:g}% regression in one of the {len(candidates)} criteria whose detectable regression is "
            f"at most {REGRESSION:g}%: the gate fails {gate_fail}/{args.degraded}, the criterion reads FAIL "
            f"{reads_fail}/{args.degraded}")  # fmt: skip
        say("  by suite (reads FAIL/injected): " + ", ".join(f"{s} {v[1]}/{v[0]}"
                                                             for s, v in sorted(per_suite.items())))  # fmt: skip
        for m in missed[: args.show]:
            say(f"  not FAIL: {m}")
        result.update(
            degraded=args.degraded,
            degraded_gate_fail=gate_fail,
            degraded_read_fail=reads_fail,
            degraded_by_suite={s: {"injected": v[0], "read_fail": v[1]} for s, v in per_suite.items()},
        )
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", action="append", help="a board (repeat it; default am62xx_sk, am64xx_evm, "
                    "j721e_idk_gw)")  # fmt: skip
    ap.add_argument("--all-boards", action="store_true", help="every board with criteria")
    ap.add_argument("--runs", type=int, default=20, help="healthy gate runs per board")
    ap.add_argument("--degraded", type=int, default=20, help="gate runs with one criterion regressed by 15%%")
    ap.add_argument("--regime", default=None, help="the simulated board's noise regime (variables/sim.yaml: "
                    "quiet, realistic, published, harsh; default the file's)")  # fmt: skip
    ap.add_argument("--spread", type=float, default=None, help="SIM_SPREAD: a cap on every row's sd")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boot-cycles", type=int, help="BOOT_CYCLES: boots per boot-time value (default: the guide's)")
    ap.add_argument("--repeat", type=int, help="REPEAT: a cap on every command's runs (default: the budget's)")
    ap.add_argument("--show", type=int, default=8, help="how many criteria to list per finding")
    ap.add_argument("--why", action="store_true", help="the criteria that stop healthy gates: their noise class, "
                    "own tolerance or LIMITED, and why (the first such judgement's reason)")  # fmt: skip
    ap.add_argument("--calibrate", default="", help="GATESxRUNS: first an A/A calibration campaign on the healthy "
                    "board (e.g. 5x3), its runs the board's history for every gate after it")  # fmt: skip
    ap.add_argument("--cost", default="", help="K,K,...: for K runs of every command, each in a boot of its own, "
                    "the criteria kept at their own tolerance and the lab time it takes")  # fmt: skip
    ap.add_argument("--json", action="store_true", help="print one JSON object (a list of per-board objects under "
                    "`boards`, and the first board's figures at the top)")  # fmt: skip
    args = ap.parse_args()
    names = [b.strip() for b in (args.board or ["am62xx_sk", "am64xx_evm", "j721e_idk_gw"])]
    if args.all_boards:
        names = [b for b in boards.known() if criteria.default_release(b) and b != "qemu_arm64"]
    model = sequential.load()
    policy = Policy.load()
    plan_budget = budget.load(repeat=args.repeat)
    spread = sim_spread.load(cap=args.spread, regime=sim_spread.regime_from(args.regime, "--regime"))
    rng = random.Random(args.seed)
    if not args.json:
        print(f"alpha_pass {model.alpha_pass:g} per criterion (spent over its looks), alpha_gate "
              f"{model.alpha_gate:g} per gate; budget: {plan_budget.min_runs}-{plan_budget.max_runs} runs per "
              f"command, up to {plan_budget.max_boots} boots per suite, reruns within {plan_budget.rerun_share:g} x "
              f"one pass (at least {plan_budget.rerun_floor:g} s) per suite")  # fmt: skip
    results = []
    for name in names:
        b = load_board(name, plan_budget, args.boot_cycles)
        if not b.crits:
            print(f"error: {name} publishes no criterion: nothing measured", file=sys.stderr)
            return 1
        if args.calibrate:
            gates, _, runs = args.calibrate.partition("x")
            b.history = campaign(b, spread.excluding(b.crits), rng, int(gates), int(runs or 3))
            one = sum(cmd.seconds for cmds in b.commands.values() for cmd in cmds)
            if not args.json:
                print(
                    f"calibration: {gates} gates x {runs or 3} runs of every command on a known-good {b.name}: "
                    f"{int(gates) * (int(runs or 3) * one + plan_budget.boot_seconds) / 3600:.1f} h of lab time"
                )
        # as the gate does when the run opens (perfgate.run.plan.allocate): which criteria stay at their tolerance
        board_model = model.for_board(b.crits, b.arte)  # as perfgate.run.session.Session.judge does
        b.own = allocated(b, policy, board_model, plan_budget)
        result = report_board(b, args, policy, board_model, plan_budget, spread.excluding(b.crits), rng)
        if args.cost:
            ks = [int(k) for k in args.cost.split(",") if k.strip()]
            result["cost"] = cost(b, policy, board_model, plan_budget, ks)
            for row in result["cost"]:
                if not args.json:
                    print(
                        f"  {row['runs']:3d} runs of every command in {row['runs']} boots per suite: own tolerance "
                        f"{row['own']}/{row['criteria']} ({row['own'] / row['criteria'] * 100:.0f}%), lab time "
                        f"{row['lab_hours']:.1f} h ({row['lab_hours'] / row['one_pass_hours']:.1f}x one pass); "
                        "LIMITED: " + ", ".join(f"{s} {n}" for s, n in list(row["limited_by_suite"].items())[:6])
                    )
        results.append(result)
    if args.json:
        print(json.dumps({**results[0], "boards": results}, indent=1))
    return 0 if results and all(r["runs"] == 0 or r["criteria"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
