"""Glmark2 (suite glmark2): the score of glmark2-es2-drm, glmark2-es2-wayland and glmark2-es2-wayland -s 1920x1080,
one command per guide row (variables/workloads/graphics.yaml: glmark2.rows)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload, clean


def command_for(c: Criterion, s: dict) -> str | None:
    row = clean(c.row)
    for entry in s.get("rows") or []:
        if re.search(entry["match"], row, re.I):
            return str(entry["command"])
    return None


class Glmark2(RowWorkload):
    suite = "glmark2"
    tool = "glmark2"
    timeout = 1800
    note = "Glmark2 scores by glmark2"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        cmd = command_for(c, s)
        return {"command": cmd} if cmd is not None else None

    def command(self, s: dict, p: dict[str, str]) -> str:
        return p["command"]  # the row's own command, as written in the settings

    def unmapped(self, c: Criterion, s: dict) -> str:
        return f"no glmark2 command for row {c.row!r} (variables/workloads/graphics.yaml: glmark2.rows)"

    def key(self, c: Criterion) -> str:
        return "score"

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return "glmark2-" + re.sub(r"[^a-z0-9]+", "-", clean(c.row)).strip("-")


WORKLOAD = Glmark2()
