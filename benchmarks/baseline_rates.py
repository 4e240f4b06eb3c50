"""Benchmark: the error rates of the comparison with the board's own baseline (perfgate.baseline: the rule, the
pooled accepted history and the sequential boots, with variables/baseline.yaml), in process, with the simulated
board's noise (perfgate.sim.values.Sampler: one offset per noise class per boot, as the sim draws its runs).

Each trial draws the board's accepted history (`--history` healthy runs, each one boot: the last baseline_runs of
them pooled are the baseline, all of them the rule's noise, as perfgate.baseline.record.Against reads a history)
and a candidate run of every criterion, `--values` values per criterion and boot (`budget`: as many as the budget
lets its command run, perfgate.run.plan.most_runs; or a number). While a criterion's verdict against the baseline is
undecided (Against.wants_boot, what perfgate.run.runner.Runner asks with BASELINE_GATES:true) it gets another boot
with one more run of its command (the runner's one round), up to `--boots` (budget.yaml max_boots) in all;
`--boots 1` is a run that only reports. Every verdict is Against's
(the code the runner drives), every criterion and suite of the run one family. Reported:
- healthy: trials whose candidate run has no `worse` criterion or suite at all (the family-wise rate the rule
  holds), and the verdicts per criterion;
- regressed: the criteria of `--regressed` suites (default CoreMark-Pro and STREAM) made worse by `--percent` (5):
  how often each reads `worse`, the suite as a whole, and the suite raising a regression at all (it or a criterion).

    python benchmarks/baseline_rates.py [--board am62xx_sk] [--trials 20] [--values budget|N] [--percent 5]
                                        [--regressed coremark_pro --regressed stream] [--between 0] [--seed 1]
                                        [--regime realistic] [--history 10] [--boots N] [--json]
                                        [--ab [--ab-target <id glob>] [--max-boots 10]]

`--ab`: A/B instead (perfgate.baseline.ab): build B is build A with the criteria of --ab-target --percent worse,
boots interleaved; reported: the trials in which B reads worse in exactly those criteria.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import random
import sys
from collections import Counter

from perfgate import boards, criteria
from perfgate.baseline import ab, config, noise, record, rule, select
from perfgate.decision import artefacts, budget
from perfgate.model import Criterion
from perfgate.run import plan
from perfgate.sim import spread as sim_spread
from perfgate.sim import values


def load_spread(regime: str | None) -> tuple[sim_spread.Spread, str]:
    """perfgate.sim.spread.load, with `regime` when that function takes one (SIM_NOISE's regimes); else its
    default, said."""
    if regime and "regime" in inspect.signature(sim_spread.load).parameters:
        return sim_spread.load(regime=regime), f"regime {regime}"  # type: ignore[call-arg]
    note = f" (perfgate.sim.spread.load takes no regime: --regime {regime} not used)" if regime else ""
    return sim_spread.load(), "the sim's default spread" + note


class Board:
    """Draws runs of the simulated board: with the sim's own boots (perfgate.sim.values.Sampler, where the sim has
    one: a boot per run), else values.draw with the spread's sd, times a run offset exp(N(0, between)) per suite."""

    def __init__(self, spread: sim_spread.Spread, rng: random.Random, between: float) -> None:
        self.spread, self.rng, self.between = spread, rng, between
        sampler = getattr(values, "Sampler", None)
        self.sampler = sampler(rng) if sampler is not None and hasattr(spread, "row") else None

    @property
    def boots(self) -> str:
        return "the sim's boots (values.Sampler)" if self.sampler else f"a run offset sd {self.between:g} per suite"

    def run(
        self, crits: list[Criterion], truth: dict[str, Criterion], counts: dict[str, int]
    ) -> dict[str, list[float]]:
        """One run (one boot) of every criterion: `counts[id]` values around its true published value."""
        out: dict[str, list[float]] = {}
        if self.sampler is not None:
            self.sampler.boot()
            for c in crits:
                t, row = truth.get(c.id, c), self.spread.row(c)  # type: ignore[attr-defined]
                out[c.id] = [self.sampler.draw(t.value, c.direction, row, c.id) for _ in range(counts[c.id])]
            return out
        offsets: dict[str, float] = {}
        for c in crits:
            t = truth.get(c.id, c)
            z = offsets.setdefault(c.suite, self.rng.gauss(0.0, self.between) if self.between > 0 else 0.0)
            shift = math.exp(-z if c.direction == "lower" else z)
            out[c.id] = [values.draw(t.value, c.direction, self.rng, self.spread.of(c)) * shift
                         for _ in range(counts[c.id])]  # fmt: skip
        return out


def against(crits: list[Criterion], past: list[dict[str, list[float]]], cfg: config.Config, board: str,
            history: int, looks: int) -> record.Against:  # fmt: skip
    """The run's Against (perfgate.baseline.record, as the runner opens it) with a last-accepted baseline of the
    board's last baseline_runs accepted runs among `past` (oldest first), and its noise from `history` of them."""
    pooled = past[-cfg.baseline_runs :]
    keyed = [{select.key(cid, board): v for cid, v in run.items()} for run in pooled]
    names = [f"accepted-{i}" for i in range(len(past))][-len(pooled) :]
    base = select.Baseline(names[-1], f"virtual/{board}/{names[-1]}", "", "sim", True, "", select.LAST_ACCEPTED,
                           keyed[-1], keyed, names)  # fmt: skip
    suites = {c.suite for c in crits}
    runs = {select.key(c.id, board): [r[c.id] for r in past] for c in crits} if history else {}
    return record.Against(base, cfg, board, len(crits) + len(suites), False, "", runs,
                          frozenset(artefacts.find(crits)), looks)  # fmt: skip


def trial(crits: list[Criterion], truth: dict[str, Criterion], board: Board, counts: dict[str, int],
          cfg: config.Config, history: int, name: str,
          max_boots: int) -> tuple[dict[str, str], dict[str, str], int]:  # fmt: skip
    """The verdicts of every criterion and every suite of a candidate run (with `truth`) against the board's healthy
    accepted history (`history` runs, at least 1: the last baseline_runs pooled, all of them its noise), all held to
    one family (criteria and suites), and the boots the run took: while a criterion's baseline verdict is undecided
    and its boots may grow (record.Against.wants_boot), its suite boots again, up to `max_boots` (as the gate's
    runner does)."""
    past = [board.run(crits, {}, counts) for _ in range(max(history, 1))]
    ag = against(crits, past, cfg, name, history, max_boots)
    values: dict[str, list[float]] = {c.id: [] for c in crits}
    boots: dict[str, list[int]] = {c.id: [] for c in crits}
    todo, boot = list(crits), 0
    while todo:  # as perfgate.run.runner.Runner._baseline_boots: after the first boot, only what wants another
        once = counts if boot == 0 else dict.fromkeys(counts, 1)  # a further boot: one round, each command once
        for cid, vals in board.run(todo, truth, once).items():
            values[cid] += vals
            boots[cid] += [boot] * len(vals)
        boot += 1
        todo = [c for c in crits if ag.wants_boot(c, values[c.id], boots[c.id], boot)]
    rows = {c.id: ag.change(c, values[c.id], boots[c.id]).verdict for c in crits}  # type: ignore[union-attr]
    by_suite = {s: str(x.get("verdict")) for s, x in ag.suites(crits, values, boots).items()}
    return rows, by_suite, boot


def ab_trials(crits: list[Criterion], board_sim: Board, counts: dict[str, int], cfg: config.Config,
              args: argparse.Namespace) -> int:  # fmt: skip
    """A/B on the simulated board: build B is build A with the criteria matching --ab-target `--percent` worse;
    boots interleaved A, B, A, B, each criterion decided by perfgate.baseline.ab within --max-boots per build."""
    import fnmatch

    target = [c for c in crits if fnmatch.fnmatchcase(c.id, args.ab_target)]
    if not target:
        print(f"NOTHING MEASURED: no criterion of the board matches --ab-target {args.ab_target}", file=sys.stderr)
        return 1
    truth = {c.id: values.degrade(c, args.percent) for c in target}
    arte = artefacts.find(crits)
    noises = {c.id: noise.of_criterion(c, cfg, c.id in arte, []) for c in crits}
    by_id = {c.id: c for c in crits}
    exact = others_total = 0
    boots: list[int] = []
    for _ in range(args.trials):
        run = ab.ABRun(by_id, noises, cfg, max_boots=args.max_boots)

        def boot(build: str, ids: list[str]) -> dict[str, list[float]]:
            return board_sim.run([by_id[i] for i in ids], truth if build == "B" else {}, counts)

        final = run.run(boot)
        worse = sorted(cid for cid, o in final.items() if o.change.verdict == rule.WORSE)
        exact += worse == sorted(truth)
        others_total += sum(1 for cid in worse if cid not in truth)
        boots.append(max((o.boots for o in final.values()), default=0))
        if args.trials <= 3 or _ == 0:
            for cid in worse:
                o = final[cid]
                print(f"  worse: {cid}: {o.change.describe()} after {o.boots} boots of each build")
    print(f"A/B, build B {args.percent:g} % worse in {len(target)} criteria ({args.ab_target}): B is worse in exactly "
          f"those in {exact}/{args.trials} trials; a worse elsewhere {others_total} times; boots of each build: "
          f"median {sorted(boots)[len(boots) // 2] if boots else 0}, at most {args.max_boots}")  # fmt: skip
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="am62xx_sk")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--values", default="budget", help="values per criterion and run: budget, or a number")
    ap.add_argument("--percent", type=float, default=5.0, help="the regression injected (percent)")
    ap.add_argument("--regressed", action="append", help="a suite regressed (repeat; default coremark_pro, stream)")
    ap.add_argument(
        "--between",
        type=float,
        default=0.0,
        help="a run offset's relative sd per suite (a sim without boots of its own)",
    )
    ap.add_argument(
        "--history",
        type=int,
        default=10,
        help="healthy accepted runs before (the last baseline_runs pooled: the baseline; all: its noise)",
    )
    ap.add_argument("--regime", help="the sim's noise regime (perfgate.sim.spread.load(regime=...), when it has one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="also print the rates as one JSON object (last)")
    ap.add_argument("--ab", action="store_true", help="A/B instead: build B with --ab-target --percent worse")
    ap.add_argument(
        "--ab-target",
        default="*.coremark_pro.coremarkpro-benchmarks.cjpeg-rose7-preset-workloads.perf",
        help="the criteria (an id glob) build B regresses",
    )
    ap.add_argument("--max-boots", type=int, default=10, help="A/B: at most this many boots of each build")
    ap.add_argument("--boots", type=int, help="a run's most boots (default: budget.yaml max_boots)")
    args = ap.parse_args()
    if args.trials < 1:
        print("error: --trials must be 1 or more", file=sys.stderr)
        return 2
    board = boards.resolve(args.board)
    crits = [c for c in criteria.select(board, None).criteria if c.direction in ("higher", "lower", "match")]
    if not crits:
        print(f"NOTHING MEASURED: {board} publishes no criterion", file=sys.stderr)
        return 1
    spread, said = load_spread(args.regime)
    spread = spread.excluding(crits)
    cfg = config.load()
    profile, plan_budget = boards.profile(board), budget.load()
    args.boots = args.boots or plan_budget.max_boots
    if args.values == "budget":
        counts: dict[str, int] = {}
        for suite in sorted({c.suite for c in crits}):
            in_suite = [c for c in crits if c.suite == suite]
            counts.update(plan.most_runs(plan.commands(suite, in_suite, profile, {}, plan_budget), plan_budget))
        counts = {c.id: counts.get(c.id, 1) for c in crits}
    else:
        counts = dict.fromkeys((c.id for c in crits), int(args.values))
    board_sim = Board(spread, random.Random(args.seed), args.between)
    suites = args.regressed or ["coremark_pro", "stream"]
    target = [c for c in crits if c.suite in suites and c.direction != "match"]
    print(f"{board}: {len(crits)} criteria; {said}; values per run: {args.values} "
          f"(median {sorted(counts.values())[len(counts) // 2]}); boots: {board_sim.boots}; "
          f"history {args.history} runs; "
          f"alpha_worse {cfg.alpha_worse:g} over {len(crits)} criteria")  # fmt: skip
    if args.ab:
        return ab_trials(crits, board_sim, counts, cfg, args)
    if not target:
        print(f"NOTHING MEASURED: {board} has no criterion in {', '.join(suites)} to regress", file=sys.stderr)
        return 1
    clean, verdicts, false_worse = 0, Counter(), Counter()
    boots_used: list[int] = []
    boots_bad: list[int] = []
    for _ in range(args.trials):
        v, vs, _b = trial(crits, {}, board_sim, counts, cfg, args.history, board, args.boots)
        boots_used.append(_b)
        verdicts.update(v.values())
        worse = [cid for cid, x in v.items() if x == rule.WORSE] + [s for s, x in vs.items() if x == rule.WORSE]
        clean += not worse
        false_worse.update(worse)
    print(
        f"healthy vs healthy: no `worse` (criterion or suite) in {clean}/{args.trials} runs; verdicts per run: "
        + ", ".join(f"{k} {verdicts[k] / max(args.trials, 1):.1f}" for k in rule.VERDICTS)
    )
    for cid, k in false_worse.most_common(5):
        print(f"  false worse {k}x {cid}")
    truth = {c.id: values.degrade(c, args.percent) for c in target}
    found, all_found, others, suite_found, raised = Counter(), 0, 0, Counter(), Counter()
    for _ in range(args.trials):
        v, vs, _b = trial(crits, truth, board_sim, counts, cfg, args.history, board, args.boots)
        boots_bad.append(_b)
        hits = [c.id for c in target if v[c.id] == rule.WORSE]
        found.update(hits)
        all_found += len(hits) == len(target)
        others += sum(1 for cid, x in v.items() if x == rule.WORSE and cid not in truth)
        others += sum(1 for s, x in vs.items() if x == rule.WORSE and s not in suites)
        suite_found.update(s for s in suites if vs.get(s) == rule.WORSE)
        raised.update(s for s in suites if vs.get(s) == rule.WORSE or any(v[c.id] == rule.WORSE for c in target
                                                                          if c.suite == s))  # fmt: skip
    rates = [found[c.id] for c in target]
    print(f"a {args.percent:g} % regression in {', '.join(suites)} ({len(target)} criteria): every one found worse "
          f"in {all_found}/{args.trials} runs; per criterion found in {min(rates, default=0)}-{max(rates, default=0)}"
          f"/{args.trials} (median {sorted(rates)[len(rates) // 2] if rates else 0}); a `worse` elsewhere "
          f"{others} times")  # fmt: skip
    print("  the suite as a whole found worse: " + ", ".join(f"{s} {suite_found[s]}/{args.trials}" for s in suites))
    print(
        "  a baseline regression raised in the suite (it or a criterion of it worse): "
        + ", ".join(f"{s} {raised[s]}/{args.trials}" for s in suites)
    )
    print(
        f"  boots a run took: healthy median {_median(boots_used)}, regressed median {_median(boots_bad)} "
        f"(at most {args.boots})"
    )
    for c in sorted(target, key=lambda c: found[c.id])[:6]:
        if found[c.id] < args.trials:
            print(f"  found {found[c.id]}/{args.trials}: {c.id} (values per run {counts[c.id]}, sim sd "
                  f"{spread.of(c) * 100:.2f} %)")  # fmt: skip
    if args.json:
        print(json.dumps({
            "board": board, "regime": args.regime, "history": args.history, "trials": args.trials,
            "percent": args.percent, "boots": args.boots, "seed": args.seed,
            "healthy_clean": clean, "false_worse": dict(false_worse),
            "regressed": {s: {"raised": raised[s], "suite_worse": suite_found[s],
                              "criteria": {c.id: found[c.id] for c in target if c.suite == s}} for s in suites},
            "worse_elsewhere": others, "boots_healthy_median": _median(boots_used),
            "boots_regressed_median": _median(boots_bad),
        }, indent=1))  # fmt: skip
    return 0


def _median(xs: list[int]) -> int:
    return sorted(xs)[len(xs) // 2] if xs else 0


if __name__ == "__main__":
    sys.exit(main())
