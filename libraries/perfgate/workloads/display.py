"""Display (suite display): refresh rate (fps) per mode with modetest's sync plus flip option (`modetest -v -s`),
on the connector of each guide table (LCD, HDMI); connectors, driver and duration are data
(variables/workloads/multimedia.yaml: display)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, fill, missing, settings

SUITE = "display"
MODE = re.compile(r"(\d+x\d+)(?:@([\d.]+))?")


def connector(c: Criterion, s: dict) -> str | None:
    for entry in s.get("connectors") or []:
        if re.search(entry["match"], clean(f"{c.table} {c.name}")):
            return fill(str(entry["connector"]), s)
    return None


def mode(c: Criterion) -> str | None:
    m = MODE.search(c.row)
    if not m:
        return None
    return f"{m[1]}-{m[2]}" if m[2] else m[1]


class Display(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        runs: dict[str, Run] = {}
        for c in criteria:
            conn, m = connector(c, s), mode(c)
            if conn is None or m is None:
                continue
            cmd = fill(s["command"], {**s, "connector": conn, "mode": m})
            if cmd not in runs:
                runs[cmd] = Run("modetest", cmd, timeout=float(s.get("timeout", 60)), label=f"modetest-{conn}-{m}")
            runs[cmd].keys.setdefault("fps", []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("display refresh rates by modetest -v -s (mean of its freq lines)")
        out = super().measure(criteria, ctx)
        s = settings(SUITE, ctx.profile)
        for c in criteria:
            if connector(c, s) is None:
                out.missing[c.id] = (
                    f"no connector for table {c.table!r} (variables/workloads/multimedia.yaml: display.connectors)"
                )
            elif mode(c) is None:
                out.missing[c.id] = f"row {c.row!r} is not a <width>x<height>@<refresh> mode"
        return out


WORKLOAD = Display()
