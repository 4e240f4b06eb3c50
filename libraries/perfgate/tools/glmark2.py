"""glmark2 (glmark2-es2-drm, glmark2-es2-wayland, glmark2-es2-wayland -s WxH): the final
`                                  glmark2 Score: 218 ` line (leading and trailing spaces), and one
`[scene] options: FPS: 64 FrameTime: 15.625 ms` line per benchmark (verified on a real glmark2 2023.01 run,
tests/fixtures/glmark2/x11-llvmpipe-xvfb.txt).

A log kept at a terminal width wraps the long scene lines (`[buffer] columns=200:...:update-` then
`fraction=0.5:update-method=map: FPS: 118 FrameTime: 8.500 ms`, cut mid-word or at a space): the pieces are joined
as printed. A scene glmark2 could not run (`... : Unsupported`, `... : Set up failed`) gives no metric; a scene line
that cannot be read, even joined to the lines after it, is an error naming its line, never dropped silently.

Metrics: `score` (the guides' "Score" column) and `<scene> <options> (fps)` per benchmark line.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

SCORE = re.compile(r"^\s*glmark2 Score:\s*(\d+(?:\.\d+)?)\s*$")
SCENE_START = re.compile(r"^\[[\w-]+\]")
SCENE = re.compile(
    r"^\[(?P<scene>[\w-]+)\]\s*(?P<opts>.*?):\s*FPS:\s*(?P<fps>\d+(?:\.\d+)?)\s*FrameTime:\s*[\d.]+\s*ms\s*$"
)
NOT_RUN = re.compile(r"^\[[\w-]+\].*:\s*(Unsupported|Set up failed)\s*$")
FAILURE = re.compile(r"Error:|Failed to|failed to|cannot|not found|Segmentation fault", re.I)
WRAPPED = 4  # continuation lines a wrapped scene line may take (72 columns: 3 for the longest default scene)


def _ends_a_scene(line: str) -> bool:
    s = line.strip()
    return not s or bool(SCENE_START.match(s) or SCORE.match(s) or s.startswith(("===", "**")))


def _scene(lines: list[str], n: int) -> tuple[re.Match[str] | None, int]:
    """The scene line starting at index n, joined to the lines a terminal wrapped it onto: the match (None for a
    scene that did not run) and how many lines it took."""
    joined = lines[n]
    for taken in range(1, WRAPPED + 2):
        m = SCENE.match(joined.strip())
        if m or NOT_RUN.match(joined.strip()):
            return m, taken
        if n + taken >= len(lines) or _ends_a_scene(lines[n + taken]):
            break
        joined += lines[n + taken]
    raise ParseError(f"glmark2 scene line cannot be read (no `FPS: N FrameTime: x ms`): {lines[n].strip()}", line=n + 1)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    lines = [raw.rstrip("\r\n") for raw in text.splitlines()]
    n = 0
    while n < len(lines):
        line = lines[n]
        if SCENE_START.match(line.strip()):
            m, taken = _scene(lines, n)
            if m:
                out[f"{m['scene']} {m['opts']} (fps)"] = float(m["fps"])
            n += taken
            continue
        s = SCORE.match(line)
        if s:
            out["score"] = float(s[1])
        n += 1
    if "score" not in out:
        for n, line in enumerate(lines, 1):
            if FAILURE.search(line):
                raise ParseError(f"glmark2 printed no 'glmark2 Score:' line; it said: {line.strip()}", line=n)
        raise ParseError("glmark2 printed no 'glmark2 Score:' line", line=len(lines) or 1)
    return out


CARD = Card("glmark2", parse, binaries=("glmark2", "glmark2-es2", "glmark2-es2-drm", "glmark2-es2-wayland"))
