"""glmark2 (glmark2-es2-drm, glmark2-es2-wayland, glmark2-es2-wayland -s WxH): the final
`                                  glmark2 Score: 218 ` line (leading and trailing spaces), and one
`[scene] options: FPS: 64 FrameTime: 15.625 ms` line per benchmark.

Metrics: `score` (the guides' "Score" column) and `<scene> <options> (fps)` per benchmark line.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError

SCORE = re.compile(r"^\s*glmark2 Score:\s*(\d+(?:\.\d+)?)\s*$")
SCENE = re.compile(
    r"^\[(?P<scene>[\w-]+)\]\s*(?P<opts>.*?):\s*FPS:\s*(?P<fps>\d+(?:\.\d+)?)\s+FrameTime:\s*[\d.]+\s*ms"
)
FAILURE = re.compile(r"Error:|Failed to|failed to|cannot|not found|Segmentation fault", re.I)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    lines = text.splitlines()
    for line in lines:
        line = line.rstrip("\r")
        m = SCENE.match(line.strip())
        if m:
            out[f"{m['scene']} {m['opts']} (fps)"] = float(m["fps"])
            continue
        s = SCORE.match(line)
        if s:
            out["score"] = float(s[1])
    if "score" not in out:
        for n, line in enumerate(lines, 1):
            if FAILURE.search(line):
                raise ParseError(f"glmark2 printed no 'glmark2 Score:' line; it said: {line.strip()}", line=n)
        raise ParseError("glmark2 printed no 'glmark2 Score:' line", line=len(lines) or 1)
    return out
