"""What `iperf` prints on the simulated board: the renderer for perfgate.tools.iperf's parser.

Moved here from perfgate/tools/iperf.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re
import shlex

from perfgate.tools.common import CPU, KPPS, LOSS, THROUGHPUT


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


def trial(command: str) -> tuple[str, float] | None:
    """A rate-limited UDP trial (`-u -b <rate>`): the command without its rate, and the rate (bits/s); None for any
    other run (perfgate.sim.answers holds one draw of the board over the trials of one rate search)."""
    words = _iperf_words(command)
    offered = _rate(_opt(words, "-b")) if "-u" in words else None
    if not offered:
        return None
    return " ".join(w for i, w in enumerate(words) if w != "-b" and (i == 0 or words[i - 1] != "-b")), offered


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
        # the board forwards at most so many packets: the lower limit holds. A published 0 is no limit (zero
        # packets carry no bits): the figure was too small for the guide's table, as IPSec aes192 on am62x.
        if values.get(KPPS, 0.0) > 0:
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
