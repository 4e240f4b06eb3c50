"""Benchmark: what the gate itself costs per criterion on the System Benchmarks suites, against the simulated board.

    python benchmarks/gate_overhead.py [--board am62xx_sk] [--runs 1] [--keep DIR]

Runs `robot -v BOARD:<board> -i system suites/` (a subprocess, results in a temporary directory) and reads back:
- the wall time of the whole run, and of the eight system suites (output.xml: suite elapsed times, setup included;
  the board's bring-up by suites/__init__.robot is not part of them);
- the time the board spent on the workloads' commands (results/virtual/<board>/<run>/raw/<suite>/index.tsv: each
  command's elapsed time as the gate measured it, SSH round trip included);
- the gate's overhead = system suites' time - commands' time, per criterion (DataDriver's test generation, parsing,
  matching, judging, the per-test keyword, the listener's metrics.json and evidence files).

Targets: overhead <= 20 ms per criterion; all system suites <= 30 s. Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robot.api import ExecutionResult

ROOT = Path(__file__).resolve().parents[1]
SYSTEM = ["lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark_pro", "multibench"]
MAX_OVERHEAD_MS = 20.0
MAX_SUITES_S = 30.0


def one_run(board: str, workdir: Path) -> dict:
    env = {**os.environ, "PERFGATE_RESULTS": str(workdir / "results")}
    out = workdir / "robot"
    argv = [sys.executable, "-m", "robot", "--outputdir", str(out), "--console", "none", "-v", f"BOARD:{board}",
            "-i", "system", str(ROOT / "suites")]  # fmt: skip
    started = time.monotonic()
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    wall = time.monotonic() - started
    result = ExecutionResult(str(out / "output.xml"))
    suites: dict[str, float] = {}
    tests = passed = 0

    def walk(suite) -> None:
        nonlocal tests, passed
        name = suite.name.lower().replace(" ", "_")
        if name in SYSTEM:
            suites[name] = suite.elapsed_time.total_seconds()
            tests += len(suite.tests)
            passed += sum(t.status == "PASS" for t in suite.tests)
        for s in suite.suites:
            walk(s)

    walk(result.suite)
    runs = sorted((workdir / "results" / "virtual" / board).glob("2*"))
    commands = 0.0
    n_commands = 0
    for suite in SYSTEM:
        index = runs[-1] / "raw" / suite / "index.tsv" if runs else None
        if index and index.exists():
            for line in index.read_text(encoding="utf-8").splitlines():
                commands += float(line.split("\t")[2])
                n_commands += 1
    suites_s = sum(suites.values())
    overhead_ms = (suites_s - commands) / tests * 1000 if tests else float("nan")
    return {"board": board, "rc": p.returncode, "wall_s": wall, "suites_s": suites_s, "commands_s": commands,
            "commands": n_commands, "tests": tests, "passed": passed, "overhead_ms_per_criterion": overhead_ms,
            "per_suite_s": suites}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="am62xx_sk")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="keep the runs' files in this directory")
    ap.add_argument("--json", action="store_true", help="print the measurements as JSON")
    args = ap.parse_args(argv)
    results = []
    for i in range(args.runs):
        if args.keep:
            d = args.keep / f"run-{i + 1}"
            d.mkdir(parents=True, exist_ok=True)
            results.append(one_run(args.board, d))
        else:
            with tempfile.TemporaryDirectory(prefix="perfgate-bench-") as tmp:
                results.append(one_run(args.board, Path(tmp)))
    overhead = statistics.median(r["overhead_ms_per_criterion"] for r in results)
    suites_s = statistics.median(r["suites_s"] for r in results)
    if args.json:
        print(json.dumps({"runs": results, "overhead_ms_per_criterion": overhead, "suites_s": suites_s}, indent=2))
    else:
        for r in results:
            print(
                f"{r['board']}: {r['tests']} tests ({r['passed']} passed), robot rc {r['rc']}; whole run "
                f"{r['wall_s']:.1f} s; system suites {r['suites_s']:.2f} s, of which {r['commands']} board commands "
                f"{r['commands_s']:.2f} s; gate overhead {r['overhead_ms_per_criterion']:.1f} ms per criterion"
            )
            for suite, s in r["per_suite_s"].items():
                print(f"    {suite:<13} {s:6.2f} s")
        print(
            f"median of {len(results)}: overhead {overhead:.1f} ms/criterion (target <= {MAX_OVERHEAD_MS:g}), "
            f"system suites {suites_s:.1f} s (target <= {MAX_SUITES_S:g})"
        )
    ok = overhead <= MAX_OVERHEAD_MS and suites_s <= MAX_SUITES_S and all(r["tests"] for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
