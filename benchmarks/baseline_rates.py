"""Benchmark: the error rates of the comparison with the board's own baseline (perfgate.baseline.rule, with
variables/baseline.yaml), in process, with the simulated board's noise (perfgate.sim.values.draw with the spread of
perfgate.sim.spread, as benchmarks/error_rates.py draws it).

Each trial draws two runs of every criterion of the board: a baseline run and a candidate run, each with `--values`
values per criterion (`budget`: as many as the budget lets the criterion's command run, perfgate.run.plan.most_runs;
or a number: 1 is a gate whose every command ran once). `--between` adds a run offset (relative sd, one draw per
run and criterion, shared by the run's values) on top of what the sim draws, for a board whose boots differ.
Reported:
- healthy: trials whose candidate run has no `worse` criterion at all (the family-wise rate the rule holds), and the
  verdicts per criterion;
- regressed: the criteria of `--regressed` suites (default CoreMark-Pro and STREAM) made worse by `--percent` (5) in
  the candidate: how often each reads `worse`, and how many trials find all of them.

    python benchmarks/baseline_rates.py [--board am62xx_sk] [--trials 20] [--values budget|N] [--percent 5]
                                        [--regressed coremark_pro --regressed stream] [--between 0] [--seed 1]
                                        [--regime realistic]
"""

from __future__ import annotations

import argparse
import inspect
import math
import random
import sys
from collections import Counter

from perfgate import boards, budget, criteria
from perfgate.baseline import config, rule
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


def draw_run(crits: list[Criterion], truth: dict[str, Criterion], spread: sim_spread.Spread, counts: dict[str, int],
             between: float, rng: random.Random) -> dict[str, list[float]]:  # fmt: skip
    """One run's values of every criterion: `counts[id]` draws around its (true) published value, times one run
    offset exp(N(0, between)) shared by the run's values."""
    out = {}
    for c in crits:
        t = truth.get(c.id, c)
        offset = math.exp(rng.gauss(0.0, between)) if between > 0 else 1.0
        out[c.id] = [values.draw(t.value, c.direction, rng, spread.of(c)) * offset for _ in range(counts[c.id])]
    return out


def trial(crits: list[Criterion], truth: dict[str, Criterion], spread: sim_spread.Spread, counts: dict[str, int],
          between: float, cfg: config.Config, rng: random.Random) -> dict[str, str]:  # fmt: skip
    """The verdict of every criterion of a candidate run (with `truth`) against a healthy baseline run."""
    base = draw_run(crits, {}, spread, counts, between, rng)
    cand = draw_run(crits, truth, spread, counts, between, rng)
    m = len(crits)
    return {c.id: rule.compare(base[c.id], cand[c.id], c.direction, cfg.of(c), cfg, m).verdict for c in crits}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="am62xx_sk")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--values", default="budget", help="values per criterion and run: budget, or a number")
    ap.add_argument("--percent", type=float, default=5.0, help="the regression injected (percent)")
    ap.add_argument("--regressed", action="append", help="a suite regressed (repeat; default coremark_pro, stream)")
    ap.add_argument("--between", type=float, default=0.0, help="a run offset's relative sd, added to the sim's")
    ap.add_argument("--regime", help="the sim's noise regime (perfgate.sim.spread.load(regime=...), when it has one)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    board = boards.resolve(args.board)
    crits = [c for c in criteria.select(board, None).criteria if c.direction in ("higher", "lower", "match")]
    if not crits:
        print(f"error: {board} publishes no criterion", file=sys.stderr)
        return 1
    spread, said = load_spread(args.regime)
    spread = spread.excluding(crits)
    cfg = config.load()
    profile, plan_budget = boards.profile(board), budget.load()
    if args.values == "budget":
        counts: dict[str, int] = {}
        for suite in sorted({c.suite for c in crits}):
            in_suite = [c for c in crits if c.suite == suite]
            counts.update(plan.most_runs(plan.commands(suite, in_suite, profile, {}, plan_budget), plan_budget))
        counts = {c.id: counts.get(c.id, 1) for c in crits}
    else:
        counts = dict.fromkeys((c.id for c in crits), int(args.values))
    rng = random.Random(args.seed)
    suites = args.regressed or ["coremark_pro", "stream"]
    target = [c for c in crits if c.suite in suites and c.direction != "match"]
    print(f"{board}: {len(crits)} criteria; {said}; values per run: {args.values} "
          f"(median {sorted(counts.values())[len(counts) // 2]}); run offset sd {args.between:g}; "
          f"alpha_worse {cfg.alpha_worse:g} over {len(crits)} criteria")  # fmt: skip
    clean, verdicts, false_worse = 0, Counter(), Counter()
    for _ in range(args.trials):
        v = trial(crits, {}, spread, counts, args.between, cfg, rng)
        verdicts.update(v.values())
        worse = [cid for cid, x in v.items() if x == rule.WORSE]
        clean += not worse
        false_worse.update(worse)
    print(
        f"healthy vs healthy: no `worse` in {clean}/{args.trials} runs; verdicts per run: "
        + ", ".join(f"{k} {verdicts[k] / max(args.trials, 1):.1f}" for k in rule.VERDICTS)
    )
    for cid, k in false_worse.most_common(5):
        print(f"  false worse {k}x {cid}")
    truth = {c.id: values.degrade(c, args.percent) for c in target}
    found, all_found, others = Counter(), 0, 0
    for _ in range(args.trials):
        v = trial(crits, truth, spread, counts, args.between, cfg, rng)
        hits = [c.id for c in target if v[c.id] == rule.WORSE]
        found.update(hits)
        all_found += len(hits) == len(target)
        others += sum(1 for cid, x in v.items() if x == rule.WORSE and cid not in truth)
    rates = [found[c.id] for c in target]
    print(f"a {args.percent:g} % regression in {', '.join(suites)} ({len(target)} criteria): every one found worse "
          f"in {all_found}/{args.trials} runs; per criterion found in {min(rates, default=0)}-{max(rates, default=0)}"
          f"/{args.trials} (median {sorted(rates)[len(rates) // 2] if rates else 0}); a `worse` elsewhere "
          f"{others} times")  # fmt: skip
    for c in sorted(target, key=lambda c: found[c.id])[:6]:
        if found[c.id] < args.trials:
            print(f"  found {found[c.id]}/{args.trials}: {c.id} (values per run {counts[c.id]}, sim sd "
                  f"{spread.of(c) * 100:.2f} %)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
