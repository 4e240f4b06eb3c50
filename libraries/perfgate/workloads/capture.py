"""Sensor capture (suite capture): frames per second reported by v4l2-ctl streaming MMAP buffers, per resolution
and pixel format of the guide's table; device and frame count are data
(variables/workloads/multimedia.yaml: capture)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import fill, missing, settings

SUITE = "capture"
SIZE = re.compile(r"(\d+)x(\d+)")
FOURCC = re.compile(r"\b([A-Za-z0-9]{4})\b")


def format_of(c: Criterion) -> tuple[str, str, str] | None:
    """(width, height, fourcc) from the row (`1600x1200 / ba81 / ov2659`)."""
    parts = [p.strip() for p in c.row.split("/")]
    size = next((SIZE.fullmatch(p) for p in parts if SIZE.fullmatch(p)), None)
    fourcc = next((p for p in parts if FOURCC.fullmatch(p) and not SIZE.fullmatch(p) and not p.isdigit()), None)
    if size is None or fourcc is None:
        return None
    return size[1], size[2], fourcc.upper()


class Capture(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        runs: dict[str, Run] = {}
        for c in criteria:
            f = format_of(c)
            if f is None:
                continue
            cmd = fill(s["command"], {**s, "width": f[0], "height": f[1], "format": f[2]})
            if cmd not in runs:
                label = f"v4l2-{f[0]}x{f[1]}-{f[2].lower()}"
                runs[cmd] = Run("v4l2", cmd, timeout=float(s.get("timeout", 120)), label=label)
            runs[cmd].keys.setdefault("fps", []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("sensor capture fps by v4l2-ctl --stream-mmap")
        out = super().measure(criteria, ctx)
        for c in criteria:
            if format_of(c) is None:
                out.missing[c.id] = f"row {c.row!r} names no <width>x<height> and pixel format"
        return out


WORKLOAD = Capture()
