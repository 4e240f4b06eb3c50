"""GFXBench (suite gfxbench): Score and Fps per test (gl_manhattan_off, gl_trex_off, gl_5_high_off), the test id
being the row's last word; the command is data (variables/workloads/graphics.yaml: gfxbench)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, fill, missing, settings

SUITE = "gfxbench"


def metric_key(c: Criterion) -> str:
    return "fps" if "fps" in clean(f"{c.metric} {c.unit}") else "score"


def test_id(c: Criterion) -> str:
    words = c.row.replace("\\_", "_").split()
    return words[-1] if words else c.row


class GfxBench(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        runs: dict[str, Run] = {}
        for c in criteria:
            tid = test_id(c)
            if tid not in runs:
                cmd = fill(s["command"], {**s, "test_id": tid})
                runs[tid] = Run("gfxbench", cmd, timeout=float(s.get("timeout", 1800)), label=f"gfxbench-{tid}")
            runs[tid].keys.setdefault(metric_key(c), []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        ctx.note("GFXBench scores and fps by GFXBench's test framework, one run per test id")
        return super().measure(criteria, ctx)


WORKLOAD = GfxBench()
