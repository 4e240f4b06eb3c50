"""System Benchmarks / LMBench: TI's program list (variables/workloads/lmbench.yaml), only the programs that measure
one of the board's criteria, between the setup (the 16 MB test file), the servers lat_tcp and lat_connect need
(started before, stopped after, even when a program fails) and the teardown.
"""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run
from perfgate.workloads.system_common import ToolWorkload, fill, match, row_text, run_all, settings, yielded_keys


class LMBenchWorkload(ToolWorkload):
    suite = "lmbench"
    tool = "lmbench"

    def plan_with_unmatched(self, criteria: list[Criterion], profile: dict, lab: dict) -> tuple[list[Run], dict]:
        s = settings(self.suite, profile, lab)
        timeout = float(s.get("timeout", 300))
        left = list(criteria)
        programs: list[Run] = []
        for template in s.get("programs") or []:
            command = fill(template, s)
            keys, left_here = match(left, yielded_keys(self.tool, command))
            if keys:
                programs.append(Run(self.tool, command, keys, timeout=timeout, label=_label(command)))
                left = left_here
        unmatched = {c.id: f"no program of the LMBench list prints a metric named like '{row_text(c)}'" for c in left}
        if not programs:
            return [], unmatched

        def aux(group: str, label: str) -> list[Run]:
            return [Run(self.tool, fill(t, s), {}, timeout=60.0, label=label) for t in s.get(group) or []]

        servers = s.get("servers") or {}
        start = [Run(self.tool, fill(t, s), {}, timeout=60.0, label="server-start") for t in servers.get("start") or []]
        stop = [Run(self.tool, fill(t, s), {}, timeout=60.0, label="server-stop") for t in servers.get("stop") or []]
        return aux("setup", "setup") + start + programs + stop + aux("teardown", "teardown"), unmatched

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        runs, unmatched = self.plan_with_unmatched(criteria, ctx.profile, ctx.lab)
        programs = [r for r in runs if r.keys]
        before = runs[: runs.index(programs[0])] if programs else []
        after = runs[runs.index(programs[-1]) + 1 :] if programs else []
        out = run_all(before, ctx)
        try:
            out.merge(run_all(programs, ctx))
        finally:
            out.merge(run_all(after, ctx))  # stop the servers whatever happened
        for cid, why in unmatched.items():
            out.missing.setdefault(cid, why)
        ctx.note(
            f"{len(out.values)} of {len(criteria)} values read by the lmbench parser from {len(programs)} programs"
        )
        if any(r.command.lstrip().startswith("for ") for r in programs):
            ctx.note(
                "bw_mem-<op>-<N>mb for N = 1, 2, 4, 8 is the mean of bw_mem <op> and of the next operation in TI's "
                "list, as TI's parser filed them (the guide prints the two as min and max); "
                "latency_for_1.00_mb_block_size is half the 1.00 MB row, as the guides publish it"
            )
        return out


def _label(command: str) -> str:
    from perfgate.tools.lmbench import _program, loop_commands

    looped = loop_commands(command)
    if looped:
        prog, args = _program(looped[0])
        return f"{prog}-{args[0] if args else ''}"
    prog, args = _program(command)
    return "-".join([prog, *[a for a in args if not a.startswith("/") and a not in ("2>&1",)]][:3])


WORKLOAD = LMBenchWorkload()
