"""netperf 2.7 (HewlettPackard/netperf) with `-k` keyword output, as TI's guides run it, its `-o` CSV and its
default table; and `netserver`.

Checked against real netperf 2.7.0 runs made here (Debian's netperf is in non-free; tests/fixtures/netperf/real-*,
PROVENANCE.md); the first fixtures were reconstructed from the sources and say so. What a run prints:
- a banner: `MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : demo`
  (`TCP MAERTS`, `UDP STREAM`, `TCP REQUEST/RESPONSE ... : first burst 0`; `: histogram` with -j, `: demo` when
  built with --enable-demo as Debian's is);
- with `-k`: one `KEY=value` line per key: `DIRECTION=Send`, `THROUGHPUT=941.23` (10^6 bits/s by default; UDP: the
  rate the receiver got), `MEAN_LATENCY=...`, `LOCAL_CPU_UTIL=37.10` (-1.00 when not measured), `REMOTE_CPU_UTIL`,
  `LOCAL_BYTES_SENT`, `REMOTE_BYTES_RECVD`, `LOCAL_SEND_SIZE`; `THROUGHPUT_UNITS` only when asked for;
- with `-o`: a line of netperf's names (`Direction,Throughput,...,Remote Bytes Received,...`) and a line of values;
- neither: the test's table, units in its header (`10^6bits/sec`): TCP STREAM/MAERTS one row (throughput in the
  5th column, local and remote CPU % after it with -c/-C), UDP STREAM the sender's row then the receiver's (the
  receiver's rate is the throughput, the two message counts give the loss), REQUEST/RESPONSE a transaction rate;
- errors: `establish control: are you sure there is a netserver listening on ...`, `netperf: send_omni: ...`;
  `Packet rate control is not compiled in.` (-b/-w ignored: a rate-limited trial ran unlimited) is refused.
TI's bidirectional TCP figure runs TCP_STREAM and TCP_MAERTS at once; the output then holds two blocks. The same
test twice (three TCP_MAERTS runs one after the other in one log, as a Raspberry Pi 3 log showed them,
tests/fixtures/PUBLIC-OUTPUTS.md; made here: tests/fixtures/netperf/corpus/tcp-maerts-l1-three-runs.txt) is
several runs of one measurement: an error naming both banners, never their sum.

Metrics: `throughput (Mbits/sec)` (all blocks added: bidirectional = STREAM + MAERTS), `send throughput
(Mbits/sec)` / `receive throughput (Mbits/sec)` by DIRECTION, `cpu load (%)` (LOCAL_CPU_UTIL, the mean over the
blocks that measured it: concurrent tests each see the whole system), `remote cpu load (%)`, `mean latency (us)`;
UDP: `datagram size (bytes)` (LOCAL_SEND_SIZE), `packets per second (kPPS)` = throughput * 10^6 / 8 / datagram
/ 1000 (the guides' kPPS), `packet loss (%)` = (LOCAL_BYTES_SENT - REMOTE_BYTES_RECVD) / LOCAL_BYTES_SENT.
A request/response test gives `transaction rate (Trans/s)`, never a throughput. `netserver` prints `Starting
netserver with host ...`: recognised, no metric.
"""

from __future__ import annotations

import re
import shlex

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import CPU, DGRAM, ESCAPES, KPPS, LOSS, THROUGHPUT

SEND = "send throughput (Mbits/sec)"
RECEIVE = "receive throughput (Mbits/sec)"
REMOTE_CPU = "remote cpu load (%)"
LATENCY = "mean latency (us)"
TRANSACTION_RATE = "transaction rate (Trans/s)"

KEYS = (
    "DIRECTION,THROUGHPUT,MEAN_LATENCY,LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,"
    "LOCAL_BYTES_SENT,REMOTE_BYTES_RECVD,LOCAL_SEND_SIZE"
)
BANNER = re.compile(r"^(?:MIGRATED |OMNI )?(?P<proto>TCP|UDP|SCTP)?\s*(?P<test>[A-Z_/ ]*?)\s*TEST from ")
KEYVAL = re.compile(r"^([A-Z][A-Z0-9_]+)=(.*)$")
NETSERVER = re.compile(r"^Starting netserver with host ")
ERROR = re.compile(r"(establish control|establish_control|are you sure there is a netserver|^netperf: |"
                   r"recv_response|send_omni: |Connection refused|No route to host|invalid option|"
                   r"netperf: command not found)", re.I)  # fmt: skip
NOT_COMPILED = re.compile(r"^(Packet burst size|Packet rate control|Intervals|Histogram)\b.*\bnot compiled in", re.I)
NUMBERS = re.compile(r"^-?[\d.]+(\s+-?[\d.]+)*$")
TABLE_UNITS = re.compile(r"(10\^\d+bits/s(?:ec)?|[KMG]?Bytes/s(?:ec)?|per sec)")
UNITS = {"10^6bits/s": 1.0, "10^3bits/s": 1e-3, "10^9bits/s": 1e3, "10^0bits/s": 1e-6, "Bytes/s": 8 / 1e6,
         "KBytes/s": 1024 * 8 / 1e6, "MBytes/s": 2**20 * 8 / 1e6, "GBytes/s": 2**30 * 8 / 1e6}  # fmt: skip
TRANSACTIONS = "Trans/s"
# -o prints netperf's own names of the keys (a real netperf 2.7.0 run): the ones perfgate reads
CSV_NAMES = {"Direction": "DIRECTION", "Throughput": "THROUGHPUT", "Throughput Units": "THROUGHPUT_UNITS",
             "Mean Latency Microseconds": "MEAN_LATENCY", "Local CPU Util %": "LOCAL_CPU_UTIL",
             "Remote CPU Util %": "REMOTE_CPU_UTIL", "Local Bytes Sent": "LOCAL_BYTES_SENT",
             "Remote Bytes Received": "REMOTE_BYTES_RECVD", "Local Send Size": "LOCAL_SEND_SIZE"}  # fmt: skip


def _blocks(lines: list[str]) -> tuple[list[dict[str, str]], bool]:
    """One block of keys per test: `KEY=value` lines (-k), or a test's `-o` CSV or default table turned into the
    same keys."""
    blocks: list[dict[str, str]] = []
    cur: dict[str, str] | None = None
    body: dict[int, list[tuple[int, str]]] = {}  # block index -> its lines that are not KEY=value
    server = False
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if ERROR.search(s):
            raise ParseError(f"netperf failed: {s}", line=n)
        if NOT_COMPILED.match(s):
            raise ParseError(
                f"netperf ignored an option: {s!r} (this netperf was built without it, e.g. Debian's has no "
                "--enable-burst/--enable-intervals, so -b/-w did not limit the rate); use a netperf built with it",
                line=n,
            )
        if NETSERVER.match(s):
            server = True
            continue
        b = BANNER.match(s)
        if b:
            cur = {"_proto": b.group("proto") or "", "_test": b.group("test") or "", "_line": str(n)}
            blocks.append(cur)
            body[len(blocks) - 1] = []
            continue
        m = KEYVAL.match(s)
        if not m:
            if cur is not None:
                body[len(blocks) - 1].append((n, s))
            continue
        k, v = m.group(1), m.group(2).strip()
        if cur is None or k in cur:
            cur = {"_proto": "", "_test": "", "_line": str(n)}
            blocks.append(cur)
        cur[k] = v
    for i, rows in body.items():
        if rows and "THROUGHPUT" not in blocks[i]:
            blocks[i].update(_csv(rows) if "," in rows[0][1] else _table(blocks[i], rows))
    return blocks, server


def _csv(rows: list[tuple[int, str]]) -> dict[str, str]:
    """`-o`: a line of netperf's names of the keys, then a line of values."""
    if len(rows) < 2:
        raise ParseError("netperf -o output has its names but no values", line=rows[0][0])
    names, values = rows[0][1].split(","), rows[1][1].split(",")
    if len(names) != len(values):
        raise ParseError(f"netperf -o output has {len(names)} names and {len(values)} values", line=rows[1][0])
    return {CSV_NAMES[k.strip()]: v.strip() for k, v in zip(names, values, strict=True) if k.strip() in CSV_NAMES}


def _table(block: dict[str, str], rows: list[tuple[int, str]]) -> dict[str, str]:
    """The default table (no -k, no -o), as netperf 2.7.0 prints it (tests/fixtures/netperf/real-*):
    TCP STREAM/MAERTS `131072  16384  16384    2.00     10482.97` (+ local and remote CPU % with -c/-C);
    UDP STREAM the sender's line `212992    1472   2.00  909396  0  5349.36` then the receiver's
    `212992  2.00  286587  1685.80`; REQUEST/RESPONSE `16384  131072 1  1  2.00  122321.96` (transactions/s)."""
    test = f"{block['_proto']} {block['_test']}".strip()
    line = int(block["_line"])
    header = " ".join(text for _, text in rows if not NUMBERS.match(text))
    data = [(n, [float(x) for x in text.split()]) for n, text in rows if NUMBERS.match(text)]
    unit = TABLE_UNITS.search(header)

    def refuse(why: str) -> ParseError:
        return ParseError(f"netperf {test} table: {why}; run it with -k (netperf.KEYS) to be read", line=line)

    if not data or not unit:
        raise refuse("no row of figures under its header" if unit else "no units in its header")
    units = unit.group(1).removesuffix("ec") if "bits" in unit.group(1) or "Bytes" in unit.group(1) else TRANSACTIONS
    first = data[0][1]
    out = {"THROUGHPUT_UNITS": units}

    def cpu(row: list[float], at: int, key: str) -> None:
        if len(row) > at:
            out[key] = str(row[at])

    if "REQUEST/RESPONSE" in block["_test"]:
        if len(first) < 6 or units != TRANSACTIONS:
            raise refuse(f"a row of {len(first)} figures where a request/response row has 6 or more")
        out["THROUGHPUT"] = str(first[5])
        cpu(first, 6, "LOCAL_CPU_UTIL")
        cpu(first, 7, "REMOTE_CPU_UTIL")
    elif block["_proto"] == "UDP" and block["_test"] == "STREAM":
        if len(first) < 6 or len(data) < 2 or len(data[1][1]) < 4:
            raise refuse("not the sender's row of 6 figures and the receiver's row of 4")
        second = data[1][1]
        size = first[1]
        out.update(THROUGHPUT=str(second[3]), LOCAL_SEND_SIZE=str(size), _SEND=str(first[5] * UNITS.get(units, 0)))
        out.update(LOCAL_BYTES_SENT=str(first[3] * size), REMOTE_BYTES_RECVD=str(second[2] * size))
        cpu(first, 6, "LOCAL_CPU_UTIL")
        cpu(second, 4, "REMOTE_CPU_UTIL")
    elif block["_test"] in ("STREAM", "MAERTS"):
        if len(first) < 5:
            raise refuse(f"a row of {len(first)} figures where a stream row has 5 or more")
        out.update(THROUGHPUT=str(first[4]), DIRECTION="Send" if block["_test"] == "STREAM" else "Receive")
        cpu(first, 5, "LOCAL_CPU_UTIL")
        cpu(first, 6, "REMOTE_CPU_UTIL")
    else:
        raise refuse("a test whose table perfgate does not read")
    return out


def _num(block: dict[str, str], key: str) -> float | None:
    v = block.get(key)
    if v is None:
        return None
    try:
        return float(v)
    except ValueError:
        raise ParseError(f"netperf {key}={v!r} is not a number", line=int(block["_line"])) from None


def _scale(block: dict[str, str]) -> float | None:
    """Mbit/s per unit of THROUGHPUT; None for a transaction rate."""
    units = block.get("THROUGHPUT_UNITS") or (TRANSACTIONS if "REQUEST/RESPONSE" in block["_test"] else "10^6bits/s")
    if units == TRANSACTIONS:
        return None
    if units not in UNITS:
        raise ParseError(f"netperf throughput units {units!r} are not known", line=int(block["_line"]))
    return UNITS[units]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
    blocks, server = _blocks(lines)
    results = [b for b in blocks if "THROUGHPUT" in b]
    if not results:
        if server and not blocks:
            return {}
        raise ParseError(
            "no netperf result (no THROUGHPUT= line of -k, no -o values, no table under a test banner)",
            line=len(lines) or None,
        )
    seen: dict[tuple[str, str, str], str] = {}
    for b in results:
        which = (b["_proto"], b["_test"], b.get("DIRECTION", ""))
        if which in seen:
            name = " ".join(w for w in which[:2] if w) or "netperf"
            raise ParseError(
                f"netperf printed two {name} results (lines {seen[which]} and {b['_line']}): several runs of one "
                "test in one output; which one is the result?",
                line=int(b["_line"]),
            )
        seen[which] = b["_line"]
    udp_cmd = bool(command and "UDP_STREAM" in command)
    out: dict[str, float] = {}
    total: float | None = None
    cpus: list[float] = []
    remote: list[float] = []
    for b in results:
        thr = _num(b, "THROUGHPUT") or 0.0
        scale = _scale(b)
        if scale is None:
            out[TRANSACTION_RATE] = out.get(TRANSACTION_RATE, 0.0) + thr
        else:
            thr *= scale
            total = (total or 0.0) + thr
            direction = b.get("DIRECTION", "")
            udp = b["_proto"] == "UDP" or (udp_cmd and not b["_proto"])
            if "_SEND" in b:  # the table's sender row
                out[SEND] = out.get(SEND, 0.0) + float(b["_SEND"])
            elif udp:  # UDP's THROUGHPUT is what arrived: what was sent is that times the bytes sent per received
                sent, got = _num(b, "LOCAL_BYTES_SENT"), _num(b, "REMOTE_BYTES_RECVD")
                if sent and got:
                    out[SEND] = out.get(SEND, 0.0) + thr * sent / got
            elif direction in ("Send", "Receive"):
                key = SEND if direction == "Send" else RECEIVE
                out[key] = out.get(key, 0.0) + thr
        for name, sink in (("LOCAL_CPU_UTIL", cpus), ("REMOTE_CPU_UTIL", remote)):
            v = _num(b, name)
            if v is not None and v >= 0:
                sink.append(v)
        lat = _num(b, "MEAN_LATENCY")
        if lat is not None and lat >= 0:
            out[LATENCY] = lat
        if scale is not None and (b["_proto"] == "UDP" or (udp_cmd and not b["_proto"])):
            size = _num(b, "LOCAL_SEND_SIZE")
            if size and size > 0:
                out[DGRAM] = size
                out[KPPS] = thr * 1e6 / 8 / size / 1000.0
            sent, got = _num(b, "LOCAL_BYTES_SENT"), _num(b, "REMOTE_BYTES_RECVD")
            if sent and sent > 0 and got is not None and got >= 0:
                out[LOSS] = max(0.0, (sent - got) / sent * 100.0)
    if total is not None:
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


CARD = Card("netperf", parse, binaries=("netperf",))
