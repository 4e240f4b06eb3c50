"""Benchmark: the gate's own overhead per LAVA job (render the job, submit it, fetch its log and results, parse the
outputs back) against the job's time (submit to Finished), on a real LAVA started here (tests/lavalab.py: Debian 12's
LAVA 2023.01, a QEMU arm64 device booting the QEMU board's kernel and initramfs).

    python benchmarks/lava_overhead.py [--jobs 2] [--suite openssl]

Each job runs the suite's planned commands for qemu_arm64 (its workload's plan(), as the gate's first job does).
Fetch is timed once the job has finished (the whole log and the results, as after a run); the incremental log
polls while the job runs overlap the job and are reported apart. Prints one line per job and the median overhead
share; exit status 1 when the median overhead is not under TARGET (2 %) of the job's time. Needs root and
setup.sh's LAVA packages.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from lavalab import TOKEN_ENV, LavaLab, missing
from perfgate import boards, criteria
from perfgate.board.lab import board_profile, load
from perfgate.lava import log as joblog
from perfgate.lava import settings as lava_settings
from perfgate.lava.client import Client
from perfgate.lava.plan import planned
from perfgate.lava.session import Session

TARGET = 0.02
BOARD = "qemu_arm64"


def one_job(sess: Session, client: Client, commands: list, suite: str) -> dict[str, float]:
    t0 = time.monotonic()
    sess.start(commands)
    wall = time.monotonic() - t0
    rec = sess.jobs[-1]
    f0 = time.monotonic()
    _finished, entries = client.logs(rec.id, 0)
    client.results(rec.id)
    f1 = time.monotonic()
    token = next(
        (line.split(":")[1] for line in joblog.lines(entries) if line.startswith("<<PERFGATE:")), ""
    )  # the job's nonce, as its first marker shows it
    joblog.outputs(entries, token)
    f2 = time.monotonic()
    job_time = (rec.finished or time.monotonic()) - rec.submitted
    o = rec.overhead
    return {"job": rec.id, "job_s": job_time, "wall_s": wall, "render_s": o["render"], "submit_s": o["submit"],
            "fetch_s": f1 - f0, "parse_s": f2 - f1, "polls_s": o.get("fetch", 0.0), "lines": len(entries),
            "health": rec.health}  # type: ignore[dict-item]  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--suite", default="openssl")
    args = ap.parse_args()
    reason = missing()
    if reason:
        print(f"lava_overhead: cannot run: {reason}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="perfgate-lava-bench-") as tmp:
        lava = LavaLab(Path(tmp) / "lava").start()
        try:
            import os

            os.environ[TOKEN_ENV] = lava.token
            lab = load(str(lava.lab_file(Path(tmp))), BOARD)
            s = lava_settings.settings(lab)
            client = Client(s)
            profile = board_profile(boards.resolve(BOARD), lab)
            crit_dir = Path(tmp) / "criteria"
            crit_dir.mkdir()
            criteria.write(crit_dir / f"{args.suite}.csv", criteria.load(BOARD, args.suite))
            commands, _notes = planned([args.suite], crit_dir, profile, {**lab.data, "name": lab.name})
            rows = []
            for _ in range(args.jobs):
                sess = Session(s, client, board=BOARD, say=lambda _m: None)
                rows.append(one_job(sess, client, commands, args.suite))
        finally:
            lava.stop()
    shares = []
    for r in rows:
        own = r["render_s"] + r["submit_s"] + r["fetch_s"] + r["parse_s"]
        shares.append(own / r["job_s"])
        print(f"job {r['job']} ({r['health']}, {len(commands)} commands, {r['lines']} log lines): "
              f"job {r['job_s']:.1f} s; "
              f"gate: render {r['render_s'] * 1000:.1f} ms, submit {r['submit_s'] * 1000:.1f} ms, fetch "
              f"{r['fetch_s'] * 1000:.1f} ms, parse {r['parse_s'] * 1000:.1f} ms = {own * 1000:.0f} ms "
              f"({own / r['job_s']:.2%} of the job); log polls while it ran {r['polls_s']:.2f} s")  # fmt: skip
    median = statistics.median(shares)
    print(f"median gate overhead: {median:.2%} of the job's time (target under {TARGET:.0%})")
    return 0 if median < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
