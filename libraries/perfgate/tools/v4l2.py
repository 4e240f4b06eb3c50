"""v4l2-ctl streaming (`v4l2-ctl -d <dev> --set-fmt-video=... --stream-mmap --stream-count=<n>`): one `<` per
captured buffer and, once a second, ` 30.00 fps` (newer v4l-utils: ` 30.00 fps, dropped buffers: 0`).

Metric: `fps` (the mean of the per-second reports after the first, which covers the stream's start-up).
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

FPS = re.compile(r"^<*\s*([\d.]+)\s*fps(?:,\s*dropped buffers:\s*\d+)?\s*$")
FAILURE = re.compile(r"Cannot open|failed|error|Invalid|not supported", re.I)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [line.rstrip("\r") for line in text.splitlines()]
    reports = [float(m[1]) for m in (FPS.match(line.strip()) for line in lines) if m]
    if not reports:
        for n, line in enumerate(lines, 1):
            if FAILURE.search(line):
                raise ParseError(f"v4l2-ctl: {line.strip()}", line=n)
        raise ParseError("v4l2-ctl: no '<<<< <n> fps' report (is --stream-mmap given and the stream long enough?)",
                         line=1)  # fmt: skip
    steady = reports[1:] or reports
    return {"fps": round(sum(steady) / len(steady), 3)}


CARD = Card("v4l2", parse)
