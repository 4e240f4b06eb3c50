"""Multimedia decode (suite decode): playback speed (fps) per codec, container and resolution, as the AM57x guide
measured it: `gst-launch-1.0 playbin uri=file://<stream> video-sink="kmssink sync=false connector=<id>"
audio-sink=fakesink`, fps = the stream's frame count / the execution time gst-launch reports.

The streams are the lab's (variables/workloads/multimedia.yaml: decode.streams, key `<codec>/<container>/<res>`
with the file and its frame count); a row without a stream is not measured and says which key is missing.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import parse
from perfgate.workloads.base import Context, Expected, Measurements, Run, Workload, same_command
from perfgate.workloads.peripherals import clean, fill, missing, settings

SUITE = "decode"
TABLE = re.compile(r"(h\.?26[45]|hevc|mpeg-?[24]|vp[89]|mjpeg)\s+in\s+(\w+)\s+container", re.I)
TIME = "execution time (s)"


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

    def runs(self, criteria: list[Criterion], profile: dict) -> list[tuple[Run, int]]:
        s = settings(SUITE, profile)
        runs: dict[str, tuple[Run, int]] = {}
        for c in criteria:
            st = _stream(c, s)
            if st is None:
                continue
            path = f"{s.get('streams_dir', '').rstrip('/')}/{st['file']}" if s.get("streams_dir") else st["file"]
            cmd = fill(s["command"], {**s, "path": path})
            if cmd not in runs:
                label = "gst-" + re.sub(r"[^a-z0-9]+", "-", stream_key(c) or "stream").strip("-")
                runs[cmd] = (
                    Run("gstreamer", cmd, timeout=float(s.get("timeout", 600)), label=label),
                    int(st["frames"]),
                )
            runs[cmd][0].keys.setdefault(TIME, []).append(c.id)
        return list(runs.values())

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        return [r for r, _ in self.runs(criteria, profile)]

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("decode fps = the stream's frames / gst-launch-1.0's execution time (playbin to kmssink)")
        out = Measurements()
        for run, frames in self.runs(criteria, ctx.profile):
            ids = [cid for group in run.keys.values() for cid in group]
            try:
                text = ctx.run(run.command, timeout=run.timeout, label=run.label, where=run.where)
                seconds = parse("gstreamer", text, command=run.command)[TIME]
            except ToolMissing as e:
                out.unavailable.update(dict.fromkeys(ids, str(e)))
                continue
            except ParseError as e:
                out.missing.update(dict.fromkeys(ids, f"gstreamer output not recognised: {e}"))
                continue
            for cid in ids:
                out.values[cid] = round(frames / seconds, 3)
                out.tools[cid] = "gstreamer"
        s = settings(SUITE, ctx.profile)
        for c in criteria:
            if _stream(c, s) is None:
                out.missing[c.id] = (
                    f"no stream for {stream_key(c) or c.table!r} with file and frames "
                    "(variables/workloads/multimedia.yaml: decode.streams)"
                )
        return out

    def expected(self, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
        by_id = {c.id: c for c in criteria}
        for run, frames in self.runs(criteria, profile):
            if same_command(run.command, command):
                ids = run.keys[TIME]
                return Expected("gstreamer", {TIME: frames / by_id[ids[0]].value})
        return None


WORKLOAD = Decode()
