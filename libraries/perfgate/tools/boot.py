"""Boot time from a serial log with host-side timestamps, as the guides define it: from `Starting kernel ...` on the
console to the Linux prompt (the login prompt with the default rootfs, the shell prompt with `init=/bin/sh`),
averaged over the boot cycles in the log.

The log is what perfgate.board writes for each boot-time run (the format of grabserial -t -d: every line prefixed
with the host time its first character arrived and the delta to the previous line):

    # perfgate boot capture: board=am62xx_lp_sk variant=default cycles=3
    # start: Starting kernel ...
    # end: login:
    # time-scale: 20
    # cycle 1
    [0:00:00.000000 0.000000] U-Boot SPL 2024.04 ...
    [0:00:00.310245 0.002101] Starting kernel ...
    [0:00:01.174322 0.000210] am62xx-evm login:

`time-scale` (default 1) multiplies host seconds back to board seconds when the board ran faster than real time
(the simulated board at --speed S). Without `# start`/`# end` headers the markers default to `Starting kernel` and
`login:`. Metrics: `boot time (sec)` (mean), `boot time min (sec)`, `boot time max (sec)`, `cycles`, `time scale`.
"""

from __future__ import annotations

import re
import statistics

from perfgate.errors import ParseError
from perfgate.tools.card import Card

LINE_RE = re.compile(r"^\[(\d+):(\d\d):(\d\d(?:\.\d+)?)\s+[\d.]+\]\s?(.*)$")
HEADER_RE = re.compile(r"^#\s*(start|end|time-scale):\s?(.*?)\s*$")
CYCLE_RE = re.compile(r"^#\s*cycle\s+(\d+)")


def stamp(seconds: float, delta: float) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"[{int(h)}:{int(m):02d}:{s:09.6f} {delta:.6f}]"


def _cycles(text: str) -> tuple[dict[str, str], list[tuple[int, list[tuple[int, float, str]]]]]:
    headers: dict[str, str] = {}
    cycles: list[tuple[int, list[tuple[int, float, str]]]] = []
    current: list[tuple[int, float, str]] | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        h = HEADER_RE.match(line)
        if h and current is None:
            headers[h.group(1)] = h.group(2)
            continue
        c = CYCLE_RE.match(line)
        if c:
            current = []
            cycles.append((n, current))
            continue
        m = LINE_RE.match(line)
        if m:
            if current is None:
                current = []
                cycles.append((n, current))
            t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
            current.append((n, t, m.group(4)))
    return headers, cycles


def _is_prompt(line: str, marker: str) -> bool:
    """A prompt ends its line, or is followed at once by a kernel message that landed in the middle of it."""
    m = marker.rstrip()
    if m.endswith("login:") and re.search(rf"(?<!Last ){re.escape(m)}", line):  # a notice may follow (Arago 2025)
        return True
    return line.rstrip().endswith(m) or re.search(re.escape(m) + r"\s*\[\s*\d+\.\d+\]", line) is not None


def parse(text: str, command: str | None = None) -> dict[str, float]:
    headers, cycles = _cycles(text)
    start = headers.get("start") or "Starting kernel"
    end = headers.get("end") or "login:"
    try:
        scale = float(headers.get("time-scale") or 1)
    except ValueError:
        raise ParseError(f"bad time-scale header {headers.get('time-scale')!r}") from None
    if not cycles or not any(lines for _, lines in cycles):
        raise ParseError("no timestamped lines (`[h:mm:ss.ffffff delta] text`) in the boot log")
    times: list[float] = []
    for number, (line_no, lines) in enumerate(cycles, 1):
        t0 = next((t for _, t, s in lines if start in s), None)
        if t0 is None:
            raise ParseError(f"boot cycle {number}: no {start!r} on the console", line=line_no)
        t1 = next((t for _, t, s in lines if t >= t0 and _is_prompt(s, end)), None)
        if t1 is None:
            raise ParseError(f"boot cycle {number}: {start!r} but no {end!r} after it", line=line_no)
        times.append((t1 - t0) * scale)
    return {
        "boot time (sec)": round(statistics.fmean(times), 3),
        "boot time min (sec)": round(min(times), 3),
        "boot time max (sec)": round(max(times), 3),
        "cycles": float(len(times)),
        "time scale": scale,
    }


CARD = Card("boot", parse)
