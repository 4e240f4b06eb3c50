"""System Benchmarks / dhrystone: one run of TI's command (variables/workloads/dhrystone.yaml), read by its parser.

Dhrystone times its runs with a coarse clock (TI's build: time(), whole seconds), so its rate moves in steps: N runs
that take k ticks read N / k per second. A run of a few ticks cannot resolve a tolerance of 10 % (TI's J7 figures step
by about 20 %). After the first run the workload knows how long it lasted: when one tick is more than `max_step` of
it, it runs again with enough runs that it is not (at most `max_seconds` long), and judges that run; when even the
longest allowed run cannot, it says so."""

from __future__ import annotations

import math

from perfgate.model import Criterion
from perfgate.tools.dhrystone import KEY_DPS
from perfgate.workloads.base import Context, Measurements
from perfgate.workloads.system_common import ToolWorkload, settings


class DhrystoneWorkload(ToolWorkload):
    suite = "dhrystone"
    tool = "dhrystone"

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        out = super().measure(criteria, ctx)
        s = settings(self.suite, ctx.profile, ctx.lab)
        runs, dps = int(s["runs"]), out.parsed.get(self.tool, {}).get(KEY_DPS)
        tick, max_step, longest = (float(s.get(k) or 0) for k in ("resolution", "max_step", "max_seconds"))
        if not dps or not tick or not max_step or dps <= 0:
            return out
        seconds = runs / dps
        step = tick / seconds
        if step <= max_step:
            return out
        wanted = math.ceil(runs * step / max_step)
        longer = min(wanted, math.floor(longest * dps)) if longest else wanted
        if longer <= runs:
            ctx.note(f"dhrystone: one {tick:g} s tick is {step * 100:.1f}% of its {seconds:.3g} s run, and no "
                     f"longer run is allowed (max_seconds {longest:g}): its rate cannot be judged finer")  # fmt: skip
            return out
        ctx.note(f"dhrystone: {runs} runs lasted {seconds:.3g} s, one {tick:g} s tick is {step * 100:.1f}% of it: "
                 f"running {longer} runs instead ({longer / dps:.3g} s)")  # fmt: skip
        second = super().measure(criteria, _Runs(ctx, self.suite, longer))
        left = tick / (longer / dps)
        if left > max_step:
            ctx.note(f"dhrystone: at {longer} runs one tick is still {left * 100:.1f}% of the run (max_seconds "
                     f"{longest:g}): its rate cannot be judged finer than that")  # fmt: skip
        return second


class _Runs:
    """The context with `runs` set on top of every other setting (the lab's `boards.<board>.workloads.<suite>`, the
    last layer perfgate.workloads.settings reads); every other attribute the context's own."""

    def __init__(self, ctx: Context, suite: str, runs: int) -> None:
        board = ctx.profile.get("name", "")
        boards = dict(ctx.lab.get("boards") or {})
        mine = dict(boards.get(board) or {})
        workloads = dict(mine.get("workloads") or {})
        workloads[suite] = {**(workloads.get(suite) or {}), "runs": runs}
        boards[board] = {**mine, "workloads": workloads}
        self.lab = {**ctx.lab, "boards": boards}
        self._ctx = ctx

    def __getattr__(self, name: str) -> object:
        return getattr(self._ctx, name)


WORKLOAD = DhrystoneWorkload()
