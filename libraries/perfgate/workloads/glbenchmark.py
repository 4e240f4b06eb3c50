"""GLBenchmark 2.5 (suite glbenchmark): Fps, triangles/s and texels/s per test, run by the row's "Test Number"
(a context value of the criterion); the command is data (variables/workloads/graphics.yaml: glbenchmark)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, context, fill, missing, number, settings

SUITE = "glbenchmark"


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


class GlBenchmark(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        runs: dict[str, Run] = {}
        for c in criteria:
            n = test_number(c)
            if n is None:
                continue
            if n not in runs:
                cmd = fill(s["command"], {**s, "test_number": n})
                runs[n] = Run("glbenchmark", cmd, timeout=float(s.get("timeout", 1800)), label=f"glbenchmark-{n}")
            runs[n].keys.setdefault(metric_key(c), []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("GLBenchmark 2.5 by GLBenchmark, one run per test number")
        out = super().measure(criteria, ctx)
        for c in criteria:
            if test_number(c) is None:
                out.missing[c.id] = f"row {c.row!r} has no Test Number (context {c.context!r})"
        return out


WORKLOAD = GlBenchmark()
