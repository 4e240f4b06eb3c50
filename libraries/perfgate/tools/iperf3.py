"""iperf3 (esnet/iperf): network throughput, read from `-J` (JSON) output, or from the text summary.

JSON (verified on iperf 3.12 captures in tests/fixtures/iperf3/): `start.test_start` (protocol, blksize, duration,
reverse, bidir), `end.sum_sent` / `end.sum_received` (TCP and, since 3.x, UDP), `end.sum` (UDP: `lost_percent`,
`packets`, `lost_packets`, `seconds`), `end.sum_sent_bidir_reverse` / `end.sum_received_bidir_reverse` with
`--bidir`, `end.cpu_utilization_percent.host_total` / `.remote_total`. A failed run prints `{"error": "..."}`.
Text: `[  5]   0.00-2.00   sec  4.47 GBytes  19.2 Gbits/sec    7             sender` and `... receiver`; with -P the
`[SUM]` lines; with --bidir `[  5][TX-C] ...` and `[  7][RX-C] ...` (both directions added).

UDP text summaries carry `Jitter Lost/Total Datagrams`: `... 0.014 ms  0/763 (0%)  receiver` (per stream and
`[SUM]`); loss and packets per second are read from those counts (the printed percentage is rounded).

One stream is often printed by both ends (verified on iperf 3.12 captures): the board's `iperf3 -s` log and the
client's output in one log (TI's docs show both), or the client's `--get-server-output` section. A stream seen
twice is counted once when both lines report it (the same figures, or the same bytes and datagrams timed by each end:
iperf 3.1's server says 0.00-10.04 where its client says 0.00-10.00), and is an error naming both lines when they
disagree. A single run has one summary line per direction and side (the `[SUM]` line with -P), so that is what is
compared, not the stream id: the server numbers its streams its own way (`-P 2`: client [5] [7], server [5] [6];
`--bidir`: the server's [8][TX-S] is the client's [7][RX-C]; iperf 3.1: client [4], server [5]). Where the output
says which end printed a line the client's is read.

Two runs in one output (`iperf3 -c X; iperf3 -R -c X`: two `Connecting to host` headers, a server log of two tests,
two JSON documents one after the other, or one stream reported with two sets of figures) are an error naming both,
never the last one read silently.

`-T <title>` / `--title` puts `<title>:  ` before every text line (iperf_printf; seen in TI's CPSW CBS guide,
`iperf3 -c ... -Tpri7`): the prefix is taken off. Several titles in one output are several concurrent runs (the guide
starts three clients at once): an error naming them, not one of them picked.

Metrics (documented names): `throughput (Mbits/sec)` what the receiving end got (with `--bidir`: both directions
added, as the guides' bidirectional figure), `send throughput (Mbits/sec)`, `cpu load (%)` (this host: the client,
which TI runs on the board), `remote cpu load (%)`; UDP: `packet loss (%)`, `packets per second (kPPS)` (datagrams
received per second / 1000), `datagram size (bytes)`.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
from dataclasses import dataclass

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import CPU, DGRAM, ESCAPES, KPPS, LOSS, THROUGHPUT

SEND = "send throughput (Mbits/sec)"
REMOTE_CPU = "remote cpu load (%)"

TEXT_SUM = re.compile(
    r"^\[\s*(?P<stream>\d+|SUM)\](?:\[(?P<role>[TR]X-[CS])\])?\s+(?P<figures>(?P<start>[\d.]+)-(?P<end>[\d.]+)\s+sec\s+"
    r"(?P<transfer>[\d.]+\s+\w?Bytes)\s+(?P<rate>[\d.]+)\s+(?P<unit>\w?)bits/sec.*?)\s*\b(?P<side>sender|receiver)\s*$"
)
LOST = re.compile(r"(-?\d+)/(\d+)\s+\(([-\d.e+]+)%\)")
TEXT_ERROR = re.compile(r"^iperf3: (error|interrupt).*", re.I)
BITS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


CLIENT_HEADER = re.compile(r"^Connecting to host \S+, port \d+")
SERVER_HEADER = re.compile(r"^Accepted connection from \S+, port \d+")
SERVER_SECTION = re.compile(r"^(Server output:|Server listening on )")
# one stream seen from either end: the client's TX-C is the server's RX-S (client to server), RX-C is TX-S
DIRECTION = {"": "", "TX-C": "up", "RX-S": "up", "RX-C": "down", "TX-S": "down"}


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
    """Two runs in one output (two client headers, or a server log of two tests) is an error naming both. A client
    header and a server header are the two ends of one run (a log of both, or --get-server-output); the same
    `Accepted connection from <host>, port <its port>` twice is one connection (the server's log and the client's
    --get-server-output section of it)."""
    for pattern in (CLIENT_HEADER, SERVER_HEADER):
        found = [(n, ln.strip()) for n, ln in enumerate(lines, 1) if pattern.match(ln.strip())]
        if pattern is SERVER_HEADER:  # one connection (its client port) in the server's log and --get-server-output
            found = [f for i, f in enumerate(found) if f[1] not in {g[1] for g in found[:i]}]
        if len(found) > 1:
            (n1, a), (n2, b) = found[0], found[1]
            raise ParseError(
                f"two iperf3 runs in one output: a header at line {n1} ({a!r}) and another at line {n2} ({b!r}); "
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
        if "packets" in udp_sum and seconds > 0:  # no packet carried: 0 packets/s (INVALID, run again), not none
            out[KPPS] = max(packets - lost, 0.0) / seconds / 1000.0
    if udp and test.get("blksize"):
        out[DGRAM] = float(test["blksize"])
    return out


@dataclass(frozen=True)
class _Summary:
    """A final summary line: `[  5]   0.00-2.00   sec  23.8 MBytes   100 Mbits/sec  0.014 ms  0/763 (0%)  receiver`."""

    line: int
    stream: str  # "5", "SUM"
    direction: str  # "" (one way), "up" (client to server), "down" (server to client) with --bidir
    side: str  # sender | receiver
    end: str  # "client", "server" (its role's -C/-S, else the header above it), "" when the output does not say
    figures: str  # what it reports, spaces squeezed
    start: float
    transfer: str  # `1.09 GBytes`: what moved, whichever end counted the time
    mbps: float
    seconds: float
    lost: int | None
    total: int | None

    @property
    def name(self) -> str:
        return f"[{self.stream}]{f' ({self.direction})' if self.direction else ''} {self.side}"

    @property
    def empty(self) -> bool:
        """`0.00 Bytes`: the end that did not send prints a sender line with nothing (iperf 3.1 servers do)."""
        return float(self.transfer.split()[0]) == 0.0


def _summaries(lines: list[str]) -> list[_Summary]:
    rows = []
    end = ""
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if CLIENT_HEADER.match(line):
            end = "client"
        elif SERVER_HEADER.match(line) or SERVER_SECTION.match(line):
            end = "server"
        m = TEXT_SUM.match(line)
        if not m:
            continue
        role = m["role"] or ""
        lost = LOST.search(m["figures"])
        rows.append(
            _Summary(
                line=n,
                stream=m["stream"],
                direction=DIRECTION[role],
                side=m["side"],
                end={"C": "client", "S": "server"}.get(role[-1:], end),
                figures=" ".join(m["figures"].split()),
                start=float(m["start"]),
                transfer=" ".join(m["transfer"].split()),
                mbps=float(m["rate"]) * BITS[m["unit"]] / 1e6,
                seconds=float(m["end"]) - float(m["start"]),
                lost=int(lost.group(1)) if lost else None,
                total=int(lost.group(2)) if lost else None,
            )
        )
    return rows


def _one_stream(a: _Summary, b: _Summary) -> bool:
    """Whether two lines report one stream: the same figures; or, when the two ends timed it differently (an iperf
    3.1 server's `0.00-10.04` beside its client's `0.00-10.00`), the same bytes and datagrams at rates that agree
    with those times."""
    if a.figures == b.figures:
        return True
    if (a.start, a.transfer, a.lost, a.total) != (b.start, b.transfer, b.lost, b.total) or a.seconds == b.seconds:
        return False
    moved = (a.mbps * a.seconds, b.mbps * b.seconds)
    return abs(moved[0] - moved[1]) <= 0.02 * max(moved)


def _once(rows: list[_Summary]) -> list[_Summary]:
    """One line per direction and side. A stream printed twice (the board's `iperf3 -s` summary and the client's in
    one log, --get-server-output) is counted once when both lines report it, and is an error naming both when they
    disagree (two runs, or the two ends of different runs). The stream id is not what says it: the server numbers
    its streams its own way (-P 2: the client's [5] [7] are the server's [5] [6]; --bidir: the client's [7][RX-C]
    is the server's [8][TX-S]; iperf 3.1: the client's [4] is the server's [5]). Where the output says which end
    printed a line, the client's is read."""
    groups: dict[tuple[str, str], list[_Summary]] = {}
    for row in rows:
        groups.setdefault((row.direction, row.side), []).append(row)
    out = []
    for group in groups.values():
        full = [r for r in group if not r.empty] or group
        first = full[0]
        for row in full[1:]:
            if not _one_stream(first, row):
                raise ParseError(
                    f"iperf3 reports {first.name} at line {first.line} ({first.figures}) and {row.name} at line "
                    f"{row.line} ({row.figures}), which are not one stream seen from both ends: two runs (or the "
                    "two ends of different runs) in one output; give each run its own output",
                    line=row.line,
                )
        out.append(next((r for r in full if r.end == "client"), first))
    return out


def _datagram(command: str | None) -> float | None:
    try:
        words = shlex.split(command or "")
    except ValueError:
        return None
    for a, b in itertools.pairwise(words):
        if a in ("-l", "--length") and b.isdigit():
            return float(b)
    return None


def _from_text(lines: list[str], command: str | None = None) -> dict[str, float]:
    """The summary lines: the `[SUM]` lines of a parallel (-P) run, else every stream's, each stream once; with
    --bidir (`[  5][TX-C]`, `[  7][RX-C]`) both directions added, as the JSON reading does. UDP (a `lost/total (x%)`
    on the receiver lines): packet loss and packets per second from the datagram counts."""
    rows = _summaries(lines)
    if any(r.stream == "SUM" for r in rows):
        rows = [r for r in rows if r.stream == "SUM"]  # the server numbers its streams its own way: read the sums
    rows = _once(rows)
    received = [r for r in rows if r.side == "receiver"]
    sent = [r for r in rows if r.side == "sender"]
    if not received:
        return {}
    out = {THROUGHPUT: sum(r.mbps for r in received)}
    if sent:
        out[SEND] = sum(r.mbps for r in sent)
    counted = [r for r in received if r.total is not None and r.lost is not None]
    if counted:
        total = sum(r.total or 0 for r in counted)
        lost = sum(r.lost or 0 for r in counted)
        if total > 0:
            out[LOSS] = 100.0 * lost / total
        if all(r.seconds > 0 for r in counted):
            out[KPPS] = sum(((r.total or 0) - (r.lost or 0)) / r.seconds for r in counted) / 1000.0
        size = _datagram(command)
        if size:
            out[DGRAM] = size
    return out


TITLED = re.compile(r"^(?P<title>[^\s\[:{]+):  (?=\[|- - -|Connecting to host|Accepted connection|iperf )")


def _untitled(lines: list[str]) -> list[str]:
    """The lines without the `<title>:  ` prefix of `iperf3 -T <title>`; an error when several titles share them."""
    titles: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        m = TITLED.match(line)
        if m:
            titles.setdefault(m["title"], n)
    if not titles:
        return lines
    if len(titles) > 1:
        named = ", ".join(f"{t!r} (line {n})" for t, n in titles.items())
        raise ParseError(
            f"several iperf3 runs titled with -T in one output ({named}): which one is the result?",
            line=sorted(titles.values())[1],
        )
    prefix = f"{next(iter(titles))}:  "
    return [line[len(prefix) :] if line.startswith(prefix) else line for line in lines]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    clean = "\n".join(ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines())
    lines = _untitled(clean.splitlines())
    clean = "\n".join(lines)
    for n, line in enumerate(lines, 1):
        if TEXT_ERROR.match(line.strip()):
            raise ParseError(f"iperf3 failed: {line.strip()}", line=n)
    found = _json(clean)
    if not found:
        _runs(lines)
    out = _from_json(*found) if found else _from_text(lines, command)
    if not out:
        raise ParseError("no iperf3 result (no JSON `end`, no sender/receiver summary line)", line=len(lines) or None)
    return out


CARD = Card("iperf3", parse, binaries=("iperf3",))
