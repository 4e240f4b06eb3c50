"""Benchmark: N simulated boards gated at once through a real labgrid coordinator with pabot, against one board.

    python benchmarks/farm.py [--places 4] [--counts 1,2,4] [--suite dhrystone] [--runs 1] [--keep DIR]

Starts the farm of tests/farm.py on 127.0.0.1 (simulated boards, a rest PDU, `labgrid-coordinator`, `labgrid-exporter`
exporting each board's console through ser2net, one place per board tagged board=am62xx_sk rack=sim), then for each N
runs `pabot --processes N` with N argument files (one gate per process, each reserving its own place by tag) on one
suite and reads the merged output.xml back: wall time of the pabot run, each gate's place (the suite metadata
`Labgrid Place`), passed/failed criteria. Every gate powers its board through labgrid and reads it over ser2net.

Target: N = 2 takes at most 1.3 x the time of N = 1. Exit 1 when a run measured nothing (a gate failed, no criterion
passed, a place was used twice in one run) or the target is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robot.api import ExecutionResult

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from farm import Rig  # noqa: E402

BOARD = "am62xx_sk"
TARGET_N2 = 1.3


def gate_many(rig: Rig, workdir: Path, n: int, suite: str) -> dict:
    workdir.mkdir(parents=True, exist_ok=True)
    lab = rig.lab_file(workdir / "lab.yaml", tags={"board": "{board}", "rack": "sim"}, wait=300)
    argv = [sys.executable, "-m", "pabot.pabot", "--no-pabotlib", "--processes", str(n)]
    for i in range(1, n + 1):
        args = workdir / f"gate{i}.args"
        args.write_text(f"--name gate{i}\n--variable BOARD:{BOARD}\n--variable LAB:{lab}\n", encoding="utf-8")
        argv += [f"--argumentfile{i}", str(args)]
    out = workdir / "out"
    argv += ["--outputdir", str(out), "--suite", suite, str(ROOT / "suites")]
    env = {**os.environ, "PERFGATE_RESULTS": str(workdir / "results"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}  # fmt: skip
    started = time.monotonic()
    p = subprocess.run(argv, cwd=workdir, env=env, capture_output=True, text=True, timeout=1800, check=False)
    wall = time.monotonic() - started
    if not (out / "output.xml").exists():
        return {"n": n, "wall": wall, "error": f"pabot wrote no output.xml (exit {p.returncode}): {p.stdout[-800:]}"}
    merged = ExecutionResult(str(out / "output.xml")).suite
    gates = [{"name": s.name, "place": s.metadata.get("Labgrid Place", "?").split(" ")[0],
              "seconds": s.elapsed_time.total_seconds(), "passed": s.statistics.passed,
              "failed": s.statistics.failed} for s in (merged.suites if n > 1 else [merged])]  # fmt: skip
    return {"n": n, "wall": wall, "exit": p.returncode, "gates": gates}


def problems(run: dict) -> list[str]:
    if "error" in run:
        return [run["error"]]
    out = []
    gates = run["gates"]
    if len(gates) != run["n"]:
        out.append(f"{len(gates)} gates in the merged report, not {run['n']}")
    out += [f"{g['name']} on {g['place']}: {g['failed']} failed" for g in gates if g["failed"]]
    out += [f"{g['name']} on {g['place']}: nothing passed" for g in gates if not g["passed"]]
    places = [g["place"] for g in gates]
    out += [f"{g['name']}: no Labgrid Place in the report" for g in gates if g["place"] == "?"]
    if len(set(places)) != len(places):
        out.append(f"a place was used by two gates at once: {places}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--places", type=int, default=4, help="simulated boards (places) on the farm")
    ap.add_argument("--counts", default="1,2,4", help="numbers of boards gated at once")
    ap.add_argument("--suite", default="dhrystone", help="the suite each gate runs")
    ap.add_argument("--runs", type=int, default=1, help="runs per count (the median is reported)")
    ap.add_argument("--keep", type=Path, help="keep the work directory here")
    args = ap.parse_args()
    if args.runs < 1:
        print("--runs must be 1 or more", file=sys.stderr)
        return 2
    try:
        counts = [int(c) for c in args.counts.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        print(f"--counts {args.counts!r}: give numbers of boards, 1 or more, e.g. 1,2,4", file=sys.stderr)
        return 2
    if max(counts) > args.places:
        print(f"--counts {args.counts}: more gates than the {args.places} places", file=sys.stderr)
        return 2
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="perfgate-farm-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    rig = Rig(workdir / "rig", [BOARD] * args.places)
    (workdir / "rig").mkdir(exist_ok=True)
    rig.start()
    print(f"farm: {args.places} simulated places on labgrid coordinator {rig.coordinator} "
          f"(started in {time.monotonic() - started:.1f} s); suite {args.suite}; cores {os.cpu_count()}")  # fmt: skip
    failures: list[str] = []
    walls: dict[int, float] = {}
    try:
        for n in counts:
            times = []
            for r in range(args.runs):
                run = gate_many(rig, workdir / f"n{n}-run{r + 1}", n, args.suite)
                bad = problems(run)
                failures += [f"N={n} run {r + 1}: {b}" for b in bad]
                times.append(run["wall"])
                gates = ", ".join(f"{g['name']}@{g['place']} {g['seconds']:.1f} s {g['passed']}/"
                                  f"{g['passed'] + g['failed']}" for g in run.get("gates", []))  # fmt: skip
                failed = f" FAILED: {'; '.join(bad)}" if bad else ""
                print(f"N={n} run {r + 1}: wall {run['wall']:.1f} s; {gates}{failed}")
            walls[n] = statistics.median(times)
    finally:
        left = rig.close()
        if left:
            failures.append(f"the farm left processes or ports behind: {left}")
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    base = walls.get(1)
    print("\nN  wall (s)  x one board")
    for n, wall in walls.items():
        print(f"{n:<2} {wall:8.1f}  {wall / base:.2f}" if base else f"{n:<2} {wall:8.1f}")
    if base and 2 in walls:
        ratio = walls[2] / base
        verdict = "met" if ratio <= TARGET_N2 else "MISSED"
        print(f"target N=2 <= {TARGET_N2} x one board: {ratio:.2f} ({verdict})")
        if ratio > TARGET_N2:
            failures.append(f"N=2 took {ratio:.2f} x one board (target {TARGET_N2})")
    for f in failures:
        print(f"benchmark: {f}", file=sys.stderr)
    if not walls or any(f.startswith("N=") and " run " in f for f in failures):
        print("NOTHING MEASURED: a gate failed or judged nothing (above); its time is not a farm figure")
    return 1 if failures or not walls else 0


if __name__ == "__main__":
    sys.exit(main())
