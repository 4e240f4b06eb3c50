"""What `iperf3` prints on the simulated board: the renderer for perfgate.tools.iperf3's parser.

Moved here from perfgate/tools/iperf3.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import json
import random
import re
import shlex
import time

from perfgate.tools.common import CPU, KPPS, LOSS, THROUGHPUT
from perfgate.tools.iperf3 import BITS, REMOTE_CPU


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


def trial(command: str) -> tuple[str, float] | None:
    """A rate-limited UDP trial (`-u -b <rate>`, not 0): the command without its rate, and the rate (bits/s); None for
    any other run (perfgate.sim.answers holds one draw of the board over the trials of one rate search)."""
    words = _args(command)
    if not ("-u" in words or "--udp" in words):
        return None
    rates = ("-b", "--bitrate", "--bandwidth")
    offered = _rate(_opt(words, *rates))
    if not offered:
        return None
    rest = [w for i, w in enumerate(words) if w not in rates and (i == 0 or words[i - 1] not in rates)
            and not w.startswith(tuple(f"{r}=" for r in rates if r.startswith("--")))]  # fmt: skip
    return " ".join(rest), offered


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
    # -B <address>[%<dev>]: the bound address is the local one (real: tests/fixtures/iperf3/*bind-B*)
    local = (_opt(words, "-B", "--bind", default="192.168.0.100") or "192.168.0.100").split("%")[0]
    port = int(_opt(words, "-p", "--port", default="5201") or 5201)
    blksize = int(_opt(words, "-l", "--length", default="1460" if udp else "131072") or 131072)
    capacity = values.get(THROUGHPUT, 100.0) * 1e6
    # the board forwards at most so many packets: the lower limit holds. A published 0 is no limit (zero
    # packets carry no bits): the figure was too small for the guide's table, as IPSec aes192 on am62x.
    if udp and values.get(KPPS, 0.0) > 0:
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
            loss = max(0.0, (offered - capacity * noise) / offered * 100.0) if offered else 0.0
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
            "connected": [{"socket": 5, "local_host": local, "local_port": 40000 + rng.randint(0, 9999),
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
