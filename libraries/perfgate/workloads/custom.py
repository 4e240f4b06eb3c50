"""The board's own criteria (variables/custom/<board>.yaml, perfgate.custom): each criterion's command, read by the
tool's parser its entry names, or by its regex. Commands that several criteria share run once."""

from __future__ import annotations

import re

from perfgate import custom
from perfgate.board.errors import BringUpError
from perfgate.errors import BoardLost, ToolMissing
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all

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
    """Run the command once; each key is a regex whose one group is the number (the first match)."""
    out = Measurements()
    ids = [cid for group in run.keys.values() for cid in group]
    try:
        text = ctx.run(run.command, timeout=run.timeout, label=run.label, where=run.where)
    except ToolMissing as e:
        out.unavailable.update(dict.fromkeys(ids, str(e)))
        return out
    except AssertionError as e:
        if isinstance(e, BoardLost | BringUpError):
            raise
        out.set_invalid(ids, f"`{run.command}` did not finish: {e}")
        return out
    evidence = getattr(ctx, "last_evidence", "")
    for pattern, group in run.keys.items():
        m = re.search(pattern, text, re.M)
        try:
            value = float(m.group(1)) if m else None
        except (TypeError, ValueError):
            value = None
        for cid in group:
            out.evidence.setdefault(cid, []).append(evidence)
            if value is None:
                out.set_invalid([cid], f"no number matched /{pattern}/ in the output of `{run.command}`", evidence)
            else:
                out.values[cid], out.tools[cid] = value, REGEX
    return out


WORKLOAD = CustomWorkload()
