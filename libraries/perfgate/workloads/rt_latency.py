"""RT latency (suite rt_latency): cyclictest's maximum latency per use case on a shielded CPU, the OSADL test, and
the minimum, average and maximum latency per CPU under stress-ng.

Rows named `L_PERF_SHIELD_SMP_<USE CASE>` run the use case's load (variables/workloads/rt.yaml: use_cases.loads)
and cyclictest on the rt cpu of the guide's cpuset shield, in one shell command; columns named `CPU <n>` (the SDK
11-12 RT guides' "Stress-ng and Cyclic Test" tables, rows Minimum/Average/Maximum) run the guides' stress-ng load
and `cyclictest -S` (one thread per CPU) in one shell command, each CPU's figures from its thread; any other row
is the OSADL command's histogram summary (Max/Min/Avg Latencies, Histogram Overflows). The loop count and
duration are shorter than the guide's (data), and the log says so.
"""

from __future__ import annotations

import re
import shlex

from perfgate import address
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all
from perfgate.workloads.peripherals import clean, fill, missing, settings

SUITE = "rt_latency"
USE_CASE_PREFIX = "l_perf_shield_smp_"


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

    def _use_case_run(self, name: str, s: dict, profile: dict, lab: dict, tester: str) -> Run | str:
        uc = s["use_cases"]
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

    def _osadl_run(self, s: dict) -> Run:
        o = s["osadl"]
        command = f"{s.get('cyclictest', 'cyclictest')} {fill(o['options'], o)}"
        seconds = int(o.get("loops", 100000)) * 200e-6
        return Run("cyclictest", command, timeout=seconds * 3 + 120, label="cyclictest-osadl")

    def _per_cpu_run(self, s: dict) -> Run:
        pc = s["per_cpu"]
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
                    r = self._use_case_run(name, s, profile, lab, tester)
                else:
                    r = self._per_cpu_run(s) if cpu is not None else self._osadl_run(s)
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
        o, uc = s["osadl"], s["use_cases"]
        if any(r.label == "cyclictest-osadl" for r in runs):
            ctx.note(f"OSADL test with {o.get('loops')} loops (the guide: {o.get('guide_loops')}), by cyclictest")
        if any(r.label == "cyclictest-per-cpu" for r in runs):
            pc = s["per_cpu"]
            ctx.note(f"per-CPU latency under `{pc.get('load')}`: cyclictest -S for {pc.get('duration')} "
                     f"(the guide: {pc.get('guide_duration')})")  # fmt: skip
        if any(r.label not in ("cyclictest-osadl", "cyclictest-per-cpu") for r in runs):
            ctx.note(f"shielded use cases run {uc.get('duration')} each (the guide: {uc.get('guide_duration')}), "
                     "by cyclictest")  # fmt: skip
        out = run_all(runs, ctx)
        out.skipped.update(skipped)
        return out


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
