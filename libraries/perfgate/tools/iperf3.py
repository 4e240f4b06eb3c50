"""iperf3 (esnet/iperf): network throughput, read from `-J` (JSON) output, or from the text summary.

JSON (verified on iperf 3.12 captures in tests/fixtures/iperf3/): `start.test_start` (protocol, blksize, duration,
reverse, bidir), `end.sum_sent` / `end.sum_received` (TCP and, since 3.x, UDP), `end.sum` (UDP: `lost_percent`,
`packets`, `lost_packets`, `seconds`), `end.sum_sent_bidir_reverse` / `end.sum_received_bidir_reverse` with
`--bidir`, `end.cpu_utilization_percent.host_total` / `.remote_total`. A failed run prints `{"error": "..."}`.
Text: `[  5]   0.00-2.00   sec  4.47 GBytes  19.2 Gbits/sec    7             sender` and `... receiver`.

Metrics (documented names): `throughput (Mbits/sec)` what the receiving end got (with `--bidir`: both directions
added, as the guides' bidirectional figure), `send throughput (Mbits/sec)`, `cpu load (%)` (this host: the client,
which TI runs on the board), `remote cpu load (%)`; UDP: `packet loss (%)`, `packets per second (kPPS)` (datagrams
received per second / 1000), `datagram size (bytes)`.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import time

from perfgate.errors import ParseError
from perfgate.tools.common import CPU, DGRAM, ESCAPES, KPPS, LOSS, THROUGHPUT

SEND = "send throughput (Mbits/sec)"
REMOTE_CPU = "remote cpu load (%)"

TEXT_SUM = re.compile(
    r"^\[\s*(?:\d+|SUM)\]\s+([\d.]+)-([\d.]+)\s+sec\s+[\d.]+\s+\w?Bytes\s+([\d.]+)\s+(\w?)bits/sec.*?\b(sender|receiver)\s*$"
)
TEXT_ERROR = re.compile(r"^iperf3: (error|interrupt).*", re.I)
BITS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def _json(text: str) -> tuple[dict, int] | None:
    start = text.find("{")
    if start < 0:
        return None
    try:
        obj, _ = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError as e:
        raise ParseError(
            f"iperf3 JSON output is cut or malformed: {e.msg}", line=text.count("\n", 0, e.pos) + 1
        ) from None
    return (obj, text.count("\n", 0, start) + 1) if isinstance(obj, dict) else None


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
    sender: float | None = None
    receiver: float | None = None
    for line in lines:
        m = TEXT_SUM.match(line.strip())
        if not m:
            continue
        value = float(m.group(3)) * BITS[m.group(4)] / 1e6
        if m.group(5) == "sender":
            sender = value
        else:
            receiver = value
    if receiver is None:
        return {}
    out = {THROUGHPUT: receiver}
    if sender is not None:
        out[SEND] = sender
    return out


def parse(text: str, command: str | None = None) -> dict[str, float]:
    clean = "\n".join(ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines())
    lines = clean.splitlines()
    for n, line in enumerate(lines, 1):
        if TEXT_ERROR.match(line.strip()):
            raise ParseError(f"iperf3 failed: {line.strip()}", line=n)
    found = _json(clean)
    out = _from_json(*found) if found else _from_text(lines)
    if not out:
        raise ParseError("no iperf3 result (no JSON `end`, no sender/receiver summary line)", line=len(lines) or None)
    return out


# --------------------------------------------------------------------------------------------------- render
def _args(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    return words[words.index("iperf3") :] if "iperf3" in words else words


def _opt(words: list[str], *names: str, default: str | None = None) -> str | None:
    for i, w in enumerate(words):
        for name in names:
            if w == name and i + 1 < len(words):
                return words[i + 1]
            if name.startswith("--") and w.startswith(name + "="):
                return w.split("=", 1)[1]
    return default


def _rate(text: str | None) -> float | None:
    if not text:
        return None
    m = re.fullmatch(r"([\d.]+)([KMGkmg]?)(?:/\d+)?", text)
    if not m:
        return None
    return float(m.group(1)) * BITS[m.group(2).upper()]


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """iperf3 3.12's `-J` output for a client command (`-s` servers print nothing with `-D`)."""
    words = _args(command)
    if "-s" in words or "--server" in words:
        return ""
    udp = "-u" in words or "--udp" in words
    bidir = "--bidir" in words
    reverse = "-R" in words or "--reverse" in words
    duration = float(_opt(words, "-t", "--time", default="10") or 10)
    host = _opt(words, "-c", "--client", default="192.168.0.1") or "192.168.0.1"
    port = int(_opt(words, "-p", "--port", default="5201") or 5201)
    blksize = int(_opt(words, "-l", "--length", default="1460" if udp else "131072") or 131072)
    capacity = values.get(THROUGHPUT, 100.0) * 1e6
    if udp and KPPS in values:  # the board forwards at most so many packets: the lower limit holds
        capacity = min(capacity, values[KPPS] * 1e3 * blksize * 8)
    noise = rng.uniform(0.995, 1.005)
    if udp:
        offered = _rate(_opt(words, "-b", "--bitrate", "--bandwidth", default="1M"))
        if not offered:  # -b 0: no limit, the board carries what it can without a loss figure to show
            offered = capacity * noise
        if LOSS in values:  # unlimited run ("possible loss"): what the board carries, and its loss
            loss = max(values[LOSS] * rng.uniform(0.98, 1.02), 0.0)
            sent_bps = capacity * noise / (1 - min(loss, 99.0) / 100.0)
        else:  # a rate-limited trial: loss only above what the board carries
            sent_bps = offered
            loss = max(0.0, (offered - capacity * noise) / offered * 100.0)
        packets = int(sent_bps * duration / 8 / blksize)
        lost = round(packets * loss / 100.0)
        if loss > 0 and lost == 0:
            lost = 1
        summary = {"start": 0, "end": duration, "seconds": duration, "bytes": int(sent_bps * duration / 8),
                   "bits_per_second": sent_bps, "jitter_ms": rng.uniform(0.005, 0.05), "lost_packets": lost,
                   "packets": packets, "lost_percent": 100.0 * lost / packets if packets else 0.0,
                   "sender": True}  # fmt: skip
        received = dict(summary, bits_per_second=(packets - lost) * blksize * 8 / duration, sender=False)
        end = {"streams": [{"udp": summary}], "sum": summary, "sum_sent": dict(summary, jitter_ms=0, lost_packets=0),
               "sum_received": received}  # fmt: skip
    else:
        total = capacity * noise
        share = [total / 2, total / 2] if bidir else [total]

        def sums(bps: float, sender: bool) -> dict:
            return {"start": 0, "end": duration, "seconds": duration, "bytes": int(bps * duration / 8),
                    "bits_per_second": bps, "retransmits": rng.randint(0, 40), "sender": sender}  # fmt: skip

        end = {"streams": [], "sum_sent": sums(share[0] * 1.001, True), "sum_received": sums(share[0], True)}
        if bidir:
            end["sum_sent_bidir_reverse"] = sums(share[1] * 1.001, False)
            end["sum_received_bidir_reverse"] = sums(share[1], False)
        end["sender_tcp_congestion"] = "cubic"
        end["receiver_tcp_congestion"] = "cubic"
    cpu = values.get(CPU, 30.0) * rng.uniform(0.98, 1.02)
    end["cpu_utilization_percent"] = {"host_total": cpu, "host_user": cpu * 0.1, "host_system": cpu * 0.9,
                                      "remote_total": values.get(REMOTE_CPU, 5.0), "remote_user": 0.5,
                                      "remote_system": 4.5}  # fmt: skip
    now = int(time.time())
    doc = {
        "start": {
            "connected": [{"socket": 5, "local_host": "192.168.0.100", "local_port": 40000 + rng.randint(0, 9999),
                           "remote_host": host, "remote_port": port}],
            "version": "iperf 3.12", "system_info": "Linux am62xx-evm 6.6.32-ti #1 SMP PREEMPT aarch64",
            "timestamp": {"time": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(now)), "timesecs": now},
            "connecting_to": {"host": host, "port": port}, "cookie": "perfgateperfgateperfgateperfgate01234",
            "test_start": {"protocol": "UDP" if udp else "TCP", "num_streams": 1, "blksize": blksize, "omit": 0,
                           "duration": int(duration), "bytes": 0, "blocks": 0, "reverse": int(reverse), "tos": 0,
                           "target_bitrate": int(_rate(_opt(words, "-b", "--bitrate")) or 0),
                           "bidir": int(bidir), "fqrate": 0},
        },
        "intervals": [],
        "end": end,
    }  # fmt: skip
    return json.dumps(doc, indent="\t") + "\n"
