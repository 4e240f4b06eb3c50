"""What `netperf` prints on the simulated board: the renderer for perfgate.tools.netperf's parser.

Moved here from perfgate/tools/netperf.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re

from perfgate.tools.common import CPU, KPPS, LOSS, THROUGHPUT
from perfgate.tools.netperf import KEYS, REMOTE_CPU, invocations, options


def wait_seconds(text: str) -> float:
    """netperf -w: a number is milliseconds; `s`, `m` (ms) and `u` (us) suffixes as netperf reads them."""
    m = re.fullmatch(r"([\d.]+)\s*(s|ms|m|us|u)?", text.strip())
    if not m:
        return 0.01
    scale = {"s": 1.0, "ms": 1e-3, "m": 1e-3, "us": 1e-6, "u": 1e-6, None: 1e-3}[m.group(2)]
    return float(m.group(1)) * scale


def offered_rate(glob: dict[str, str], size: int) -> float | None:
    """bits/s offered by `-b <burst> -w <wait>` with `size`-byte datagrams, None when the run is not limited."""
    if "-b" not in glob or "-w" not in glob:
        return None
    return int(glob["-b"]) * size * 8 / wait_seconds(glob["-w"])


def trial(command: str) -> tuple[str, float] | None:
    """A rate-limited UDP trial (`-b <burst> -w <wait>`): the command without its rate, and the rate offered (bits/s);
    None for any other run (perfgate.sim.answers holds one draw of the board over the trials of one rate search)."""
    for words in invocations(command):
        glob, test = options(words)
        if not words[0].endswith("netperf") or not glob.get("-t", "").upper().startswith("UDP"):
            continue
        offered = offered_rate(glob, int(test.get("-m", "1472")))
        if offered:
            rate = ("-b", "-w")
            rest = [w for i, w in enumerate(words) if w not in rate and (i == 0 or words[i - 1] not in rate)]
            return " ".join(rest), offered
    return None


def _banner(test: str, host: str, interval: bool, local: str = "") -> str:
    """netperf's test banner. Unbound, the local end prints as `0.0.0.0 (0.0.0.0)` (TI's logs); bound with the
    global `-L <address>`, it prints as the remote end does, `<address> ()` (as a real netperf 2.7.0 run prints it:
    tests/fixtures/netperf/real-tcp-stream-bound-L-k.txt)."""
    proto, _, kind = test.partition("_")
    extra = " : interval" if interval else ""
    source = f"{local} ()" if local else "0.0.0.0 (0.0.0.0)"
    return (f"MIGRATED {proto} {kind} TEST from {source} port 0 AF_INET to {host} () port 0 AF_INET"
            f" : histogram{extra}")  # fmt: skip


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """netperf 2.7's output for each netperf invocation in `command` (two at once for TI's bidirectional TCP);
    values: `throughput (Mbits/sec)` (the total, or for a rate-limited UDP trial the board's loss-free capacity),
    `cpu load (%)`, `remote cpu load (%)`, for an unlimited UDP run `packet loss (%)`, and for UDP optionally
    `packets per second (kPPS)`: the board then carries the lower of the two rates."""
    runs = [w for w in invocations(command) if w[0].endswith("netperf")]
    servers = [w for w in invocations(command) if w[0].endswith("netserver")]
    out: list[str] = []
    for _ in servers:
        out.append("Starting netserver with host 'IN(6)ADDR_ANY' port '12865' and family AF_UNSPEC")
    total = values.get(THROUGHPUT, 100.0) * rng.uniform(0.995, 1.005)
    weights = [rng.uniform(0.9, 1.1) for _ in runs]
    for words, weight in zip(runs, weights, strict=True):
        glob, test = options(words)
        name = glob.get("-t", "TCP_STREAM").upper()
        duration = float(glob.get("-l", "10"))
        host = glob.get("-H", "192.168.0.1")
        keys = test.get("-k", KEYS).split(",")
        udp = name.startswith("UDP")
        size = int(test.get("-m", "1472" if udp else "131072"))
        share = total * weight / sum(weights)
        # the board forwards at most so many packets: the lower limit holds. A published 0 is no limit (zero
        # packets carry no bits): the figure was too small for the guide's table, as IPSec aes192 on am62x.
        if udp and values.get(KPPS, 0.0) > 0:
            share = min(share, values[KPPS] * 1e3 * size * 8 / 1e6 * rng.uniform(0.995, 1.005))
        sent_bps = got_bps = share * 1e6
        offered = offered_rate(glob, size) if udp else None
        if udp and LOSS in values:
            loss = max(values[LOSS] * rng.uniform(0.98, 1.02), 0.0)
            sent_bps = got_bps / (1 - min(loss, 99.0) / 100.0)
        elif offered is not None:
            sent_bps = offered
            got_bps = min(offered, share * 1e6)
        cpu = values.get(CPU, 30.0) * rng.uniform(0.98, 1.02) if "-c" in glob else -1.0
        rcpu = values.get(REMOTE_CPU, values.get(CPU, 30.0)) * rng.uniform(0.98, 1.02) if "-C" in glob else -1.0
        receive = name.endswith("MAERTS")
        field = {
            "DIRECTION": "Receive" if receive else "Send",
            "THROUGHPUT": f"{got_bps / 1e6:.2f}",
            "MEAN_LATENCY": f"{rng.uniform(80, 400):.2f}",
            "LOCAL_CPU_UTIL": f"{cpu:.2f}",
            "REMOTE_CPU_UTIL": f"{rcpu:.2f}",
            "LOCAL_BYTES_SENT": "0" if receive else str(int(sent_bps * duration / 8 / size) * size),
            "REMOTE_BYTES_RECVD": "0" if receive else str(int(got_bps * duration / 8 / size) * size),
            "LOCAL_SEND_SIZE": "0" if receive else str(size),
            "THROUGHPUT_UNITS": "10^6bits/s",
        }
        out.append(_banner(name, host, offered is not None, glob.get("-L", "").split(",")[0]))
        out += [f"{k}={field.get(k, '0')}" for k in keys]
    return "\n".join(out) + "\n"
