"""Benchmark: perfgate.baseline.changes against Apache Otava itself, on the same series.

apache-otava cannot be installed beside this project (README, "Where a change began"), but its algorithm modules run
on this project's numpy and scipy: download its wheel without dependencies and unpack it, then point --otava at it.

    pip download apache-otava==0.8.0 --no-deps -d /tmp/otava && unzip -q /tmp/otava/*.whl -d /tmp/otava/x
    python benchmarks/otava_agreement.py --otava /tmp/otava/x [--series 200] [--runs 40] [--step-at 23]

Each series is `--runs` values with 1 % noise; every other one has a 5 % step down at run `--step-at`. Reported: the
series on which both give the same change points (and the same p-values), and how often each finds the step at its
run (+-1) and a change in a steady series (max_pvalue 0.001 on one series).
"""

from __future__ import annotations

import argparse
import random
import sys

from perfgate.baseline import changes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--otava", required=True, help="an unpacked apache-otava wheel (the folder holding otava/)")
    ap.add_argument("--series", type=int, default=200)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--step-at", type=int, default=23)
    ap.add_argument("--window", type=int, default=50)
    args = ap.parse_args()
    sys.path.insert(0, args.otava)
    try:
        from otava.analysis import compute_change_points  # type: ignore[import-not-found]
    except ImportError as e:
        print(f"error: no Otava in {args.otava}: {e}", file=sys.stderr)
        return 2
    same, same_p, found, false = 0, 0, [0, 0], [0, 0]
    for s in range(args.series):
        rng, step = random.Random(s), s % 2 == 0
        x = [100 * (0.95 if step and i >= args.step_at else 1) * (1 + rng.gauss(0, 0.01)) for i in range(args.runs)]
        theirs = compute_change_points(x, window_len=args.window, max_pvalue=0.001)[0]
        ours = changes.change_points(x, 0.001, window=args.window)
        at = [[int(c.index) for c in theirs], [c.index for c in ours]]
        if at[0] == at[1]:
            same += 1
            pairs = zip(theirs, ours, strict=True)
            same_p += all(abs(a.stats.pvalue - b.pvalue) <= 1e-9 * max(1, a.stats.pvalue) for a, b in pairs)
        for k in (0, 1):
            if step:
                found[k] += any(abs(i - args.step_at) <= 1 for i in at[k])
            else:
                false[k] += bool(at[k])
    steps, steady = (args.series + 1) // 2, args.series // 2
    print(f"{args.series} series of {args.runs} runs: the same change points {same}/{args.series} (and p-values "
          f"{same_p}); a 5 % step at run {args.step_at} found (+-1): Otava {found[0]}/{steps}, perfgate "
          f"{found[1]}/{steps}; a change in a steady series: Otava {false[0]}/{steady}, perfgate "
          f"{false[1]}/{steady}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
