"""Display (suite display): refresh rate (fps) per mode with modetest's sync plus flip option (`modetest -v -s`),
on the connector of each guide table (LCD, HDMI); connectors, driver and duration are data
(variables/workloads/multimedia.yaml: display)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload, clean, fill

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


class Display(RowWorkload):
    suite = "display"
    tool = "modetest"
    timeout = 60
    note = "display refresh rates by modetest -v -s (mean of its freq lines)"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        conn, m = connector(c, s), mode(c)
        return {"connector": conn, "mode": m} if conn is not None and m is not None else None

    def unmapped(self, c: Criterion, s: dict) -> str:
        if connector(c, s) is None:
            return f"no connector for table {c.table!r} (variables/workloads/multimedia.yaml: display.connectors)"
        return f"row {c.row!r} is not a <width>x<height>@<refresh> mode"

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return f"modetest-{p['connector']}-{p['mode']}"


WORKLOAD = Display()
