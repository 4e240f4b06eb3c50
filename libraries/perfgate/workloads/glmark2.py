"""Glmark2 (suite glmark2): the score of glmark2-es2-drm, glmark2-es2-wayland and glmark2-es2-wayland -s 1920x1080,
one command per guide row (variables/workloads/graphics.yaml: glmark2.rows)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, missing, settings

SUITE = "glmark2"


def command_for(c: Criterion, s: dict) -> str | None:
    row = clean(c.row)
    for entry in s.get("rows") or []:
        if re.search(entry["match"], row, re.I):
            return str(entry["command"])
    return None


class Glmark2(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        runs: dict[str, Run] = {}
        for c in criteria:
            cmd = command_for(c, s)
            if cmd is None:
                continue
            if cmd not in runs:
                label = "glmark2-" + re.sub(r"[^a-z0-9]+", "-", clean(c.row)).strip("-")
                runs[cmd] = Run("glmark2", cmd, timeout=float(s.get("timeout", 1800)), label=label)
            runs[cmd].keys.setdefault("score", []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("Glmark2 scores by glmark2")
        out: Measurements = super().measure(criteria, ctx)
        s = settings(SUITE, ctx.profile)
        for c in criteria:
            if command_for(c, s) is None:
                out.missing[c.id] = (
                    f"no glmark2 command for row {c.row!r} (variables/workloads/graphics.yaml: glmark2.rows)"
                )
        return out


WORKLOAD = Glmark2()
