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

Metrics: `throughput (Mbits/sec)` (10^6 bits/s; the streams of a dual/full-duplex test added, or the `[SUM]` line;
for UDP the server report, i.e. what arrived), `packet loss (%)`, `packets per second (kPPS)` (datagrams that
arrived per second / 1000), `datagram size (bytes)`, `cpu load (%)`.
"""

from __future__ import annotations

import random
import re
import shlex

from perfgate.errors import ParseError
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


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
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


# --------------------------------------------------------------------------------------------------- render
def _iperf_words(command: str) -> list[str]:
    try:
        words = shlex.split(command.replace(";", " ; "))
    except ValueError:
        words = command.split()
    for i, w in enumerate(words):
        if w == "iperf" or w.endswith("/iperf"):
            rest = words[i:]
            return rest[: rest.index(";")] if ";" in rest else rest
    return words


def _opt(words: list[str], name: str, default: str | None = None) -> str | None:
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            return words[i + 1]
    return default


def _rate(text: str | None) -> float | None:
    m = re.fullmatch(r"([\d.]+)([kKmMgG]?)", text or "")
    if not m:
        return None
    return float(m.group(1)) * {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2).lower()]


def _fmt_rate(bps: float, fmt: str) -> str:
    if fmt == "M":
        return f"{bps / 8 / 1024**2:.1f} MBytes/sec"
    if fmt == "K":
        return f"{bps / 8 / 1024:.0f} KBytes/sec"
    return f"{bps / 1e6:.1f} Mbits/sec"


def _fmt_bytes(n: float) -> str:
    return f"{n / 1024**3:.2f} GBytes" if n >= 1024**3 else f"{n / 1024**2:.1f} MBytes"


def _stat_line(ticks: list[int]) -> str:
    return "cpu  " + " ".join(str(t) for t in ticks)


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """iperf 2.0.5's client output (TI's version) for `iperf -c ...` (TCP, `-d` dual test, UDP with `-b`/`-l`),
    wrapped in /proc/stat `cpu` lines when the command reads them."""
    words = _iperf_words(command)
    if "-s" in words:
        return "Running Iperf Server as a daemon\n" if "-D" in words else ""
    host = _opt(words, "-c", "192.168.0.1")
    port = _opt(words, "-p", "5001")
    duration = float(_opt(words, "-t", "10") or 10)
    fmt = _opt(words, "-f", "m") or "m"
    capacity = values.get(THROUGHPUT, 100.0) * 1e6 * rng.uniform(0.995, 1.005)
    out: list[str] = []
    udp = "-u" in words
    if udp:
        size = int(_opt(words, "-l", "1470") or 1470)
        if KPPS in values:  # the board forwards at most so many packets: the lower limit holds
            capacity = min(capacity, values[KPPS] * 1e3 * size * 8)
        offered = _rate(_opt(words, "-b", "1M")) or 1e6
        if LOSS in values:
            loss = max(values[LOSS] * rng.uniform(0.98, 1.02), 0.0)
            sent = capacity / (1 - min(loss, 99.0) / 100.0)
        else:
            sent = offered
            loss = max(0.0, (offered - capacity) / offered * 100.0)
        total = max(int(sent * duration / 8 / size), 1)
        lost = round(total * loss / 100.0)
        got = (total - lost) * size * 8 / duration
        out += [
            "------------------------------------------------------------",
            f"Client connecting to {host}, UDP port {port}",
            f"Sending {size} byte datagrams",
            "UDP buffer size:  160 KByte (default)",
            "------------------------------------------------------------",
            f"[  3] local 192.168.0.100 port 45123 connected with {host} port {port}",
            "[ ID] Interval       Transfer     Bandwidth",
            f"[  3]  0.0-{duration:.1f} sec  {_fmt_bytes(sent * duration / 8)}  {_fmt_rate(sent, fmt)}",
            f"[  3] Sent {total} datagrams",
            "[  3] Server Report:",
            f"[  3]  0.0-{duration:.1f} sec  {_fmt_bytes(got * duration / 8)}  {_fmt_rate(got, fmt)}  "
            f"{rng.uniform(0.005, 0.09):.3f} ms {lost}/{total} ({100.0 * lost / total:.2g}%)",
        ]
    else:
        window = _opt(words, "-w")
        dual = "-d" in words
        f = 0.5 + rng.uniform(-0.03, 0.03)
        shares = [capacity * f, capacity * (1 - f)] if dual else [capacity]
        wline = f"TCP window size: {window}Byte (WARNING: requested {window}Byte)" if window else (
            "TCP window size: 43.8 KByte (default)")  # fmt: skip
        if dual:
            out += ["------------------------------------------------------------",
                    f"Server listening on TCP port {port}", wline]  # fmt: skip
        out += ["------------------------------------------------------------",
                f"Client connecting to {host}, TCP port {port}", wline,
                "------------------------------------------------------------",
                f"[  4] local 192.168.0.100 port 45678 connected with {host} port {port}"]  # fmt: skip
        if dual:
            out.append(f"[  5] local 192.168.0.100 port {port} connected with {host} port 45679")
        out.append("[ ID] Interval       Transfer     Bandwidth")
        for sid, bps in zip((4, 5), shares, strict=False):
            out.append(f"[  {sid}]  0.0-{duration:.1f} sec  {_fmt_bytes(bps * duration / 8)}  {_fmt_rate(bps, fmt)}")
        if "-m" in words:
            out.append("[  4] MSS size 1448 bytes (MTU 1500 bytes, ethernet)")
    text = "\n".join(out) + "\n"
    if "/proc/stat" in command:
        cpus = 2
        ticks = int(duration * 100 * cpus)
        busy = int(ticks * values.get(CPU, 50.0) / 100.0 * rng.uniform(0.99, 1.01))
        before = [rng.randint(10000, 90000), 20, rng.randint(5000, 30000), rng.randint(10**6, 10**7), 300, 0, 50, 0,
                  0, 0]  # fmt: skip
        after = list(before)
        after[0] += busy // 3
        after[2] += busy - busy // 3
        after[3] += ticks - busy
        text = _stat_line(before) + "\n" + text + _stat_line(after) + "\n"
    return text
