"""GFXBench (suite gfxbench): Score and Fps per test (gl_manhattan_off, gl_trex_off, gl_5_high_off), the test id
being the row's last word; the command is data (variables/workloads/graphics.yaml: gfxbench)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload, clean


def metric_key(c: Criterion) -> str:
    return "fps" if "fps" in clean(f"{c.metric} {c.unit}") else "score"


def test_id(c: Criterion) -> str:
    words = c.row.replace("\\_", "_").split()
    return words[-1] if words else c.row


class GfxBench(RowWorkload):
    suite = "gfxbench"
    tool = "gfxbench"
    timeout = 1800
    note = "GFXBench scores and fps by GFXBench's test framework, one run per test id"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        return {"test_id": test_id(c)}

    def key(self, c: Criterion) -> str:
        return metric_key(c)

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return f"gfxbench-{p['test_id']}"


WORKLOAD = GfxBench()
