"""Benchmark: the RFC 2544 26.1 zero-loss search per frame size, at the default resolution (variables/workloads/
network.yaml: ethernet.rfc2544), as the ethernet suite runs it with netperf.

Each trial is a real netperf command line rendered by perfgate.tools.netperf (the simulated board's output for a
link that carries exactly the board's published 0 % loss rate and drops the rest) and read back by the netperf
parser, so the count includes netperf's burst quantisation. Reported per frame size: the trials, the rate found
against the link's capacity, the search's own compute time, and what the trials cost on a board at the guides'
60 s per trial and at the quick gate's run length.

    python benchmarks/rfc2544.py [--board j721e_idk_gw] [--quick 2]
"""

from __future__ import annotations

import argparse
import random
import time

from perfgate import criteria
from perfgate.sim.tools import render
from perfgate.tools import netperf
from perfgate.workloads import ethernet, network, rfc2544


def capacities(board: str) -> dict[tuple[str, int], float]:
    """(direction, datagram) -> the board's published 0 % loss throughput (Mbit/s)."""
    conf = network.settings("ethernet", {}, {"kind": "sim"})
    out: dict[tuple[str, int], float] = {}
    for c in criteria.load(board, "ethernet"):
        got = ethernet.classify(c, conf)
        if isinstance(got, str):
            continue
        m, key = got
        if m.kind == "udp_zero" and key == network.THROUGHPUT:
            out[(m.direction, m.datagram)] = c.value
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="j721e_idk_gw")
    ap.add_argument("--quick", type=int, default=2, help="seconds per trial of a quick gate (default 2)")
    args = ap.parse_args()
    conf = network.settings("ethernet", {}, {"kind": "sim"})
    settings = rfc2544.Settings.from_data(conf["rfc2544"])
    wait_ms = float(conf["netperf"]["wait_ms"])
    guide = int(conf.get("guide_duration", 60))
    rng = random.Random(1)
    print(f"board {args.board}; line rate {settings.line_rate:g} Mbit/s, min {settings.min_rate:g} Mbit/s, "
          f"resolution {settings.resolution:.1%}, max {settings.max_trials} trials; bound {settings.bound()} trials "
          f"(+1 when netperf's burst step is coarser than the resolution)")  # fmt: skip
    print(f"{'direction':<9} {'frame':>5} {'capacity':>9} {'found':>9} {'trials':>6} {'compute ms':>10} "
          f"{'at ' + str(guide) + ' s':>9} {'at ' + str(args.quick) + ' s':>8}")  # fmt: skip
    total_trials = 0
    for (direction, datagram), cap in sorted(capacities(args.board).items()):

        def trial(rate: float, datagram: int = datagram, cap: float = cap) -> tuple[float, float, None]:
            burst = max(1, round(rate * 1e6 / 8 / datagram * wait_ms / 1000))
            cmd = (f"netperf -H 192.168.0.1 -j -c -l {guide} -t UDP_STREAM -b {burst} -w {wait_ms:g} -- "
                   f"-m {datagram} -k {netperf.KEYS}")  # fmt: skip
            text = render("netperf", cmd, {netperf.THROUGHPUT: cap, netperf.CPU: 50.0}, rng)
            m = netperf.parse(text, cmd)
            return burst * datagram * 8 / (wait_ms / 1000) / 1e6, m[netperf.LOSS], None

        t0 = time.perf_counter()
        r = rfc2544.search(trial, settings)
        ms = (time.perf_counter() - t0) * 1000
        total_trials += len(r.trials)
        found = f"{r.rate:.2f}" if r.rate is not None else "none"
        print(f"{direction:<9} {datagram + 46:>5} {cap:>9.2f} {found:>9} {len(r.trials):>6} {ms:>10.1f} "
              f"{len(r.trials) * guide / 60:>7.0f} m {len(r.trials) * args.quick:>6} s")  # fmt: skip
    if not total_trials:
        print(f"NOTHING MEASURED: {args.board} publishes no UDP zero-loss throughput row to search for")
        return 1
    print(f"all frame sizes: {total_trials} trials: {total_trials * guide / 60:.0f} min at {guide} s per trial, "
          f"{total_trials * args.quick} s at {args.quick} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
