"""rpmsg_char_benchmark (TI ti-rpmsg-char, examples/rpmsg_char_benchmark.c): RPMsg round trips to a remote core.

What it prints (../shared/reference/tool-outputs.md, read from its public source; no capture of a run is at hand):
    Created endpt device rpmsg-char-2-1234, fd = 3 port = 1025
    Exchanging 100000 messages with rpmsg device rpmsg-char-2-1234 on rproc id 2 ...

    Communicated 100000 messages successfully on rpmsg-char-2-1234

    Total execution time for the test: 3 seconds
    Average round-trip latency: 35
    Worst-case round-trip latency: 194
    Histogram data at histogram.txt
    TEST STATUS: PASSED
Both latencies are integers in microseconds, no unit printed. Metrics, as the guides name the columns:
`Average round trip (usecs)`, `Max round trip (usecs)`.

Traits this reader survives:
- a failed run still exits 0: only `TEST STATUS: PASSED` makes the numbers count (`FAILED`, `send_msg failed`,
  `recv_msg failed`, `Can't create an endpoint device` are a ParseError with the line);
- the average is integer division of the histogram sum by n: an integer, read as printed;
- a per-message latency is computed from tv_nsec alone, so a round trip that crosses a second boundary comes out
  negative; the histogram skips it, the divisor n does not, so it lowers the average. The average is read as TI
  printed it (the published numbers were computed the same way); when the output also holds histogram.txt
  (`<us> , <count>` lines: the gate's command prints it), `warnings()` says how many round trips the histogram
  lost and what their average is without them.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

KEY_AVG = "Average round trip (usecs)"
KEY_MAX = "Max round trip (usecs)"

AVG = re.compile(r"^\s*Average round-trip latency:\s*(-?\d+)\s*$")
WORST = re.compile(r"^\s*Worst-case round-trip latency:\s*(-?\d+)\s*$")
EXCHANGING = re.compile(r"^\s*Exchanging (\d+) messages with rpmsg device \S+ on rproc id (\d+)")
STATUS = re.compile(r"^\s*TEST STATUS:\s*(\w+)")
FAILURE = re.compile(
    r"^\s*(?:send_msg failed|recv_msg failed|Can't create an endpoint device|Invalid rproc id|"
    r"Invalid number of messages|Invalid message length)"
)
HISTOGRAM = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


def keys_for(command: str | None = None) -> list[str]:
    """The metrics every run gives (what planning matches the guide's columns against)."""
    return [KEY_AVG, KEY_MAX]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    of = f" of `{command}`" if command else ""
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if FAILURE.match(line):
            raise ParseError(f"line {n}: rpmsg_char_benchmark failed{of}: {line.strip()!r}", line=n)
    statuses = [(n, m[1]) for n, line in enumerate(lines, 1) if (m := STATUS.match(line))]
    if not statuses:
        raise ParseError(f"no `TEST STATUS:` line: not a finished rpmsg_char_benchmark run{of}")
    if len(statuses) > 1:
        raise ParseError(f"{len(statuses)} `TEST STATUS:` lines (lines {statuses[0][0]}, {statuses[1][0]}): "
                         f"more than one run{of}")  # fmt: skip
    n, status = statuses[0]
    if status.upper() != "PASSED":
        raise ParseError(f"line {n}: TEST STATUS: {status}{of} (the tool exits 0 even so)", line=n)
    out: dict[str, float] = {}
    for rx, key, label in ((AVG, KEY_AVG, "Average"), (WORST, KEY_MAX, "Worst-case")):
        found = [m[1] for line in lines if (m := rx.match(line))]
        if not found:
            raise ParseError(f"no `{label} round-trip latency:` line{of}")
        out[key] = float(int(found[0]))
    return out


def histogram(text: str) -> dict[int, int]:
    """histogram.txt's buckets (`<us> , <count>`), when the output holds them."""
    out: dict[int, int] = {}
    for line in text.splitlines():
        m = HISTOGRAM.match(line)
        if m:
            out[int(m[1])] = out.get(int(m[1]), 0) + int(m[2])
    return out


def messages(text: str) -> int | None:
    for line in text.splitlines():
        m = EXCHANGING.match(line)
        if m:
            return int(m[1])
    return None


def warnings(text: str, command: str | None = None) -> list[str]:
    """Round trips the histogram lost (a negative latency: the round trip crossed a second boundary), which
    lowered the printed average."""
    hist, n = histogram(text), messages(text)
    if not hist or not n:
        return []
    counted = sum(hist.values())
    lost = n - counted
    if lost <= 0:
        return []
    true_avg = sum(us * c for us, c in hist.items()) / counted
    return [
        f"{lost} of {n} round trips came out negative (a round trip across a second boundary: the tool reads "
        f"tv_nsec alone) and are not in histogram.txt; they lower the printed average, as in TI's runs: "
        f"{true_avg:.1f} us without them"
    ]


CARD = Card("rpmsg", parse, warnings=warnings)
