"""ALSA capture and playback throughput (bits/s) and CPU load, as the guides measured them.

Two forms are read:
- TI ltp-ddt `alsa_perf_tests` TRACE LOG lines:
  `|TRACE LOG|Read: No. of bits/Sec | 1411175|` and `|TRACE LOG|Read: percentage cpu load | 0.48%|`
  (capture: `Read:`; playback: `write:`);
- `/usr/bin/time -v arecord|aplay ... -s <frames> -c <channels> -f S16_LE ...` (the alternative without ltp-ddt):
  bits/s = frames x channels x sample bits / elapsed wall-clock time; CPU load = time's "Percent of CPU this job
  got" (whole percent only).

Metrics: `throughput (bits/sec)` and `cpu load (%)`.
"""

from __future__ import annotations

import re
import shlex

from perfgate.errors import ParseError
from perfgate.tools.card import Card

TRACE_BITS = re.compile(r"\|TRACE LOG\|\s*(?P<dir>read|write):\s*No\. of bits/Sec\s*\|\s*(?P<v>[\d.]+)\s*\|", re.I)
TRACE_CPU = re.compile(
    r"\|TRACE LOG\|\s*(?P<dir>read|write):\s*percentage cpu load\s*\|\s*(?P<v>[\d.]+)\s*%?\s*\|", re.I
)
ELAPSED = re.compile(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\):\s*(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)")
PERCENT = re.compile(r"Percent of CPU this job got:\s*(\d+)%")
FAILURE = re.compile(r"audio open error|No such file or directory|Device or resource busy|error|not found", re.I)

THROUGHPUT = "throughput (bits/sec)"
CPU = "cpu load (%)"
SAMPLE_BITS = {"S8": 8, "U8": 8, "S16_LE": 16, "S16_BE": 16, "S24_LE": 32, "S24_3LE": 24, "S32_LE": 32}


def _first_failure(lines: list[str]) -> tuple[int, str] | None:
    for n, line in enumerate(lines, 1):
        if FAILURE.search(line):
            return n, line.strip()
    return None


def aplay_args(command: str) -> dict[str, str]:
    """The arecord/aplay options that fix the amount of data: -s frames, -c channels, -f format, -r rate."""
    try:
        args = shlex.split(command)
    except ValueError:
        args = command.split()
    out: dict[str, str] = {}
    longs = {"--samples": "s", "--channels": "c", "--format": "f", "--rate": "r"}
    for i, a in enumerate(args):
        if a in ("-s", "-c", "-f", "-r") and i + 1 < len(args):
            out[a[1]] = args[i + 1]
        elif "=" in a and a.split("=", 1)[0] in longs:
            out[longs[a.split("=", 1)[0]]] = a.split("=", 1)[1]
    return out


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = text.splitlines()
    out: dict[str, float] = {}
    for line in lines:
        m = TRACE_BITS.search(line)
        if m:
            out[THROUGHPUT] = float(m["v"])
        m = TRACE_CPU.search(line)
        if m:
            out[CPU] = float(m["v"])
    if out:
        return out
    elapsed = next((m for m in map(ELAPSED.search, lines) if m), None)
    if elapsed and command:
        a = aplay_args(command)
        if "s" not in a:
            raise ParseError("alsa: timed arecord/aplay needs `-s <frames>` in its command to compute bits/s", line=1)
        seconds = int(elapsed[1] or 0) * 3600 + int(elapsed[2]) * 60 + float(elapsed[3])
        if seconds <= 0:
            raise ParseError("alsa: elapsed time is zero", line=lines.index(elapsed.string) + 1)
        bits = SAMPLE_BITS.get(a.get("f", "U8").upper(), 8)
        out[THROUGHPUT] = round(int(a["s"]) * int(a.get("c", "1")) * bits / seconds, 2)
        pct = next((m for m in map(PERCENT.search, lines) if m), None)
        if pct:
            out[CPU] = float(pct[1])
        return out
    fail = _first_failure(lines)
    if fail:
        raise ParseError(f"alsa: the transfer failed: {fail[1]}", line=fail[0])
    raise ParseError("alsa: no '|TRACE LOG|... No. of bits/Sec' line and no `time -v` elapsed time", line=1)


CARD = Card("alsa", parse, binaries=("aplay", "arecord", "alsa_perf_tests"))
