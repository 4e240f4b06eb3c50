"""The rt, graphics and multimedia suites of am574x_idk (the AM57x RT guide) against the simulated board: one test
per criterion, all pass; a degraded criterion fails alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfgate import criteria
from peripheral_runs import run_suites as run_gate
from seed_releases import seed

pytestmark = pytest.mark.slow
SUITES = ["rt_latency", "glbenchmark", "decode", "display"]


def names(board: str) -> list[str]:
    return [c.name for s in SUITES for c in criteria.load(board, s, release=seed(board))]


def test_every_criterion_is_a_passing_test(tmp_path: Path) -> None:
    r = run_gate(tmp_path, "am574x_idk", SUITES, timeout=400)
    expected = names("am574x_idk")
    assert len(expected) == 79
    assert sorted(r["tests"]) == sorted(expected), r["stdout"][-2000:]
    failed = {n: m for n, (s, m) in r["tests"].items() if s != "PASS"}
    assert not failed, failed
    raw = next((r["results"] / "virtual" / "am574x_idk").glob("2*/raw/rt_latency"))
    assert (raw / "cyclictest-osadl-1.txt").read_text().count("# Max Latencies:") == 1
    # the simulated lab runs real-time latency as long as the guide (4 hours a use case, 100000000 OSADL loops)
    entries = {e["row"]: e for e in json.loads((raw.parents[1] / "metrics.json").read_text()) if "run_length" in e}
    assert len(entries) == 13 and not any(e["run_length"]["short"] for e in entries.values())
    assert "ran 100000000 loops (as cyclictest printed) of the guide's 100000000 loops" in entries["Max Latencies"][
        "message"]  # fmt: skip
    assert "of the guide's 14400 s (4 h)" in entries["L_PERF_SHIELD_SMP_NO_LOAD"]["message"]


def test_degraded_criteria_fail_alone(tmp_path: Path) -> None:
    rt = "am574x_idk.rt_latency.max-latency-for-shielded-use-cases.l-perf-shield-smp-hackbench.latency"
    mode = next(c for c in criteria.load("am574x_idk", "display", release=seed("am574x_idk")) if c.row == "1280x720@60")
    r = run_gate(tmp_path, "am574x_idk", ["rt_latency", "display"], timeout=400,
                 FAULTS=f"degrade:{rt}:95,degrade:{mode.id}:20")  # fmt: skip
    # 95 %: a maximum latency strays far run to run (variables/noise.yaml: rt-latency, 15 %), so only a clear
    # regression is a FAIL within REPEAT runs; a smaller one is inconclusive (test_sequential_gate.py)
    failed = {n: m for n, (s, m) in r["tests"].items() if s != "PASS"}
    assert sorted(failed) == sorted(["L_PERF_SHIELD_SMP_HACKBENCH", mode.name]), failed
    assert "published 63 us" in failed["L_PERF_SHIELD_SMP_HACKBENCH"]
    assert len(r["tests"]) == 15 + 36
