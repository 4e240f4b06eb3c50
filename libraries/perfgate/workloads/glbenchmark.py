"""GLBenchmark 2.5 (suite glbenchmark): Fps, triangles/s and texels/s per test, run by the row's "Test Number"
(a context value of the criterion); the command is data (variables/workloads/graphics.yaml: glbenchmark)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload, clean, context, number


def metric_key(c: Criterion) -> str:
    text = clean(f"{c.metric} {c.unit}")
    if "triangle" in text:
        return "triangles/sec"
    if "texel" in text:
        return "texels/sec"
    return "fps"


def test_number(c: Criterion) -> str | None:
    for key, value in context(c).items():
        if clean(key) == "test number":
            return number(value)
    m = re.search(r"\b(2\d{6})\b", c.row)
    return m.group(1) if m else None


class GlBenchmark(RowWorkload):
    suite = "glbenchmark"
    tool = "glbenchmark"
    timeout = 1800
    note = "GLBenchmark 2.5 by GLBenchmark, one run per test number"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        n = test_number(c)
        return {"test_number": n} if n is not None else None

    def unmapped(self, c: Criterion, s: dict) -> str:
        return f"row {c.row!r} has no Test Number (context {c.context!r})"

    def key(self, c: Criterion) -> str:
        return metric_key(c)

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return f"glbenchmark-{p['test_number']}"


WORKLOAD = GlBenchmark()
