"""Resume latency by the gate's stated method (variables/workloads/power.yaml `low_power.resume_latency`).

The guides publish "Total Resume Latency (ms)" without saying how TI timed it, so the gate states its own method:
the board's command prints, in this order,
    resume: method rtc-alarm deep-sleep
    resume: alarm 1764145200
    resume: running 1764145200.137512345
`alarm` is the wall-clock time (seconds since the epoch) the RTC alarm was set for, `running` the wall-clock time
user space read when it ran again after the resume. The total resume latency is the difference, in ms. Any other
line (rtcwake's own, a shell's) is ignored. A run with no `running` line did not come back (or its suspend failed);
a `running` time before the alarm means the board never slept (the alarm was in the past, or the suspend was
refused): both are a ParseError, never a number.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

KEY = "Total Resume Latency (ms)"
LINE = re.compile(r"^\s*resume:\s*(method|alarm|running)\s+(\S+)(?:\s+\S+)?\s*$")
NUMBER = re.compile(r"^\d+(?:\.\d+)?$")


def keys_for(command: str | None = None) -> list[str]:
    return [KEY]


def method(text: str) -> str | None:
    """The method the command said it used (`resume: method <name>`)."""
    return next((m[2] for ln in text.splitlines() if (m := LINE.match(ln)) and m[1] == "method"), None)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    of = f" of `{command}`" if command else ""
    seen: dict[str, tuple[int, str]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = LINE.match(line)
        if not m or m[1] == "method":
            continue
        if m[1] in seen:
            raise ParseError(f"line {n}: a second `resume: {m[1]}` line (line {seen[m[1]][0]}): more than one run{of}",
                             line=n)  # fmt: skip
        if not NUMBER.match(m[2]):
            raise ParseError(f"line {n}: `resume: {m[1]}` is not a time in seconds: {m[2]!r}{of}", line=n)
        seen[m[1]] = (n, m[2])
    if "alarm" not in seen:
        raise ParseError(f"no `resume: alarm <seconds>` line: not the resume-latency method's output{of}")
    if "running" not in seen:
        raise ParseError(f"line {seen['alarm'][0]}: the alarm was set, but no `resume: running` line followed: "
                         f"the board did not come back, or its suspend failed{of}", line=seen["alarm"][0])  # fmt: skip
    alarm, running = float(seen["alarm"][1]), float(seen["running"][1])
    if running < alarm:
        raise ParseError(f"line {seen['running'][0]}: user space ran at {running} s, before the alarm at {alarm} s: "
                         f"the board never slept{of}", line=seen["running"][0])  # fmt: skip
    return {KEY: round((running - alarm) * 1000.0, 3)}


CARD = Card("resume", parse)
