"""Benchmark of the QEMU arm64 board (issue 7): image build from scratch, QEMU start to login, the whole gate, and
the gate's own overhead.

    python benchmarks/qemu_board.py [--build] [--boots 3] [--gate] [--json FILE]

--build   builds the image from scratch into a scratch folder (fresh apt lists, downloads, static fio, initramfs,
          dtb), leaving build/qemu/ alone. Target ≤ 180 s.
--boots N starts the board process N times and times power-on → `login:` on its serial console (QEMU start,
          U-Boot autoboot, kernel, busybox getty), then SSH ready. Target ≤ 10 s (median).
--gate    runs `robot -v BOARD:qemu_arm64 -v LAB:qemu suites/` once and reports its wall time (target ≤ 120 s) and
          the gate's own overhead: wall time minus the time the workloads' commands took on the board (the
          run's raw/*/index.tsv), as a share of the run.
Exit status 1 when a measured figure misses its target.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import paramiko

from perfgate import paths
from perfgate.qemu import image, supervisor

TARGETS = {"build_s": 180.0, "login_s": 10.0, "gate_s": 120.0}


def bench_build() -> float:
    with tempfile.TemporaryDirectory(prefix="perfgate-qemu-build-") as tmp:
        t = time.monotonic()
        image.build(force=True, say=lambda m: print(f"  build: {m}", flush=True), out=Path(tmp) / "qemu")
        return time.monotonic() - t


def wait_for_banner(port: int, deadline: float) -> None:
    """Until dropbear answers with its banner (QEMU accepts the forwarded port before the guest listens)."""
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.settimeout(2)
                if s.recv(64).startswith(b"SSH-"):
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"no SSH banner on 127.0.0.1:{port}")
        time.sleep(0.2)


def bench_boot(tmp: Path, n: int) -> dict:
    logins, sshs = [], []
    for i in range(n):
        state_file = tmp / f"boot-{i}.json"
        state = supervisor.start(supervisor.Options(state=state_file, power="off", watch_pid=os.getpid()))
        host, port = state["serial"].removeprefix("socket://").split(":")
        try:
            with socket.create_connection((host, int(port))) as con:
                t0 = time.monotonic()
                supervisor.power(state_file, "on")
                seen = b""
                con.settimeout(30)
                while b"login: " not in seen:
                    data = con.recv(65536)
                    if not data:
                        raise SystemExit(f"console closed; last output {seen[-300:]!r}")
                    seen += data
                login = time.monotonic() - t0
                wait_for_banner(state["ssh_port"], t0 + 60)
                ssh = paramiko.SSHClient()
                ssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())
                ssh.connect("127.0.0.1", port=state["ssh_port"], username="root", key_filename=str(image.current().key),
                            look_for_keys=False, allow_agent=False, timeout=10, banner_timeout=10)  # fmt: skip
                ssh_ready = time.monotonic() - t0
                ssh.close()
        finally:
            supervisor.stop(state_file)
        logins.append(login)
        sshs.append(ssh_ready)
        print(f"  boot {i + 1}: power on → login: {login:.2f} s, → SSH: {ssh_ready:.2f} s", flush=True)
    return {"login_s": statistics.median(logins), "ssh_s": statistics.median(sshs), "logins": logins}


def bench_gate(tmp: Path) -> dict:
    results = paths.board_results("qemu_arm64", virtual=True)
    before = {d for d in results.iterdir()} if results.is_dir() else set()
    cmd = [sys.executable, "-m", "robot", "-v", "BOARD:qemu_arm64", "-v", "LAB:qemu", "--outputdir", str(tmp / "gate"),
           "--console", "dotted", str(paths.root() / "suites")]  # fmt: skip
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.monotonic() - t
    new = sorted(d for d in (set(results.iterdir()) - before) if d.is_dir())
    if not new:
        raise SystemExit(f"the gate left no run directory; its output:\n{p.stdout[-2000:]}")
    run = new[-1]
    workloads = 0.0
    for index in run.glob("raw/*/index.tsv"):
        for line in index.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if len(parts) >= 3:
                workloads += float(parts[2])
    summary = re.search(r"(\d+) tests?, (\d+) passed, (\d+) failed", p.stdout)
    return {
        "gate_s": wall,
        "workloads_s": workloads,
        "overhead_s": wall - workloads,
        "overhead_share": (wall - workloads) / wall,
        "robot": summary.group(0) if summary else p.stdout[-300:],
        "run": str(run),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--boots", type=int, default=0)
    ap.add_argument("--gate", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if not (args.build or args.boots or args.gate):
        args.build, args.boots, args.gate = True, 3, True
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="perfgate-qemu-bench-") as tmp:
        if args.build:
            out["build_s"] = bench_build()
            print(f"image build from scratch: {out['build_s']:.1f} s (target ≤ {TARGETS['build_s']:g} s)")
        if args.boots:
            out.update(bench_boot(Path(tmp), args.boots))
            print(f"QEMU start → login (median of {args.boots}): {out['login_s']:.2f} s "
                  f"(target ≤ {TARGETS['login_s']:g} s); → SSH ready {out['ssh_s']:.2f} s")  # fmt: skip
        if args.gate:
            out.update(bench_gate(Path(tmp)))
            print(f"whole gate: {out['gate_s']:.1f} s (target ≤ {TARGETS['gate_s']:g} s), {out['robot']}; "
                  f"workloads {out['workloads_s']:.1f} s, gate overhead {out['overhead_s']:.1f} s "
                  f"= {out['overhead_share'] * 100:.0f} % of the run")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    if "gate_s" in out and not (out["workloads_s"] > 0 and re.search(r"[1-9]\d* passed", out["robot"])):
        print(f"NOTHING MEASURED: the gate ran no workload or passed no test ({out['robot']})")
        return 1
    missed = [k for k, limit in TARGETS.items() if k in out and out[k] > limit]
    for k in missed:
        print(f"MISSED: {k} = {out[k]:.1f} > {TARGETS[k]:g}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
