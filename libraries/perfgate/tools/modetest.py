"""modetest (libdrm) with sync plus flip (`modetest -M <driver> -v -s <connector>:<mode>`): `setting mode
1920x1200-60.00Hz on connectors 37, crtc 35` then a `freq: 59.99Hz` line every 60 page flips.

Metrics: `fps` (the mean of the freq lines, as the guide's "59.99 (min 59.01, max 60.11)"), `fps min`, `fps max`.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

FREQ = re.compile(r"^freq:\s*([\d.]+)\s*Hz\s*$")
FAILURE = re.compile(r"failed|cannot|invalid|No such|not found", re.I)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [line.rstrip("\r") for line in text.splitlines()]
    freqs = [float(m[1]) for m in (FREQ.match(line.strip()) for line in lines) if m]
    if not freqs:
        for n, line in enumerate(lines, 1):
            if FAILURE.search(line):
                raise ParseError(f"modetest: {line.strip()}", line=n)
        raise ParseError("modetest: no 'freq: <n>Hz' line (is -v given?)", line=1)
    return {"fps": round(sum(freqs) / len(freqs), 3), "fps min": min(freqs), "fps max": max(freqs)}


CARD = Card("modetest", parse)
