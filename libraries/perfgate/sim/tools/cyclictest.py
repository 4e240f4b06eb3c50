"""What `cyclictest` prints on the simulated board: the renderer for perfgate.tools.cyclictest's parser.

Moved here from perfgate/tools/cyclictest.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re
import shlex
from dataclasses import dataclass

from perfgate.tools.cyclictest import AVG, MAX, MIN, invocation


@dataclass
class Options:
    loops: int = 0  # -l; 0: endless (or -D)
    threads: int = 1
    histogram: int = 0
    quiet: bool = False
    interval: int = 1000
    priority: int = 0
    nsecs: bool = False
    duration: float = 0.0  # seconds (-D)
    smp: bool = False  # -S: one thread per CPU, thread n on CPU n


def options(command: str) -> Options:
    """The cyclictest options that change what it prints."""
    args = shlex.split(invocation(command))
    o = Options()
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""

        def value(short: str, long: str, a: str = a, nxt: str = nxt) -> str | None:
            if a.startswith(long + "="):
                return a.split("=", 1)[1]
            if a == short and nxt:
                return nxt
            if a.startswith(short) and len(a) > len(short) and a[len(short)].isdigit():
                return a[len(short) :]
            return None

        for short, long, attr in (("-l", "--loops", "loops"), ("-h", "--histogram", "histogram"),
                                  ("-i", "--interval", "interval"), ("-p", "--priority", "priority")):  # fmt: skip
            v = value(short, long)
            if v is not None:
                setattr(o, attr, int(v))
                if a == short:
                    i += 1
                break
        else:
            if a in ("-t", "--threads") and nxt.isdigit():
                o.threads = int(nxt)
                i += 1
            elif a.startswith("-t") and a[2:].isdigit():
                o.threads = int(a[2:])
            elif a.startswith("--threads="):
                o.threads = int(a.split("=", 1)[1])
            elif a == "--smp" or re.fullmatch(r"-S(p\d+)?", a):
                o.smp = True
                if len(a) > 2 and a.startswith("-Sp"):
                    o.priority = int(a[3:])
            elif a in ("-q", "--quiet"):
                o.quiet = True
            elif a in ("-N", "--nsecs"):
                o.nsecs = True
            elif re.fullmatch(r"(-D|--duration=)\d+[smhd]?", a) or (a == "-D" and re.fullmatch(r"\d+[smhd]?", nxt)):
                text = nxt if a == "-D" else a.removeprefix("--duration=").removeprefix("-D")
                o.duration = float(text.rstrip("smhd")) * {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(text[-1], 1)
                i += 1 if a == "-D" else 0
            elif a.startswith("-") and not a.startswith("--") and "q" in a[1:] and a[1:].isalpha():
                o.quiet = True  # combined short flags such as -mq
        i += 1
    return o


def _thread_sample(
    rng: random.Random, loops: int, peak: int, low: int | None = None, mean: float | None = None
) -> tuple[dict[int, int], int, int, int]:
    """A plausible latency distribution: one sample at `low`, one at `peak`, the rest around `mean`."""
    if low is None:
        low = max(1, min(peak - 1, round(peak * rng.uniform(0.15, 0.3))))
    low = max(0, min(low, peak))
    if mean is None:
        mean = min(peak, low * rng.uniform(1.2, 1.6))
    mean = min(max(mean, low), peak)
    n = max(2, loops)
    samples = [low, peak]
    sd = max(0.5, (mean - low) * 0.5)
    for _ in range(n - 2):
        samples.append(min(peak, max(low, round(rng.gauss(mean, sd)))))
    diff = round(mean * n) - sum(samples)
    while diff and n > 2:  # move samples (not the two extremes) in bulk until the mean is the target
        moved = False
        share = max(1, abs(diff) // (n - 2))
        for j in range(2, n):
            step = min(share, abs(diff)) * (1 if diff > 0 else -1)
            if step and low <= samples[j] + step <= peak:
                samples[j] += step
                diff -= step
                moved = True
        if not moved:
            break
    total = sum(samples)
    counts: dict[int, int] = {}
    for v in samples:
        counts[v] = counts.get(v, 0) + 1
    return counts, low, round(total / n), peak


def _scaled(thread: tuple[dict[int, int], int, int, int], wanted: int) -> tuple[dict[int, int], int, int, int]:
    """A drawn thread's histogram scaled to `wanted` wake-ups in all (min, mean and max as drawn)."""
    counts, low, mean, peak = thread
    drawn = sum(counts.values())
    if wanted <= drawn:
        return thread
    scaled = {v: c if c == 1 else round(c * wanted / drawn) for v, c in counts.items()}  # rare stays rare
    bulk = max(scaled, key=lambda v: scaled[v])  # the rounding goes to the fullest bucket
    scaled[bulk] += wanted - sum(scaled.values())
    return scaled, low, mean, peak


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    o = options(command)
    peak_us = float(values.get(MAX, 50.0))
    unit = 1000 if o.nsecs else 1
    if o.loops:
        wanted = o.loops
    elif o.duration:  # a -D run loses a few wake-ups at start-up (tests/fixtures/cyclictest/S-h400-M-D3s.txt)
        wanted = max(1, round(o.duration * 1e6 / max(o.interval, 1)) - rng.randint(1, 40))
    else:
        wanted = 1000
    loops = max(1, min(wanted, 20000))  # the sim draws at most 20000 samples per thread, and prints them
    # scaled up to the wake-ups the run had: its counts say how long it ran, as the real tool's do
    low = round(values[MIN] * unit) if MIN in values else None
    mean = values[AVG] * unit if AVG in values else None
    per_thread = [int(m.group(1)) for k in values if (m := re.fullmatch(r"(?:min|avg|max) latency T(\d+) \(us\)", k))]
    count = (max(per_thread) + 1 if per_thread else 1) if o.smp else max(1, o.threads)  # -S: the CPUs asked about
    threads = []
    for t in range(count):
        own_max, own_min, own_avg = (values.get(f"{w} latency T{t} (us)") for w in ("max", "min", "avg"))
        if own_max is not None:
            peak = max(2, round(own_max * unit))
        else:
            peak = max(2, round(peak_us * unit * (1.0 if t == 0 else rng.uniform(0.6, 1.0))))
        t_low = round(own_min * unit) if own_min is not None else (low if t == 0 else None)
        t_mean = own_avg * unit if own_avg is not None else (mean if t == 0 else None)
        threads.append(_scaled(_thread_sample(rng, loops, peak, t_low, t_mean), wanted))
    lines = ["# /dev/cpu_dma_latency set to 0us"]
    if o.histogram:
        lines.append("# Histogram")
        for b in range(o.histogram):
            cells = [f"{th[0].get(b, 0):06d}" for th in threads]
            lines.append(f"{b:06d} " + "\t".join(cells))
        over = [sum(c for v, c in th[0].items() if v >= o.histogram) for th in threads]
        lines.append("# Total: " + " ".join(f"{wanted - ov:09d}" for ov in over))
        lines.append("# Min Latencies: " + " ".join(f"{th[1]:05d}" for th in threads))
        lines.append("# Avg Latencies: " + " ".join(f"{th[2]:05d}" for th in threads))
        lines.append("# Max Latencies: " + " ".join(f"{th[3]:05d}" for th in threads))
        lines.append("# Histogram Overflows: " + " ".join(f"{ov:05d}" for ov in over))
        lines.append("# Histogram Overflow at cycle number:")
        for t in range(len(threads)):
            shown = min(over[t], o.histogram)  # rt-tests lists as many cycles as the histogram has rows
            cycles = sorted(rng.sample(range(wanted), shown))
            extra = f" # {over[t] - shown:05d} others" if over[t] > shown else ""
            lines.append(f"# Thread {t}:" + "".join(f" {c:05d}" for c in cycles) + extra)
        return "\n".join(lines) + "\n"
    pid = rng.randint(1000, 30000)
    for t, th in enumerate(threads):
        interval = o.interval + 500 * t
        act = rng.randint(th[1], max(th[1], th[2]))
        lines.append(
            f"T:{t:2d} ({pid + t:5d}) P:{max(0, o.priority - t):2d} I:{interval} C:{wanted:7d} "
            f"Min:{th[1]:7d} Act:{act:5d} Avg:{th[2]:5d} Max:{th[3]:8d}"
        )
    return "\n".join(lines) + "\n"
