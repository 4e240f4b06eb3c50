"""iperf 2 (iperf2.sourceforge.net): the older guides' TCP window-size and UDP tables, PCIe-ETH and USB CDC/RNDIS.

What it prints (verified on iperf 2.1.8 captures in tests/fixtures/iperf/; 2.0.5, which TI used, prints the same
report lines with one decimal in the interval):
- a report line per stream: `[  1] 0.0000-2.0143 sec  4.33 GBytes  18.5 Gbits/sec` (2.0.5: `[  4]  0.0-60.0 sec`),
  `[ *1] ...` for the reverse stream of `--full-duplex`, `[SUM] ...` for the total; with `-d` (dual test) one line
  per direction. Units: lower-case k/m/g (`Mbits/sec`) are powers of 10; upper-case `KBytes/MBytes/GBytes` are
  powers of 2 (`-f M` prints MBytes/sec).
- UDP: `Sending 1470 byte datagrams`, and the server report `... 210 Mbits/sec   0.000 ms 0/35669 (0%)`.
- `-y C`: `timestamp,src,sport,dst,dport,id,interval,bytes,bits_per_second`.
iperf measures no CPU load: TI's tables have one, taken from /proc/stat around the run; a command that prints the
`cpu ` line of /proc/stat before and after iperf gets `cpu load (%)` (busy share of all CPUs between the two).

Two runs in one output (two `Client connecting to` headers: `iperf -c X; iperf -c X -w 64K`) are an error naming
both, never the last one read silently.

Metrics: `throughput (Mbits/sec)` (10^6 bits/s; the streams of a dual/full-duplex test added, or the `[SUM]` line;
for UDP the server report, i.e. what arrived), `packet loss (%)`, `packets per second (kPPS)` (datagrams that
arrived per second / 1000), `datagram size (bytes)`, `cpu load (%)`.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import CPU, DGRAM, ESCAPES, KPPS, LOSS, THROUGHPUT

REPORT = re.compile(
    r"^\[\s*(?P<id>\*?\d+|SUM)\]\s+(?P<a>[\d.]+)\s*-\s*(?P<b>[\d.]+)\s+sec\s+[\d.]+\s+\w*Bytes\s+"
    r"(?P<rate>[\d.]+)\s+(?P<unit>\w*(?:bits|Bytes))/sec"
    r"(?:\s+[\d.]+\s+ms\s+(?P<lost>\d+)/\s*(?P<total>\d+)\s+\((?P<pct>[\d.e+-]+)%\))?"
)
CSV = re.compile(r"^\d{14},[\d.:a-fA-F]+,\d+,[\d.:a-fA-F]+,\d+,-?\d+,([\d.]+)-([\d.]+),(\d+),(\d+)")
DATAGRAMS = re.compile(r"Sending (\d+) byte datagrams")
PROC_STAT = re.compile(r"^cpu\s+(\d+(?:\s+\d+){3,})\s*$")
ERROR = re.compile(r"(connect failed|Connection refused|No route to host|ERROR:|tcp write failed|"
                   r"unknown host|invalid option|read failed)", re.I)  # fmt: skip
SCALE = {"bits": 1.0, "Kbits": 1e3, "Mbits": 1e6, "Gbits": 1e9, "Bytes": 8.0, "KBytes": 8.0 * 1024,
         "MBytes": 8.0 * 1024**2, "GBytes": 8.0 * 1024**3}  # fmt: skip


def _cpu_load(samples: list[list[int]]) -> float | None:
    if len(samples) < 2:
        return None
    a, b = samples[0], samples[-1]
    total = sum(b) - sum(a)
    idle = (b[3] - a[3]) + ((b[4] - a[4]) if len(a) > 4 and len(b) > 4 else 0)
    return 100.0 * (total - idle) / total if total > 0 else None


CLIENT = re.compile(r"^Client connecting to \S+, (TCP|UDP) port \d+")


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
    clients = [(n, s.strip()) for n, s in enumerate(lines, 1) if CLIENT.match(s.strip())]
    if len(clients) > 1:
        (n1, a), (n2, b) = clients[0], clients[1]
        raise ParseError(
            f"two iperf runs in one output: {a!r} at line {n1} and {b!r} at line {n2}; give each run its own output",
            line=n2,
        )
    finals: dict[str, tuple[float, float, re.Match]] = {}  # stream id -> (span, end, match) of its longest report
    udp_reports: list[re.Match] = []
    csv_rate: float | None = None
    stats: list[list[int]] = []
    out: dict[str, float] = {}
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if ERROR.search(s):
            raise ParseError(f"iperf failed: {s}", line=n)
        m = PROC_STAT.match(s)
        if m:
            stats.append([int(x) for x in m.group(1).split()])
            continue
        m = DATAGRAMS.search(s)
        if m:
            out[DGRAM] = float(m.group(1))
        m = CSV.match(s)
        if m:
            csv_rate = (csv_rate or 0.0) + float(m.group(4)) / 1e6
            continue
        m = REPORT.match(s)
        if not m:
            continue
        if m.group("lost") is not None:
            udp_reports.append(m)
            continue
        a, b = float(m.group("a")), float(m.group("b"))
        if a > 0.5:  # an interval report (-i), not a stream's total
            continue
        prev = finals.get(m.group("id"))
        if prev is None or b - a >= prev[0]:
            finals[m.group("id")] = (b - a, b, m)
    cpu = _cpu_load(stats)
    if cpu is not None:
        out[CPU] = cpu
    if udp_reports:
        r = udp_reports[-1]
        out[THROUGHPUT] = float(r.group("rate")) * SCALE[r.group("unit")] / 1e6
        lost, total = int(r.group("lost")), int(r.group("total"))
        out[LOSS] = 100.0 * lost / total if total else float(r.group("pct"))
        span = float(r.group("b")) - float(r.group("a"))
        if span > 0 and total:
            out[KPPS] = (total - lost) / span / 1000.0
        return out
    if "SUM" in finals:
        m = finals["SUM"][2]
        out[THROUGHPUT] = float(m.group("rate")) * SCALE[m.group("unit")] / 1e6
    elif finals:
        out[THROUGHPUT] = sum(float(m.group("rate")) * SCALE[m.group("unit")] / 1e6 for _, _, m in finals.values())
    elif csv_rate is not None:
        out[THROUGHPUT] = csv_rate
    if THROUGHPUT not in out:
        raise ParseError("no iperf report line (`[ ID] 0.0-60.0 sec ... bits/sec`)", line=len(lines) or None)
    return out


CARD = Card("iperf", parse, binaries=("iperf",))
