"""netperf 2.7 (HewlettPackard/netperf) with `-k` keyword output, as TI's guides run it; and `netserver`.

netperf is not packaged by Debian, so no real capture could be made here: the format below is reconstructed from
netperf's sources (src/nettest_omni.c `print_omni_keyword`, src/netlib.c) and the guides' commands, and the
fixtures in tests/fixtures/netperf/ say so. What a run prints:
- a banner: `MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 192.168.0.1 () port 0 AF_INET
  : histogram` (`TCP MAERTS`, `UDP STREAM`; `: interval` is added with `-b`/`-w`);
- one `KEY=value` line per key named with `-k`: `DIRECTION=Send`, `THROUGHPUT=941.23` (10^6 bits/s by default),
  `MEAN_LATENCY=...`, `LOCAL_CPU_UTIL=37.10` (-1 when not measured: no `-c`), `REMOTE_CPU_UTIL=...` (`-C`),
  `LOCAL_BYTES_SENT`, `REMOTE_BYTES_RECVD`, `LOCAL_SEND_SIZE`, optionally `THROUGHPUT_UNITS=10^6bits/s`.
- errors: `establish control: are you sure there is a netserver listening on ...`, `netperf: send_omni: ...`.
TI's bidirectional TCP figure runs TCP_STREAM and TCP_MAERTS at once; the output then holds two blocks.

Metrics: `throughput (Mbits/sec)` (all blocks added: bidirectional = STREAM + MAERTS), `send throughput
(Mbits/sec)` / `receive throughput (Mbits/sec)` by DIRECTION, `cpu load (%)` (LOCAL_CPU_UTIL, the mean over the
blocks that measured it: concurrent tests each see the whole system), `remote cpu load (%)`, `mean latency (us)`;
UDP: `datagram size (bytes)` (LOCAL_SEND_SIZE), `packets per second (kPPS)` = throughput * 10^6 / 8 / datagram
/ 1000 (the guides' kPPS), `packet loss (%)` = (LOCAL_BYTES_SENT - REMOTE_BYTES_RECVD) / LOCAL_BYTES_SENT.
`netserver` prints `Starting netserver with host ...`: recognised, no metric.
"""

from __future__ import annotations

import re
import shlex

from perfgate.errors import ParseError
from perfgate.tools.common import CPU, DGRAM, ESCAPES, KPPS, LOSS, THROUGHPUT

SEND = "send throughput (Mbits/sec)"
RECEIVE = "receive throughput (Mbits/sec)"
REMOTE_CPU = "remote cpu load (%)"
LATENCY = "mean latency (us)"

KEYS = (
    "DIRECTION,THROUGHPUT,MEAN_LATENCY,LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,"
    "LOCAL_BYTES_SENT,REMOTE_BYTES_RECVD,LOCAL_SEND_SIZE"
)
BANNER = re.compile(r"^(?:MIGRATED |OMNI )?(?P<proto>TCP|UDP|SCTP)?\s*(?P<test>[A-Z_ ]*?)\s*TEST from ")
KEYVAL = re.compile(r"^([A-Z][A-Z0-9_]+)=(.*)$")
NETSERVER = re.compile(r"^Starting netserver with host ")
ERROR = re.compile(r"(establish control|establish_control|are you sure there is a netserver|^netperf: |"
                   r"recv_response|send_omni: |Connection refused|No route to host|invalid option|"
                   r"netperf: command not found)", re.I)  # fmt: skip
UNITS = {"10^6bits/s": 1.0, "10^3bits/s": 1e-3, "10^9bits/s": 1e3, "10^0bits/s": 1e-6, "Trans/s": 1.0}


def _blocks(lines: list[str]) -> tuple[list[dict[str, str]], bool]:
    blocks: list[dict[str, str]] = []
    cur: dict[str, str] | None = None
    server = False
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if ERROR.search(s):
            raise ParseError(f"netperf failed: {s}", line=n)
        if NETSERVER.match(s):
            server = True
            continue
        b = BANNER.match(s)
        if b:
            cur = {"_proto": b.group("proto") or "", "_test": b.group("test") or "", "_line": str(n)}
            blocks.append(cur)
            continue
        m = KEYVAL.match(s)
        if not m:
            continue
        k, v = m.group(1), m.group(2).strip()
        if cur is None or k in cur:
            cur = {"_proto": "", "_test": "", "_line": str(n)}
            blocks.append(cur)
        cur[k] = v
    return blocks, server


def _num(block: dict[str, str], key: str) -> float | None:
    v = block.get(key)
    if v is None:
        return None
    try:
        return float(v)
    except ValueError:
        raise ParseError(f"netperf {key}={v!r} is not a number", line=int(block["_line"])) from None


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
    blocks, server = _blocks(lines)
    results = [b for b in blocks if "THROUGHPUT" in b]
    if not results:
        if server and not blocks:
            return {}
        raise ParseError("no netperf result (no THROUGHPUT= line; was it run with -k?)", line=len(lines) or None)
    udp_cmd = bool(command and "UDP_STREAM" in command)
    out: dict[str, float] = {}
    total = 0.0
    cpus: list[float] = []
    remote: list[float] = []
    for b in results:
        thr = _num(b, "THROUGHPUT") or 0.0
        thr *= UNITS.get(b.get("THROUGHPUT_UNITS", "10^6bits/s"), 1.0)
        total += thr
        direction = b.get("DIRECTION", "")
        if direction in ("Send", "Receive"):
            key = SEND if direction == "Send" else RECEIVE
            out[key] = out.get(key, 0.0) + thr
        for name, sink in (("LOCAL_CPU_UTIL", cpus), ("REMOTE_CPU_UTIL", remote)):
            v = _num(b, name)
            if v is not None and v >= 0:
                sink.append(v)
        lat = _num(b, "MEAN_LATENCY")
        if lat is not None and lat >= 0:
            out[LATENCY] = lat
        if b["_proto"] == "UDP" or (udp_cmd and not b["_proto"]):
            size = _num(b, "LOCAL_SEND_SIZE")
            if size and size > 0:
                out[DGRAM] = size
                out[KPPS] = thr * 1e6 / 8 / size / 1000.0
            sent, got = _num(b, "LOCAL_BYTES_SENT"), _num(b, "REMOTE_BYTES_RECVD")
            if sent and sent > 0 and got is not None and got >= 0:
                out[LOSS] = max(0.0, (sent - got) / sent * 100.0)
    out[THROUGHPUT] = total
    if cpus:
        out[CPU] = sum(cpus) / len(cpus)
    if remote:
        out[REMOTE_CPU] = sum(remote) / len(remote)
    return out


def invocations(command: str) -> list[list[str]]:
    """The netperf (and netserver) invocations in a shell command line, each as its words."""
    spaced = re.sub(r"(&&|;|&|\|\|)", r" \1 ", command)
    try:
        words = shlex.split(spaced)
    except ValueError:
        words = spaced.split()
    out: list[list[str]] = []
    cur: list[str] = []
    for w in [*words, ";"]:
        if w in (";", "&", "&&", "||", "{", "}", "(", ")"):
            start = next((i for i, x in enumerate(cur) if x.endswith(("netperf", "netserver"))), None)
            if start is not None:
                out.append(cur[start:])
            cur = []
        else:
            cur.append(w)
    return out


def options(words: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Global options and test-specific options (after `--`) of one netperf invocation."""
    glob: dict[str, str] = {}
    test: dict[str, str] = {}
    target = glob
    flags = {"-j", "-c", "-C", "-4", "-6", "-D", "-v"}
    i = 1
    while i < len(words):
        w = words[i]
        if w == "--":
            target = test
        elif w.startswith("-") and (w in flags and target is glob):
            target[w] = "1"
        elif w.startswith("-") and i + 1 < len(words):
            target[w] = words[i + 1]
            i += 1
        i += 1
    return glob, test
