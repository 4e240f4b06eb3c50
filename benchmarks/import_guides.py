"""Benchmark: importing every guide (the five in guides/ and the ten in guides/current/: read,
build criteria, render threshold files) must take under 2 s.

    python benchmarks/import_guides.py [--repeat N]

Prints the in-process time (best and median of N runs, modules already loaded) and the wall time of one cold
`python -m perfgate import --check` (interpreter start, imports, comparison with the committed files).
Exits 1 when either is 2 s or more, and when it measured nothing: no guide found, no criterion imported, or the
cold import failing (a fast failure is not a fast import).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from perfgate.guides.importer import Importer, guide_files, render_files

LIMIT_S = 2.0


def in_process(repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        imports = Importer().run(guide_files())
        render_files(imports)
        times.append(time.perf_counter() - start)
    return times


def cold_cli() -> tuple[float, int]:
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "perfgate", "import", "--check", "--quiet"], capture_output=True,
                       text=True, timeout=60, check=False)  # fmt: skip
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        print(r.stderr, file=sys.stderr)
    return elapsed, r.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    guides = guide_files()
    if not guides:
        print("NOTHING MEASURED: no guide found (perfgate.paths.guides(), PERFGATE_GUIDES)", file=sys.stderr)
        return 1
    times = in_process(max(1, args.repeat))
    n = sum(len(gi.criteria) for gi in Importer().run(guides))
    cli, rc = cold_cli()
    print(f"{len(guides)} guides, {n} criteria")
    print(f"in process: best {min(times):.3f} s, median {statistics.median(times):.3f} s over {len(times)} runs")
    print(f"cold `python -m perfgate import --check`: {cli:.3f} s (exit {rc})")
    if n == 0 or rc != 0:
        print("NOTHING MEASURED: " + ("no criterion imported" if n == 0 else f"the import exited {rc}"))
        return 1
    ok = max(statistics.median(times), cli) < LIMIT_S
    print("OK: under 2 s" if ok else "TOO SLOW: 2 s or more")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
