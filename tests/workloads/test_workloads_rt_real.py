"""The rt_latency commands run for real on this host with rt-tests 2.4 (as root): the OSADL command as the data
gives it, and a shielded use case whose script is real shell (set -e, the load in the background, the cleanup
trap) on a scratch directory standing in for the cpuset hierarchy, so the host's cgroups are never touched."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from perfgate import boards, criteria
from perfgate.datafile import merge
from perfgate.workloads import rt_latency
from peripheral_board import HostContext
from seed_releases import seed

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not shutil.which("cyclictest") or os.geteuid() != 0, reason="needs rt-tests, as root"),
]
LAB = {"name": "localhost", "has": ["ethernet"], "tester": {"address": "127.0.0.1"}}


def profile(**rt: object) -> dict:
    p = boards.profile("am574x_idk")
    return merge(p, {"workloads": {"rt_latency": rt}})  # type: ignore[return-value]


def test_osadl_command_runs_as_the_data_gives_it() -> None:
    crits = [
        c for c in criteria.load("am574x_idk", "rt_latency", release=seed("am574x_idk")) if c.table == "OSADL Test"
    ]
    ctx = HostContext("am574x_idk", profile(osadl={"loops": 2000}), LAB)
    m = rt_latency.WORKLOAD.measure(crits, ctx)
    assert not m.missing, m.missing
    by_row = {c.row: m.values[c.id] for c in crits}
    assert 0 < by_row["Min Latencies"] <= by_row["Avg Latencies"] <= by_row["Max Latencies"]
    assert "# Histogram" in ctx.outputs[0]
    # its length as cyclictest printed it (# Total + overflows), beside the guide's # Total (issue 13 part 4)
    run = m.lengths[next(c.id for c in crits if c.row == "Max Latencies")]
    assert (run.ran, run.guide, run.unit, run.short) == (2000, 100000000, "loops", True)


def test_shielded_use_case_script(tmp_path: Path) -> None:
    cg = tmp_path / "cpuset"
    cg.mkdir()
    (cg / "tasks").write_text("")
    marker = "sleep 123.4"
    loads = {"STRESS_LOAD": {"load": marker}}
    ctx = HostContext("am574x_idk", profile(use_cases={"cgroup": str(cg), "duration": "1s", "rt_cpu": 0,
                                                       "loads": loads}), LAB)  # fmt: skip
    crits = [
        c
        for c in criteria.load("am574x_idk", "rt_latency", release=seed("am574x_idk"))
        if c.row.endswith("STRESS_LOAD")
    ]
    m = rt_latency.WORKLOAD.measure(crits, ctx)
    assert not m.missing, (m.missing, ctx.outputs)
    assert m.values[crits[0].id] > 0
    assert (cg / "rt" / "cpuset.cpus").read_text().strip() == "0"  # the shield steps ran
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False).stdout
    assert left == "", "the cleanup trap did not stop the load"


def test_a_failing_shield_step_is_the_reason_not_a_number(tmp_path: Path) -> None:
    ctx = HostContext("am574x_idk", profile(use_cases={"cgroup": "/proc/perfgate-no-such/cpuset", "duration": "1s",
                                                       "rt_cpu": 0}), LAB)  # fmt: skip
    crits = [
        c for c in criteria.load("am574x_idk", "rt_latency", release=seed("am574x_idk")) if c.row.endswith("NO_LOAD")
    ]
    m = rt_latency.WORKLOAD.measure(crits, ctx)
    assert crits[0].id not in m.values
    why = m.missing.get(crits[0].id) or "; ".join(m.invalid.get(crits[0].id, []))  # a run that failed: INVALID
    assert "mkdir" in why, (m.missing, m.invalid)


def test_per_cpu_latency_runs_the_rt_guides_commands() -> None:
    """The SDK 12 RT guide's `stress-ng --cpu-method=all -c 4 &` and `cyclictest -m -Sp80 ... -M -q` (2 s here):
    each CPU's minimum, average and maximum from its own thread (this host has 2 CPUs, as the AM64x EVM)."""
    crits = criteria.load("am64xx_evm", "rt_latency", release="12.00.00-RT")
    assert len(crits) == 6
    p = merge(boards.profile("am64xx_evm"), {"workloads": {"rt_latency": {"per_cpu": {"duration": "2s"}}}})
    ctx = HostContext("am64xx_evm", p, LAB)  # type: ignore[arg-type]
    m = rt_latency.WORKLOAD.measure(crits, ctx)
    assert not m.missing, (m.missing, ctx.outputs)
    got = {(c.row.split()[0], c.metric): m.values[c.id] for c in crits}
    for cpu in ("CPU 0", "CPU 1"):
        assert 0 < got[("Minimum", cpu)] <= got[("Average", cpu)] <= got[("Maximum", cpu)]
    assert "-Sp80" in ctx.commands[0] and "stress-ng --cpu-method=all -c 4" in ctx.commands[0]
    # each maximum's run length: the wake-ups cyclictest printed (a loaded host misses a few) times 200 us, beside
    # the guide's -D6h (rt-linux-12.00.00-am64x.rst:62)
    runs = {c.metric: m.lengths[c.id] for c in crits if c.row.startswith("Maximum")}
    assert sorted(runs) == ["CPU 0", "CPU 1"] and all(r.short and r.guide == 21600 for r in runs.values())
    assert all(1.0 < r.ran <= 2.0 and "wake-ups of 200 us" in r.detail for r in runs.values()), runs


def test_per_cpu_load_is_stopped_when_cyclictest_ends() -> None:
    marker = "sleep 123.6"
    p = merge(boards.profile("am64xx_evm"),
              {"workloads": {"rt_latency": {"per_cpu": {"duration": "1s", "load": marker}}}})  # fmt: skip
    ctx = HostContext("am64xx_evm", p, LAB)  # type: ignore[arg-type]
    crits = criteria.load("am64xx_evm", "rt_latency", release="12.00.00-RT")
    m = rt_latency.WORKLOAD.measure(crits, ctx)
    assert not m.missing, (m.missing, ctx.outputs)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False).stdout
    assert left == "", "the trap did not stop the load"
