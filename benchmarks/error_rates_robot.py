"""Benchmark: the gate's own error rates measured end to end, by robot against the simulated board.

benchmarks/error_rates.py draws values with the sim's noise model in-process, for whole boards in seconds. This
script checks it the long way: each sample is a real `robot suites/` run against the simulated board (its noise
regime, `--regime`, realistic by default), the sim's tools printing their output, the parsers reading it over SSH and
the gate's verdict deciding (the budget, boots, the median, INCONCLUSIVE at its default, fail).

Reported, for the chosen suites of one board:
- the gate's verdict (run.json) of each undegraded run: how many pass; false FAILs; runs with an inconclusive one;
- detection: a 15 % regression injected (`-v FAULTS:degrade:<id>:15`) into one criterion whose stated detectable
  regression is at most 15 % (as error_rates.py states it), drawn at random: how often the gate fails and how often
  that criterion reads FAIL (not inconclusive);
- command runs (raw/*/index.tsv) against one run of every command;
- each noise class's run-to-run spread measured from the runs' own samples, beside its figure in noise.yaml.

    python benchmarks/error_rates_robot.py [--board am62xx_sk] [--suites all] [--runs 10] [--degraded 20]
                                           [--regime realistic] [--seed 1]

Exits 1 when no run judged a criterion (a benchmark that measured nothing has no figure to give).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perfgate import criteria
from perfgate.decision.tolerance import Policy

ROOT = Path(__file__).resolve().parents[1]
REGRESSION = 15.0  # percent


def gate(out: Path, board: str, suites: list[str], seed: int, regime: str, spread: float | None,
         faults: str = "") -> tuple[list, dict]:  # fmt: skip
    """One robot run against the sim; metrics.json's entries and run.json (empty when the run left none)."""
    argv = [sys.executable, "-m", "robot", "--outputdir", str(out / "robot"), "--console", "none"]
    variables = [f"BOARD:{board}", f"SIM_NOISE:{regime}", f"SIM_SEED:{seed}", "INCONCLUSIVE:fail"]
    for variable in variables + ([f"SIM_SPREAD:{spread:g}"] if spread is not None else []):
        argv += ["-v", variable]
    if faults:
        argv += ["-v", f"FAULTS:{faults}"]
    for s in suites:
        argv += ["--suite", s]
    env = {**os.environ, "PERFGATE_RESULTS": str(out / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    subprocess.run([*argv, str(ROOT / "suites")], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    found = sorted((out / "results").glob("*/*/*/metrics.json"))
    if not found:
        return [], {}
    meta = json.loads((found[-1].parent / "run.json").read_text(encoding="utf-8"))
    return json.loads(found[-1].read_text(encoding="utf-8")), meta


def command_runs(out: Path) -> int:
    """How many commands the run ran on the board (every line of every suite's raw/index.tsv)."""
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (out / "results").glob("*/*/*/raw/*/index.tsv"))


def stated_detectable(board: str) -> dict[str, float]:
    """Each criterion's detectable regression (%), as benchmarks/error_rates.py states it before any run."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import error_rates

    from perfgate.decision import budget, sequential
    from perfgate.decision.judge import Judge

    model, plan_budget, policy = sequential.load(), budget.load(), Policy.load()
    b = error_rates.load_board(board, plan_budget, 3)
    model = model.for_board(b.crits, b.arte)  # as perfgate.run.session.Session.judge does
    judge = Judge(policy, model, {}, "median", plan_budget, judged=len(b.crits), artefacts=b.arte)
    judge.allocate({s: (cs, b.commands[s], 3) for s, cs in b.suites.items()})
    b.own = judge.own
    return {cid: det for cid, (_, det) in error_rates.stated(b, policy, model, plan_budget).items()}


# Rows shared/reference/noise.md leaves out of its class medians ("Cells that are not a spread"): their spread is
# compared with the sim's own for them, not with the class figure
QUANTISED = ("dhrystone", "whetstone")  # tick-quantised: every value is 1e8/k or 2e8/k for k timer ticks


def printed_step(values: list[float]) -> float:
    """The relative step a row's values are printed in (lmbench prints lat_ops to 0.01 ns: 2 % of 0.48 ns): the
    last decimal any of them carries, over their median."""
    decimals = max((len(repr(v).split(".")[1].rstrip("0")) if "." in repr(v) and "e" not in repr(v) else 0)
                   for v in values)  # fmt: skip
    middle = sorted(values)[len(values) // 2]
    return 10.0**-decimals / middle if middle > 0 else 0.0


def jump_variance(jumps: float) -> float:
    """The variance a maximum's jumps (1.3-2x worse with chance `jumps` a run: perfgate.sim.values) add to its log."""
    from perfgate.sim.values import JUMP

    low, high = JUMP
    logs = [math.log(low + (high - low) * (i + 0.5) / 1000) for i in range(1000)]  # log of a uniform jump
    mean, square = sum(logs) / len(logs), sum(x * x for x in logs) / len(logs)
    return jumps * square - (jumps * mean) ** 2


def print_spreads(board: str, runs: list[list[dict]], regime: str = "realistic") -> None:
    """Each noise class's run-to-run spread as the runs' own samples show it (each run a fresh boot: its first sample
    of every criterion), the median over the class's rows of the sd of the logs, beside the class's figure in
    variables/noise.yaml (shared/reference/noise.md's median) and beside the median of what the simulated board sets
    for those rows (perfgate.sim.spread): their ratios. As noise.md reads its figures: a boot-time value, the mean of
    its boot cycles, counts as one boot's spread (times the root of their count); the rows noise.md leaves out of its
    medians (tick-quantised Dhrystone and Whetstone, artefact ranges, two-mode rows) are shown apart. A row printed
    coarsely (lat_ops to 0.01 ns) has the rounding's variance, step^2 / 12, taken out of its spread (Sheppard's
    correction); a maximum's jumps count in what the sim sets."""
    import statistics

    from perfgate import boards
    from perfgate.decision import sequential
    from perfgate.sim import spread as sim_spread
    from perfgate.workloads import boot_time

    model = sequential.load()
    published = criteria.select(board, None).criteria
    by_id = {c.id: c for c in published}
    sim = sim_spread.load(regime=regime).excluding(list(published))
    profile = boards.profile(board)
    firsts: dict[str, list[float]] = {}
    for entries in runs:
        for e in entries:
            samples = [v for v in (e.get("samples") or []) if isinstance(v, int | float) and v > 0]
            if samples and e["id"] in by_id and by_id[e["id"]].direction != "match":
                firsts.setdefault(e["id"], []).append(float(samples[0]))
    per_class: dict[str, list[float]] = {}
    intended: dict[str, list[float]] = {}
    apart: dict[str, list[tuple[float, float]]] = {}  # why -> (measured, the sim's) per row
    for cid, values in firsts.items():
        if len(values) < 2:
            continue
        c = by_id[cid]
        name = model.class_of(c).name
        row = sim.row(c)
        # a boot-time value is the mean of its boot cycles (workloads.boot_time.cycles): one boot's spread is the
        # root of their count times the mean's
        cycles = max(boot_time.cycles([c], profile, {}) if c.suite == "boot_time" else 1, 1)
        rounding = printed_step(values) ** 2 / 12  # Sheppard's correction
        spread = statistics.variance(math.log(v) for v in values)
        measured = math.sqrt(max(spread - rounding, 0.0)) * math.sqrt(cycles)
        modes = math.log(row.modes[1] / row.modes[0]) / 2 if row.modes else 0.0  # a boot takes one of its modes
        meant = math.sqrt(row.sd**2 + modes**2 + jump_variance(row.jumps))
        why = ("two modes" if row.modes else "tick-quantised" if c.suite in QUANTISED
               else "artefact range" if cid in sim.artefacts else "")  # fmt: skip
        if why:
            apart.setdefault(f"{name}, {why}", []).append((measured, meant))
            continue
        per_class.setdefault(name, []).append(measured)
        intended.setdefault(name, []).append(meant)
    print(
        f"run-to-run spread by noise class, from {len(runs)} runs' own first samples (median over rows; boot time per "
        "boot; less the rounding of the printed figures), against the class figure (noise.md's median, without a "
        "maximum's jumps) and against what the sim sets for those rows (with them):"
    )
    for name, sds in sorted(per_class.items(), key=lambda kv: -len(kv[1])):
        k = next((x for x in model.classes if x.name == name), model.default)
        median, meant = statistics.median(sds), statistics.median(intended[name])
        print(f"  {name:20s} {len(sds):4d} rows: {median * 100:6.2f}%  class figure {k.sd * 100:5.2f}% "
              f"(ratio {median / k.sd:.2f})  the sim's rows {meant * 100:6.2f}% "
              f"(ratio {median / meant:.2f})")  # fmt: skip
    print("rows noise.md leaves out of its class figures, against what the sim sets for them:")
    for why, pairs in sorted(apart.items()):
        median, meant = statistics.median(m for m, _ in pairs), statistics.median(s for _, s in pairs)
        print(f"  {why:36s} {len(pairs):4d} rows: {median * 100:6.2f}%  the sim's rows {meant * 100:6.2f}% "
              f"(ratio {median / meant:.2f})")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="am62xx_sk")
    ap.add_argument("--suites", default="all",
                    help="comma-separated suites, or `all` (every suite the board publishes numbers for)")  # fmt: skip
    ap.add_argument("--runs", type=int, default=20, help="undegraded runs")
    ap.add_argument("--degraded", type=int, default=20, help="runs with one criterion regressed by 15 %%")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--regime", default="realistic", help="SIM_NOISE: quiet, realistic (default), published or harsh")
    ap.add_argument("--spread", type=float, default=None, help="SIM_SPREAD: a cap on every row's sd")
    ap.add_argument("--save", default="", help="write the healthy runs' metrics.json entries to this file")
    ap.add_argument("--spreads-of", default="", help="only print the class spreads of runs saved with --save")
    args = ap.parse_args()
    if args.spreads_of:
        saved = json.loads(Path(args.spreads_of).read_text(encoding="utf-8"))
        print_spreads(saved["board"], saved["runs"], saved["regime"])
        return 0
    published = list(criteria.select(args.board, None).criteria)
    suites = [s.strip() for s in args.suites.split(",") if s.strip()]
    if suites == ["all"]:
        suites = sorted({c.suite for c in published})
    crits = [c for c in published if c.suite in suites]
    if not crits:
        print(f"error: {args.board} publishes no criterion in {', '.join(suites)}: nothing to measure", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    started = time.monotonic()
    judged = 0
    with tempfile.TemporaryDirectory(prefix="perfgate-error-rates-", ignore_cleanup_errors=True) as tmp:
        false_fail = inconclusive_runs = gate_passes = commands = 0
        runs: list[list[dict]] = []
        failed: dict[str, int] = {}
        undecided: dict[str, int] = {}
        unmeasured: dict[str, str] = {}  # criteria the gate cannot measure on this board: apart
        for i in range(args.runs):
            out = Path(tmp) / f"clean{i}"
            entries, meta = gate(out, args.board, suites, args.seed * 1000 + i, args.regime, args.spread)
            runs.append(entries)
            judged += sum(e["verdict"] in ("pass", "warn", "fail", "inconclusive") for e in entries)
            false_fail += any(e["verdict"] == "fail" for e in entries)
            gate_passes += meta.get("verdict") == "pass"
            for e in entries:
                if e["verdict"] == "fail":
                    failed[e["id"]] = failed.get(e["id"], 0) + 1
                elif e["verdict"] == "inconclusive":
                    undecided[e["id"]] = undecided.get(e["id"], 0) + 1
                elif e["verdict"] == "not-measured":
                    unmeasured[e["id"]] = e["message"]
            inconclusive_runs += any(e["verdict"] == "inconclusive" for e in entries)
            commands += command_runs(out)
            counts = {v: sum(e["verdict"] == v for e in entries) for v in ("pass", "warn", "fail", "inconclusive")}
            print(f"run {i + 1}: verdict {meta.get('verdict')}, {counts}, {command_runs(out)} commands",
                  file=sys.stderr, flush=True)  # fmt: skip
        # a regression of 15 % must be able to show: not a 0.00 published value, nor one whose absolute slack
        # (printed precision, a percentage point) dwarfs it
        detectable = stated_detectable(args.board)
        targets = [c for c in crits if c.id not in unmeasured and c.direction in ("higher", "lower") and c.value
                   and detectable.get(c.id, 100.0) <= REGRESSION]  # fmt: skip
        caught = gate_failed = tried = 0
        while tried < args.degraded and targets:
            target = rng.choice(targets)
            out, fault = Path(tmp) / f"degraded{tried}-{len(unmeasured)}", f"degrade:{target.id}:{REGRESSION:g}"
            entries, meta = gate(out, args.board, [target.suite], args.seed * 2000 + tried, args.regime, args.spread,
                                 fault)  # fmt: skip
            verdict = next((e["verdict"] for e in entries if e["id"] == target.id), "missing")
            if verdict in ("missing", "not-measured", "skip"):  # the gate cannot measure it here: draw another
                unmeasured[target.id] = f"{verdict} in a degraded run"
                targets.remove(target)
                continue
            tried += 1
            judged += 1
            caught += verdict == "fail"
            gate_failed += meta.get("verdict") != "pass"
            print(f"degraded {tried}: {target.id} {verdict}, gate {meta.get('verdict')}", file=sys.stderr, flush=True)
    if not judged:
        print("error: no run judged a criterion: nothing was measured", file=sys.stderr)
        return 1
    print(f"board {args.board}, suites {', '.join(suites)}: {len(crits)} criteria, robot against the sim with "
          f"SIM_NOISE:{args.regime}, INCONCLUSIVE:fail; {time.monotonic() - started:.0f} s")  # fmt: skip
    if args.save:
        Path(args.save).write_text(json.dumps({"board": args.board, "regime": args.regime, "runs": runs}),
                                   encoding="utf-8")  # fmt: skip
    if len(runs) >= 2:
        print_spreads(args.board, runs, args.regime)
    print(f"undegraded: the gate passes {gate_passes}/{args.runs}; {false_fail}/{args.runs} runs with a false FAIL, "
          f"{inconclusive_runs}/{args.runs} with an inconclusive criterion; {commands} command runs")  # fmt: skip
    for cid, n in sorted(failed.items(), key=lambda x: -x[1]):
        print(f"  false FAIL {n}x {cid}")
    for cid, n in sorted(undecided.items(), key=lambda x: -x[1]):
        print(f"  inconclusive {n}x {cid}")
    if unmeasured:
        print(f"not measured (the gate cannot measure them here; they fail every run): {len(unmeasured)}")
        for cid, why in sorted(unmeasured.items()):
            print(f"  {cid}: {why[:160]}")
    if tried:
        print(
            f"a {REGRESSION:g} % regression in one of the {len(targets)} criteria whose detectable regression is at "
            f"most {REGRESSION:g} %: the gate fails {gate_failed}/{tried}, the criterion reads FAIL {caught}/{tried}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
