"""Multimedia decode (suite decode): playback speed (fps) per codec, container and resolution, as the AM57x guide
measured it: `gst-launch-1.0 playbin uri=file://<stream> video-sink="kmssink sync=false connector=<id>"
audio-sink=fakesink`, fps = the stream's frame count / the execution time gst-launch reports.

The streams are the lab's (variables/workloads/multimedia.yaml: decode.streams, key `<codec>/<container>/<res>`
with the file and its frame count); a row without a stream is not measured and says which key is missing.
"""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload, clean, fill

TABLE = re.compile(r"([\w.-]+)\s+in\s+(\w+)\s+container", re.I)  # "<codec> in <container> Container"


def stream_key(c: Criterion) -> str | None:
    m = TABLE.search(clean(c.table) or "") or TABLE.search(clean(c.name))
    if not m:
        return None
    codec = m[1].replace(".", "").replace("-", "")
    return f"{codec}/{m[2]}/{clean(c.row)}"


def _stream(c: Criterion, s: dict) -> dict | None:
    key = stream_key(c)
    entry = (s.get("streams") or {}).get(key) if key else None
    return entry if isinstance(entry, dict) and entry.get("file") and entry.get("frames") else None


class Decode(RowWorkload):
    suite = "decode"
    tool = "gstreamer"
    timeout = 600
    note = "decode fps = the stream's frames / gst-launch-1.0's execution time (playbin to kmssink)"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        st = _stream(c, s)
        if st is None:
            return None
        path = f"{s.get('streams_dir', '').rstrip('/')}/{st['file']}" if s.get("streams_dir") else st["file"]
        return {"path": path, "frames": str(int(st["frames"]))}

    def command(self, s: dict, p: dict[str, str]) -> str:
        # the frame count rides in the environment, so the evidence says it and the parser computes fps
        return f"STREAM_FRAMES={p['frames']} " + fill(s["command"], {**s, "path": p["path"]})

    def unmapped(self, c: Criterion, s: dict) -> str:
        return (
            f"no stream for {stream_key(c) or c.table!r} with file and frames "
            "(variables/workloads/multimedia.yaml: decode.streams)"
        )

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return "gst-" + re.sub(r"[^a-z0-9]+", "-", stream_key(c) or "stream").strip("-")


WORKLOAD = Decode()
