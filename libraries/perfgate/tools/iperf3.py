"""iperf3 (esnet/iperf): network throughput, read from `-J` (JSON) output, or from the text summary.

JSON (verified on iperf 3.12 captures in tests/fixtures/iperf3/): `start.test_start` (protocol, blksize, duration,
reverse, bidir), `end.sum_sent` / `end.sum_received` (TCP and, since 3.x, UDP), `end.sum` (UDP: `lost_percent`,
`packets`, `lost_packets`, `seconds`), `end.sum_sent_bidir_reverse` / `end.sum_received_bidir_reverse` with
`--bidir`, `end.cpu_utilization_percent.host_total` / `.remote_total`. A failed run prints `{"error": "..."}`.
Text: `[  5]   0.00-2.00   sec  4.47 GBytes  19.2 Gbits/sec    7             sender` and `... receiver`; with -P the
`[SUM]` lines; with --bidir `[  5][TX-C] ...` and `[  7][RX-C] ...` (both directions added).

Two runs in one output (`iperf3 -c X; iperf3 -R -c X`: two `Connecting to host` headers and two summaries in text,
two JSON documents one after the other) are an error naming both, never the last one read silently.

Metrics (documented names): `throughput (Mbits/sec)` what the receiving end got (with `--bidir`: both directions
added, as the guides' bidirectional figure), `send throughput (Mbits/sec)`, `cpu load (%)` (this host: the client,
which TI runs on the board), `remote cpu load (%)`; UDP: `packet loss (%)`, `packets per second (kPPS)` (datagrams
received per second / 1000), `datagram size (bytes)`.
"""

from __future__ import annotations

import json
import re

from perfgate.errors import ParseError
from perfgate.tools.common import CPU, DGRAM, ESCAPES, KPPS, LOSS, THROUGHPUT

SEND = "send throughput (Mbits/sec)"
REMOTE_CPU = "remote cpu load (%)"

TEXT_SUM = re.compile(
    r"^\[\s*(\d+|SUM)\](?:\[([TR]X-[CS])\])?\s+([\d.]+)-([\d.]+)\s+sec\s+[\d.]+\s+\w?Bytes\s+([\d.]+)\s+(\w?)bits/sec"
    r".*?\b(sender|receiver)\s*$"
)
TEXT_ERROR = re.compile(r"^iperf3: (error|interrupt).*", re.I)
BITS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


RUN_HEADER = re.compile(r"^(Connecting to host \S+, port \d+|Accepted connection from \S+, port \d+)")
SEPARATOR = re.compile(r"^(- ){10,}-?$")


def _describe(doc: dict) -> str:
    test = (doc.get("start") or {}).get("test_start") or {}
    conn = ((doc.get("start") or {}).get("connecting_to") or {}).get("host")
    what = [
        str(test.get("protocol", "?")),
        "reverse" if test.get("reverse") else "",
        "bidir" if test.get("bidir") else "",
    ]
    return " ".join(w for w in what if w) + (f" to {conn}" if conn else "")


def _json(text: str) -> tuple[dict, int] | None:
    start = text.find("{")
    if start < 0:
        return None
    decoder = json.JSONDecoder()
    try:
        obj, end = decoder.raw_decode(text, start)
    except json.JSONDecodeError as e:
        raise ParseError(
            f"iperf3 JSON output is cut or malformed: {e.msg}", line=text.count("\n", 0, e.pos) + 1
        ) from None
    if not isinstance(obj, dict):
        return None
    line = text.count("\n", 0, start) + 1
    second = text.find("{", end)
    if second >= 0:
        try:
            other, _ = decoder.raw_decode(text, second)
        except json.JSONDecodeError:
            other = None
        if isinstance(other, dict):
            line2 = text.count("\n", 0, second) + 1
            raise ParseError(
                f"two iperf3 runs in one output: a JSON document at line {line} ({_describe(obj)}) and another at "
                f"line {line2} ({_describe(other)}); give each run its own output",
                line=line2,
            )
    return obj, line


def _runs(lines: list[str]) -> None:
    """Two text runs in one output (two headers or two summaries) is an error naming both."""
    for pattern, what in ((RUN_HEADER, "header"), (SEPARATOR, "summary")):
        found = [(n, ln.strip()) for n, ln in enumerate(lines, 1) if pattern.match(ln.strip())]
        if len(found) > 1:
            (n1, a), (n2, b) = found[0], found[1]
            raise ParseError(
                f"two iperf3 runs in one output: a {what} at line {n1} ({a!r}) and another at line {n2} ({b!r}); "
                "give each run its own output",
                line=n2,
            )


def _mbps(section: dict | None) -> float | None:
    if not isinstance(section, dict) or "bits_per_second" not in section:
        return None
    return float(section["bits_per_second"]) / 1e6


def _from_json(doc: dict, line: int) -> dict[str, float]:
    if doc.get("error"):
        raise ParseError(f"iperf3 failed: {doc['error']}", line=line)
    end = doc.get("end")
    if not isinstance(end, dict) or not end:
        raise ParseError("iperf3 JSON has no `end` summary (the test did not finish)", line=line)
    test = (doc.get("start") or {}).get("test_start") or {}
    udp = str(test.get("protocol", "")).upper() == "UDP"
    out: dict[str, float] = {}
    received = _mbps(end.get("sum_received"))
    sent = _mbps(end.get("sum_sent"))
    udp_sum = end.get("sum") if isinstance(end.get("sum"), dict) else None
    if received is None and udp_sum is not None:
        received = _mbps(udp_sum)
        if received is not None and "lost_percent" in udp_sum:
            received *= 1.0 - float(udp_sum["lost_percent"]) / 100.0
    if received is None:
        raise ParseError("iperf3 JSON `end` has no sum_received/sum bits_per_second", line=line)
    back = _mbps(end.get("sum_received_bidir_reverse"))
    out[THROUGHPUT] = received + (back or 0.0)
    if sent is not None:
        out[SEND] = sent + (_mbps(end.get("sum_sent_bidir_reverse")) or 0.0)
    cpu = end.get("cpu_utilization_percent")
    if isinstance(cpu, dict):
        if "host_total" in cpu:
            out[CPU] = float(cpu["host_total"])
        if float(cpu.get("remote_total", 0) or 0) > 0:
            out[REMOTE_CPU] = float(cpu["remote_total"])
    if udp and udp_sum is not None:
        if "lost_percent" in udp_sum:
            out[LOSS] = float(udp_sum["lost_percent"])
        packets, lost = float(udp_sum.get("packets", 0)), float(udp_sum.get("lost_packets", 0))
        seconds = float(udp_sum.get("seconds", 0) or test.get("duration", 0) or 0)
        if packets > 0 and seconds > 0:
            out[KPPS] = (packets - lost) / seconds / 1000.0
    if udp and test.get("blksize"):
        out[DGRAM] = float(test["blksize"])
    return out


def _from_text(lines: list[str]) -> dict[str, float]:
    """The summary lines: the `[SUM]` lines of a parallel (-P) run, else every stream's; with --bidir
    (`[  5][TX-C]`, `[  7][RX-C]`) both directions added, as the JSON reading does."""
    rows: list[tuple[str, str, str, float]] = []  # (stream id, role, sender|receiver, Mbits/s)
    for line in lines:
        m = TEXT_SUM.match(line.strip())
        if m:
            rows.append((m.group(1), m.group(2) or "", m.group(7), float(m.group(5)) * BITS[m.group(6)] / 1e6))
    if any(r[0] == "SUM" for r in rows):
        rows = [r for r in rows if r[0] == "SUM"]
    received = [v for _, _, side, v in rows if side == "receiver"]
    sent = [v for _, _, side, v in rows if side == "sender"]
    if not received:
        return {}
    out = {THROUGHPUT: sum(received)}
    if sent:
        out[SEND] = sum(sent)
    return out


def parse(text: str, command: str | None = None) -> dict[str, float]:
    clean = "\n".join(ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines())
    lines = clean.splitlines()
    for n, line in enumerate(lines, 1):
        if TEXT_ERROR.match(line.strip()):
            raise ParseError(f"iperf3 failed: {line.strip()}", line=n)
    found = _json(clean)
    if not found:
        _runs(lines)
    out = _from_json(*found) if found else _from_text(lines)
    if not out:
        raise ParseError("no iperf3 result (no JSON `end`, no sender/receiver summary line)", line=len(lines) or None)
    return out
