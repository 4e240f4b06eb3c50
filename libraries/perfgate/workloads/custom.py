"""The board's own criteria (variables/custom/<board>.yaml, perfgate.custom): each criterion's command, read by the
tool's parser its entry names, or by its regex. Commands that several criteria share run once."""

from __future__ import annotations

import re

from perfgate import custom
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all, run_one

REGEX = "regex"  # Run.tool of a command read by a criterion's own regex (no tool's parser)


class CustomWorkload(Workload):
    suite = custom.SUITE

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        runs: dict[tuple[str, str], Run] = {}
        for c in criteria:
            spec = custom.specs(c.board)[c.id]
            tool = spec.parser or REGEX
            run = runs.setdefault((spec.line, tool), Run(tool, spec.line, {}, timeout=spec.timeout,
                                                         label=f"{custom.SUITE}-{custom.slug(c.name)}"))  # fmt: skip
            run.keys.setdefault(spec.regex or spec.metric, []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        runs = self.plan(criteria, ctx.profile, ctx.lab)
        out = run_all([r for r in runs if r.tool != REGEX], ctx)
        for run in runs:
            if run.tool == REGEX:
                out.merge(_read_by_regex(run, ctx))
        return out


def _read_by_regex(run: Run, ctx: Context) -> Measurements:
    """Run the command once (perfgate.workloads.base.run_one); each key is a regex whose one group is the number (the
    first match)."""
    out = Measurements()
    ran = run_one(run, ctx, out)
    if ran is None:
        return out
    text, evidence = ran
    for pattern, group in run.keys.items():
        m = re.search(pattern, text, re.M)
        try:
            value = float(m.group(1)) if m else None
        except (TypeError, ValueError):
            value = None
        for cid in group:
            if value is None:
                out.set_invalid([cid], f"no number matched /{pattern}/ in the output of `{run.command}`", evidence)
            else:
                out.values[cid], out.tools[cid] = value, REGEX
    return out


WORKLOAD = CustomWorkload()
