"""RT latency (suite rt_latency): cyclictest's maximum latency per use case on a shielded CPU, the OSADL test, and
the minimum, average and maximum latency per CPU under stress-ng.

Rows named `L_PERF_SHIELD_SMP_<USE CASE>` run the use case's load (variables/workloads/rt.yaml: use_cases.loads)
and cyclictest on the rt cpu of the guide's cpuset shield, in one shell command; columns named `CPU <n>` (the SDK
11-12 RT guides' "Stress-ng and Cyclic Test" tables, rows Minimum/Average/Maximum) run the guides' stress-ng load
and `cyclictest -S` (one thread per CPU) in one shell command, each CPU's figures from its thread; any other row
is the OSADL command's histogram summary (Max/Min/Avg Latencies, Histogram Overflows).

Run length: the loop count and durations are data (`as_long_as_the_guide: true` runs the guide's length wherever
a guide states it). The guide's length is imported with the criteria: the OSADL summary's `# Total:` (context
Total=100000000) and, where TI states it in the text before the table, `run=4h` or `run=6h` (variables/sections.yaml
run_lengths). The gate's length is what cyclictest printed (`loops`: the wake-ups of its thread that ran fewest,
times the interval for a duration). Each tail-latency criterion (a maximum, histogram overflows) gets both in
`Measurements.lengths`, for the gate's verdict (perfgate.decision.sequential.short_run), and the log says both.
"""

from __future__ import annotations

import re
import shlex

from perfgate import address
from perfgate.decision.sequential import RunLength
from perfgate.model import Criterion
from perfgate.tools.cyclictest import MAX, interval_us
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all
from perfgate.workloads.peripherals import clean, context, fill, missing, settings

SUITE = "rt_latency"
USE_CASE_PREFIX = "l_perf_shield_smp_"
OSADL, PER_CPU, USE_CASES = "osadl", "per_cpu", "use_cases"  # the three kinds of run, as rt.yaml names them


def metric_key(c: Criterion) -> str:
    """The cyclictest metric a criterion publishes."""
    text = clean(f"{c.row} {c.metric}")
    if "overflow" in text:
        return "histogram overflows"
    if "min" in text.split() or "min latenc" in text:
        return "min latency (us)"
    if "avg" in text or "average" in text:
        return "avg latency (us)"
    return "max latency (us)"


def cpu_of(c: Criterion) -> int | None:
    """The CPU of a per-CPU criterion (column `CPU 0`), else None."""
    m = re.fullmatch(r"cpu\s*(\d+)", clean(c.metric))
    return int(m.group(1)) if m else None


def per_cpu_key(c: Criterion, cpu: int) -> str:
    """The parser's per-thread metric of a per-CPU row (Minimum/Average/Maximum (usec))."""
    row = clean(c.row)
    word = "min" if row.startswith("min") else "avg" if row.startswith(("avg", "average", "mean")) else "max"
    return f"{word} latency T{cpu} (us)"


def use_case(c: Criterion) -> str | None:
    row = clean(c.row)
    if row.startswith(USE_CASE_PREFIX):
        return row[len(USE_CASE_PREFIX) :].upper()
    return None


class RtLatency(Workload):
    suite = SUITE

    def _use_case_run(self, name: str, s: dict, profile: dict, lab: dict, tester: str,
                      c: Criterion) -> Run | str:  # fmt: skip
        uc = {**s["use_cases"], "duration": duration(s, USE_CASES, c)}
        load = (uc.get("loads") or {}).get(name)
        if load is None:
            return f"no load for use case {name} (variables/workloads/rt.yaml: rt_latency.use_cases.loads)"
        reason = missing(load.get("requires"), profile, lab, f"use case {name}: ")
        if reason:
            return reason
        values = {**(uc.get("devices") or {}), **uc, "cpus": profile.get("cpus", 1), "tester": tester}
        values["cgroup"] = uc.get("cgroup", "/sys/fs/cgroup")
        shield = [fill(line, values) for line in uc.get("shield") or []]
        unshield = [fill(line, values) for line in uc.get("unshield") or []]
        cyclictest = f"{s.get('cyclictest', 'cyclictest')} {fill(uc['options'], values)}"
        # one shell: stop at the first failing step; on exit stop the load and give the cpus back
        cleanup = "; ".join(["kill $LOAD 2>/dev/null || true", *unshield])
        steps = ["set -e", "LOAD=", f"cleanup() {{ {cleanup}; }}", "trap cleanup EXIT", *shield]
        if load.get("load"):
            steps.append(f"{fill(fill(load['load'], values), values)} > /dev/null 2>&1 & LOAD=$!")
        steps.append(cyclictest)
        seconds = _seconds(str(uc.get("duration", "60s")))
        return Run("cyclictest", "sh -c " + shlex.quote("; ".join(steps)), timeout=seconds * 2 + 120,
                   label=f"cyclictest-{name.lower()}")  # fmt: skip

    def _osadl_run(self, s: dict, c: Criterion) -> Run:
        o = {**s["osadl"], "loops": loops(s, c)}
        command = f"{s.get('cyclictest', 'cyclictest')} {fill(o['options'], o)}"
        seconds = int(o.get("loops", 100000)) * 200e-6
        return Run("cyclictest", command, timeout=seconds * 3 + 120, label="cyclictest-osadl")

    def _per_cpu_run(self, s: dict, c: Criterion) -> Run:
        pc = {**s["per_cpu"], "duration": duration(s, PER_CPU, c)}
        cyclictest = f"{s.get('cyclictest', 'cyclictest')} {fill(pc['options'], pc)}"
        steps = [f"{pc['load']} > /dev/null 2>&1 & LOAD=$!", "trap 'kill $LOAD 2>/dev/null || true' EXIT", cyclictest]
        seconds = _seconds(str(pc.get("duration", "60s")))
        return Run("cyclictest", "sh -c " + shlex.quote("; ".join(steps)), timeout=seconds * 2 + 120,
                   label="cyclictest-per-cpu")  # fmt: skip

    def plan_with_skips(self, criteria: list[Criterion], profile: dict, lab: dict,
                        tester: str = "{tester}") -> tuple[list[Run], dict[str, str]]:  # fmt: skip
        s = settings(SUITE, profile, lab)
        runs: dict[str, Run] = {}
        reasons: dict[str, str] = {}  # use case -> why it cannot run here
        skipped: dict[str, str] = {}  # criterion id -> that reason
        for c in criteria:
            name = use_case(c)
            cpu = cpu_of(c)
            key = name or ("PER_CPU" if cpu is not None else "OSADL")
            if key not in runs and key not in reasons:
                if name:
                    r = self._use_case_run(name, s, profile, lab, tester, c)
                else:
                    r = self._per_cpu_run(s, c) if cpu is not None else self._osadl_run(s, c)
                if isinstance(r, str):
                    reasons[key] = r
                else:
                    runs[key] = r
            if key in reasons:
                skipped[c.id] = reasons[key]
            else:
                metric = per_cpu_key(c, cpu) if cpu is not None and not name else metric_key(c)
                runs[key].keys.setdefault(metric, []).append(c.id)
        return list(runs.values()), skipped

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        tester = str(((lab or {}).get("tester") or {}).get("address", "127.0.0.1"))
        return self.plan_with_skips(criteria, profile, lab, tester)[0]

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        needs = any(_needs_tester(c, ctx.profile, ctx.lab) for c in criteria)
        tester = address.checked(ctx.tester(), "the tester's address (lab tester.address)") if needs else "127.0.0.1"
        runs, skipped = self.plan_with_skips(criteria, ctx.profile, ctx.lab, tester)
        s = settings(SUITE, ctx.profile, ctx.lab)
        by_id = {c.id: c for c in criteria}
        for r in runs:
            c = by_id[next(cid for ids in r.keys.values() for cid in ids)]
            ctx.note(_plan_note(r, c, s))
        out = run_all(runs, ctx)
        out.skipped.update(skipped)
        for r in runs:
            for metric, ids in r.keys.items():
                for cid in ids if tail(metric) else []:
                    run = run_length(by_id[cid], r, out.parsed.get(r.label or r.tool), s)
                    if run is not None:
                        out.lengths[cid] = run
        return out


def kind(r: Run) -> str:
    return {"cyclictest-osadl": OSADL, "cyclictest-per-cpu": PER_CPU}.get(r.label, USE_CASES)


def tail(metric: str) -> bool:
    """A metric whose value grows with the run's length: a maximum, the count of histogram overflows."""
    return metric in (MAX, "histogram overflows") or metric.startswith("max latency T")


def stated(c: Criterion) -> str | None:
    """The run length the criterion's guide states (`4h`, `6h`: its imported context `run`); None without a guide
    (a board whose thresholds are its own recorded runs, `baseline:...`)."""
    return context(c).get("run") if c.guide.endswith(".rst") else None


def guide_length(s: dict, k: str, c: Criterion) -> RunLength | None:
    """The guide's length of the criterion's run, in `loops` (OSADL: its `# Total:`, imported as context) or `s`
    (its `run` context), as a RunLength with ran=0; None when no guide states it (a board whose thresholds are its
    own recorded runs, `baseline:...`)."""
    if not c.guide.endswith(".rst"):
        return None
    slack = float(s.get("run_length_slack", 0.0))
    if k == OSADL:
        total = context(c).get("Total")
        return RunLength(0, float(total), "loops", slack) if total else None
    run = stated(c)
    return RunLength(0, _seconds(run), "s", slack) if run else None


def loops(s: dict, c: Criterion) -> int:
    """The OSADL run's loop count: the guide's `# Total:` when the settings say `as_long_as_the_guide` and the
    guide states it, else rt.yaml osadl.loops."""
    g = guide_length(s, OSADL, c) if s.get("as_long_as_the_guide") else None
    return int(g.guide) if g is not None else int(s[OSADL].get("loops", 100000))


def duration(s: dict, k: str, c: Criterion) -> str:
    """A use case's or the per-CPU run's duration: the guide's when the settings say `as_long_as_the_guide` and
    the guide states it, else rt.yaml `duration`."""
    run = stated(c) if s.get("as_long_as_the_guide") else None
    return str(run or s[k].get("duration", "60s"))


def run_length(c: Criterion, r: Run, printed: dict[str, float] | None, s: dict) -> RunLength | None:
    """How long the criterion's run was beside the guide's: the wake-ups cyclictest printed (the thread that ran
    fewest), else what the settings asked for."""
    k = kind(r)
    g = guide_length(s, k, c)
    if g is None:
        return None
    interval = interval_us(r.command)
    if printed and "loops" in printed:
        n = printed["loops"]
        ran = n if g.unit == "loops" else n * interval / 1e6
        detail = "as cyclictest printed" if g.unit == "loops" else f"{n:.0f} wake-ups of {interval:g} us, as printed"
    elif g.unit == "loops":
        ran, detail = float(loops(s, c)), "as asked: cyclictest printed no count"
    else:
        ran, detail = _seconds(duration(s, k, c)), "as asked: cyclictest printed no count"
    return RunLength(ran, g.guide, g.unit, g.slack, detail)


def _plan_note(r: Run, c: Criterion, s: dict) -> str:
    """What the log says before a run: what it runs, and how long beside the guide's run (as the guide states it)."""
    k = kind(r)
    if k == OSADL:
        total = context(c).get("Total") if c.guide.endswith(".rst") else None
        guide = f"the guide: {float(total):.0f}" if total else "no guide states its length"
        return f"OSADL test with {loops(s, c)} loops ({guide}), by cyclictest"
    run = stated(c)
    guide = f"the guide: {run}, {c.guide}" if run else "no guide states its length"
    if k == PER_CPU:
        pc = s[PER_CPU]
        return f"per-CPU latency under `{pc.get('load')}`: cyclictest -S for {duration(s, k, c)} ({guide})"
    name = r.label.removeprefix("cyclictest-").upper()
    return f"shielded use case {name}: cyclictest for {duration(s, k, c)} ({guide})"


def _needs_tester(c: Criterion, profile: dict, lab: dict) -> bool:
    name = use_case(c)
    if not name:
        return False
    load = (settings(SUITE, profile, lab)["use_cases"].get("loads") or {}).get(name) or {}
    return "{tester}" in str(load.get("load", ""))


def _seconds(text: str) -> float:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    text = text.strip()
    if text and text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)


WORKLOAD = RtLatency()
