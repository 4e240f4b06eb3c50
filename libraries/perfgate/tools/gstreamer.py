"""gst-launch-1.0 (the guides' decode test: `gst-launch-1.0 playbin uri=file://<stream> video-sink="kmssink
sync=false ..." audio-sink=fakesink`, "performance based on the execution time reported"):
`Got EOS from element "playbin0".` then `Execution ended after 0:00:24.029212345`.

Metrics: `execution time (s)` and, when the command states the stream's frame count in the environment
(`STREAM_FRAMES=1440 gst-launch-1.0 ...`, as the decode workload sends it), `fps` = frames / execution time.
A pipeline that ends with an ERROR and no EOS is a ParseError quoting GStreamer's first error.
"""

from __future__ import annotations

import random
import re

from perfgate.errors import ParseError

ENDED = re.compile(r"^Execution ended after (\d+):(\d+):(\d+(?:\.\d+)?)\s*$")
EOS = re.compile(r'^Got EOS from element "[^"]+"')
ERROR = re.compile(r"^(ERROR:.*|Failed to set pipeline.*|WARNING: erroneous pipeline.*)$")

TIME = "execution time (s)"
FRAMES = re.compile(r"(?:^|\s)STREAM_FRAMES=(\d+)\s")


def frames(command: str | None) -> int | None:
    m = FRAMES.search(command or "")
    return int(m[1]) if m else None


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [line.rstrip("\r") for line in text.splitlines()]
    eos = any(EOS.match(line) for line in lines)
    for n, line in enumerate(lines, 1):
        m = ENDED.match(line.strip())
        if m and eos:
            seconds = int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3])
            if seconds <= 0:
                raise ParseError("gstreamer: zero execution time", line=n)
            out = {TIME: seconds}
            count = frames(command)
            if count:
                out["fps"] = round(count / seconds, 3)
            return out
    for n, line in enumerate(lines, 1):
        if ERROR.match(line.strip()):
            raise ParseError(f"gstreamer: the pipeline failed: {line.strip()}", line=n)
    if not eos:
        raise ParseError("gstreamer: the pipeline did not reach end of stream (no 'Got EOS from element')", line=1)
    raise ParseError("gstreamer: no 'Execution ended after h:mm:ss.n' line", line=1)


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    count = frames(command)
    fps = float(values["fps"]) if "fps" in values and count else None
    seconds = count / max(fps, 1e-6) if fps and count else float(values.get(TIME, 10.0))
    seconds = max(1e-6, seconds * rng.uniform(0.999, 1.001))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    element = "playbin0" if "playbin" in command else "pipeline0"
    return (
        "Setting pipeline to PAUSED ...\n"
        "Pipeline is PREROLLING ...\n"
        "Pipeline is PREROLLED ...\n"
        "Setting pipeline to PLAYING ...\n"
        "New clock: GstSystemClock\n"
        "Redistribute latency...\n"
        f'Got EOS from element "{element}".\n'
        f"Execution ended after {int(h)}:{int(m):02d}:{s:012.9f}\n"
        "Setting pipeline to NULL ...\n"
        "Freeing pipeline ...\n"
    )
