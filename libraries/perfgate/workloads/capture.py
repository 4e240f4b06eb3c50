"""Sensor capture (suite capture): frames per second reported by v4l2-ctl streaming MMAP buffers, per resolution
and pixel format of the guide's table; device and frame count are data
(variables/workloads/multimedia.yaml: capture)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload

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


class Capture(RowWorkload):
    suite = "capture"
    tool = "v4l2"
    timeout = 120
    note = "sensor capture fps by v4l2-ctl --stream-mmap"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        f = format_of(c)
        return {"width": f[0], "height": f[1], "format": f[2]} if f else None

    def unmapped(self, c: Criterion, s: dict) -> str:
        return f"row {c.row!r} names no <width>x<height> and pixel format"

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return f"v4l2-{p['width']}x{p['height']}-{p['format'].lower()}"


WORKLOAD = Capture()
