"""GLBenchmark 2.5 (run per test number, `GLBenchmark2 --test <test number>`): one result block per test,
`GLB25_FillTestC24Z16 test (2500101)` followed by `Fps: 30.71`, `Rate: 755731648 texel/sec` or
`Rate: 46891760 triangles/sec` lines.

Metrics: `fps`, `triangles/sec`, `texels/sec` (the guides' Fps, Rate (triangles/sec), Rate (texel/sec) columns).
The format is reconstructed (GLBenchmark is not available here): see tests/fixtures/glbenchmark/PROVENANCE.md.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

HEADER = re.compile(r"^(?P<name>GLB\w+ test)\s*\((?P<number>\d+)\)\s*$")
FPS = re.compile(r"^\s*Fps:\s*([\d.]+)\s*$")
RATE = re.compile(r"^\s*Rate:\s*([\d.]+)\s*(texels?|triangles)/sec\s*$")
FAILURE = re.compile(r"error|failed|not supported", re.I)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    current = False
    lines = text.splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if HEADER.match(line.strip()):
            current = True
            continue
        if not current:
            continue
        m = FPS.match(line)
        if m:
            out["fps"] = float(m[1])
            continue
        m = RATE.match(line)
        if m:
            out["triangles/sec" if m[2] == "triangles" else "texels/sec"] = float(m[1])
            continue
        if FAILURE.search(line):
            raise ParseError(f"glbenchmark: {line.strip()}", line=n)
    if not out:
        raise ParseError("glbenchmark: no 'GLB.. test (<number>)' result block with Fps or Rate lines", line=1)
    return out


CARD = Card("glbenchmark", parse)
