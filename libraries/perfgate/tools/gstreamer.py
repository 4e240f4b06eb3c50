"""gst-launch-1.0 (the guides' decode test: `gst-launch-1.0 playbin uri=file://<stream> video-sink="kmssink
sync=false ..." audio-sink=fakesink`, "performance based on the execution time reported"):
`Got EOS from element "playbin0".` then `Execution ended after 0:00:24.029212345`.

Metrics: `execution time (s)` and, when the command states the stream's frame count in the environment
(`STREAM_FRAMES=1440 gst-launch-1.0 ...`, as the decode workload sends it), `fps` = frames / execution time.
A pipeline that ends with an ERROR and no EOS is a ParseError quoting GStreamer's first error.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

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


CARD = Card("gstreamer", parse)
