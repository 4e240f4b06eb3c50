"""cyclictest (rt-tests): wake-up latency of real-time threads.

Two output forms are read, both as rt-tests 1.x and 2.x print them:
- with `-h N -q`, only the histogram block: one row per microsecond `000007 058012<TAB>000003` (one column per
  thread), then `# Total:`, `# Min Latencies:`, `# Avg Latencies:`, `# Max Latencies:`, `# Histogram Overflows:`
  (zero-padded, one column per thread);
- without `-h`, one `T: 0 ( 1234) P:99 I:200 C:   1000 Min:      4 Act:    5 Avg:    7 Max:    125` line per
  thread (the last one counts: without `-q` the live display repeats them).

Metrics (documented names; the guides publish the maximum): `max latency (us)` (worst thread), `min latency (us)`,
`avg latency (us)` (mean of the threads), `max latency T<n> (us)`, `min latency T<n> (us)` and
`avg latency T<n> (us)` per thread (with `-S`, thread n runs on CPU n: the RT guides' per-CPU tables), `samples`
(all threads), `loops` (the wake-ups of the thread that ran fewest: `# Total:` plus `# Histogram Overflows:`, or
`C:`; with `-l N` it is N, with `-D` it is the duration over the interval less the cycles a loaded board missed: the
run's length as the tool saw it) and, with a histogram, `histogram overflows`. With `-N` (nanoseconds) values are
converted to microseconds.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import ESCAPES

T_LINE = re.compile(
    r"T:\s*(?P<thread>\d+)\s*\(\s*\d+\)\s*P:\s*\d+\s+I:\s*\d+\s+C:\s*(?P<count>\d+)\s+Min:\s*(?P<min>\d+)"
    r"\s+Act:\s*\d+\s+Avg:\s*(?P<avg>\d+)\s+Max:\s*(?P<max>\d+)"
)
SUMMARY = re.compile(r"#\s*(?P<key>Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows):(?P<cols>.*)$")
ROW = re.compile(r"^(\d+)((?:\s+\d+)+)\s*$")
ERROR = re.compile(
    r"invalid option|unrecognized option|Usage:|not found|Permission denied|failed|error|cannot|No such file", re.I
)

MAX = "max latency (us)"
MIN = "min latency (us)"
AVG = "avg latency (us)"


@dataclass
class Histogram:
    """The `-h` block: counts[bucket_us] = one count per thread; the per-thread summary lines."""

    counts: dict[int, list[int]] = field(default_factory=dict)
    summary: dict[str, list[int]] = field(default_factory=dict)

    @property
    def threads(self) -> int:
        return len(self.summary.get("Max Latencies", []))


def _clean(text: str) -> list[str]:
    return [ESCAPES.sub("", line).rstrip("\r") for line in text.splitlines()]


def histogram(text: str) -> Histogram | None:
    """The histogram block of a `-h` run, or None when the output has none."""
    h = Histogram()
    in_block = False
    for line in _clean(text):
        s = line.strip()
        if s == "# Histogram":
            in_block = True
            continue
        m = SUMMARY.match(s)
        if m:
            h.summary[m["key"]] = [int(x) for x in m["cols"].split()]
            in_block = False
            continue
        if in_block:
            r = ROW.match(s)
            if r:
                h.counts[int(r[1])] = [int(x) for x in r[2].split()]
    return h if "Max Latencies" in h.summary else None


def _nsecs(command: str | None) -> bool:
    if not command:
        return False
    try:
        args = shlex.split(invocation(command))
    except ValueError:
        args = command.split()
    return "-N" in args or "--nsecs" in args


def _first_error(lines: list[str]) -> tuple[int, str] | None:
    for n, line in enumerate(lines, 1):
        if ERROR.search(line) and not line.lstrip().startswith("# Histogram"):
            return n, line.strip()
    return None


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = _clean(text)
    scale = 0.001 if _nsecs(command) else 1.0
    h = histogram(text)
    if h is not None:
        maxes = h.summary["Max Latencies"]
        for key in ("Min Latencies", "Avg Latencies"):
            if len(h.summary.get(key, [])) != len(maxes):
                line = next((n for n, s in enumerate(lines, 1) if key in s), None)
                raise ParseError(f"cyclictest: '# {key}' has not one value per thread ({len(maxes)})", line=line)
        mins, avgs = h.summary["Min Latencies"], h.summary["Avg Latencies"]
        out = _metrics(mins, avgs, maxes, scale)
        per_thread_overflows = h.summary.get("Histogram Overflows", [])
        overflows = sum(per_thread_overflows)
        if "Total" in h.summary:  # the histogram's count: the samples within its range
            out["samples"] = float(sum(h.summary["Total"]) + overflows)
            if len(h.summary["Total"]) == len(maxes):
                over = per_thread_overflows if len(per_thread_overflows) == len(maxes) else [0] * len(maxes)
                out["loops"] = float(min(t + o for t, o in zip(h.summary["Total"], over, strict=True)))
        if "Histogram Overflows" in h.summary:
            out["histogram overflows"] = float(overflows)
        return out
    threads: dict[int, re.Match[str]] = {}
    for line in lines:
        m = T_LINE.search(line)
        if m:
            threads[int(m["thread"])] = m
    if threads:
        order = sorted(threads)
        out = _metrics(
            [int(threads[t]["min"]) for t in order],
            [int(threads[t]["avg"]) for t in order],
            [int(threads[t]["max"]) for t in order],
            scale,
        )
        out["samples"] = float(sum(int(threads[t]["count"]) for t in order))
        out["loops"] = float(min(int(threads[t]["count"]) for t in order))
        return out
    err = _first_error(lines)
    if err:
        raise ParseError(f"cyclictest failed: {err[1]}", line=err[0])
    raise ParseError("cyclictest: no '# Max Latencies:' histogram summary and no 'T: <n> ... Max:' line", line=1)


def _metrics(mins: list[int], avgs: list[int], maxes: list[int], scale: float) -> dict[str, float]:
    if not maxes:
        raise ParseError("cyclictest: no thread in the output", line=1)
    out = {
        MAX: max(maxes) * scale,
        MIN: min(mins) * scale,
        AVG: round(sum(avgs) / len(avgs) * scale, 3),
    }
    for i, v in enumerate(maxes):
        out[f"max latency T{i} (us)"] = v * scale
    for i, (lo, mean) in enumerate(zip(mins, avgs, strict=True)):  # per thread: with -S, thread i runs on CPU i
        out[f"min latency T{i} (us)"] = lo * scale
        out[f"avg latency T{i} (us)"] = mean * scale
    return out


def interval_us(command: str) -> float:
    """The wake-up interval a cyclictest command asks for (`-i200`, `-i 200`, `--interval=200`), in microseconds;
    cyclictest's default is 1000."""
    try:
        args = shlex.split(invocation(command))
    except ValueError:
        args = invocation(command).split()
    for k, a in enumerate(args):
        m = re.fullmatch(r"(?:-i|--interval=)(\d+)", a)
        if m:
            return float(m.group(1))
        if a in ("-i", "--interval") and k + 1 < len(args) and args[k + 1].isdigit():
            return float(args[k + 1])
    return 1000.0


# --- the simulated board -------------------------------------------------------------------------------------------


def invocation(command: str) -> str:
    """The cyclictest command line itself, also when it is one step of a `sh -c '...; cyclictest ...; ...'`."""
    i = command.find("cyclictest")
    if i < 0:
        return command
    rest = command[i:]
    end = min((j for j in (rest.find(c) for c in ";&|'\"\n") if j >= 0), default=len(rest))
    return rest[:end]


CARD = Card("cyclictest", parse, binaries=("cyclictest",))
