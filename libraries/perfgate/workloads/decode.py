"""Multimedia decode (suite decode): playback speed (fps) per codec, container and resolution, as the AM57x guide
measured it: `gst-launch-1.0 playbin uri=file://<stream> video-sink="kmssink sync=false connector=<id>"
audio-sink=fakesink`, fps = the stream's frame count / the execution time gst-launch reports.

The streams are the lab's (variables/workloads/multimedia.yaml: decode.streams, key `<codec>/<container>/<res>`
with the file and its frame count); a row without a stream is not measured and says which key is missing.
"""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, fill, missing, settings

SUITE = "decode"
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


class Decode(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        runs: dict[str, Run] = {}
        for c in criteria:
            st = _stream(c, s)
            if st is None:
                continue
            path = f"{s.get('streams_dir', '').rstrip('/')}/{st['file']}" if s.get("streams_dir") else st["file"]
            # the frame count rides in the environment, so the evidence says it and the parser computes fps
            cmd = f"STREAM_FRAMES={int(st['frames'])} " + fill(s["command"], {**s, "path": path})
            if cmd not in runs:
                label = "gst-" + re.sub(r"[^a-z0-9]+", "-", stream_key(c) or "stream").strip("-")
                runs[cmd] = Run("gstreamer", cmd, timeout=float(s.get("timeout", 600)), label=label)
            runs[cmd].keys.setdefault("fps", []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("decode fps = the stream's frames / gst-launch-1.0's execution time (playbin to kmssink)")
        out = super().measure(criteria, ctx)
        s = settings(SUITE, ctx.profile)
        for c in criteria:
            if _stream(c, s) is None:
                out.missing[c.id] = (
                    f"no stream for {stream_key(c) or c.table!r} with file and frames "
                    "(variables/workloads/multimedia.yaml: decode.streams)"
                )
        return out


WORKLOAD = Decode()
