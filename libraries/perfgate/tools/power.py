"""Power readings per rail, as a lab's power meter command (or the board's INA sensors) prints them: one
`<rail> <value> [mW|W|uW]` line per rail (separators `:`, `=`, `,` or spaces; no unit means mW), optionally a
`Total` line. The INA form `<hwmon label> <microwatts> uW` is the same shape.

Metrics: `<rail> (mW)` per rail and `total (mW)` (the meter's Total, else the sum of the rails).
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

READING = re.compile(r"^\s*(?P<rail>[A-Za-z][\w/.-]*)\s*[:=,]?\s*(?P<v>-?\d+(?:\.\d+)?)\s*(?P<unit>mW|W|uW|µW)?\s*$")
SCALE = {"mW": 1.0, None: 1.0, "W": 1000.0, "uW": 0.001, "µW": 0.001}
FAILURE = re.compile(r"error|failed|not found|No such|timed out", re.I)


def rail_key(rail: str) -> str:
    return f"{rail.strip().lower()} (mW)"


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    total: float | None = None
    lines = [line.rstrip("\r") for line in text.splitlines()]
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = READING.match(line)
        if not m:
            if FAILURE.search(line):
                raise ParseError(f"power meter: {line.strip()}", line=n)
            continue
        value = round(float(m["v"]) * SCALE[m["unit"]], 4)
        if m["rail"].lower() == "total":
            total = value
        else:
            out[rail_key(m["rail"])] = out.get(rail_key(m["rail"]), 0.0) + value
    if not out and total is None:
        raise ParseError("power meter: no '<rail> <value> [mW|W|uW]' line", line=1)
    out["total (mW)"] = total if total is not None else round(sum(out.values()), 4)
    return out


CARD = Card("power", parse)
