"""The audio, graphics and power suites of am62xx_sk (the AM62x SDK 10.00 guide) against the simulated board: one
test per criterion, all pass; a degraded rail and a degraded sampling rate fail alone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from peripheral_runs import run_suites as run_gate

from perfgate import criteria

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from seed_releases import seed

pytestmark = pytest.mark.slow
SUITES = ["alsa", "glmark2", "gfxbench", "low_power"]


def test_every_criterion_is_a_passing_test(tmp_path: Path) -> None:
    r = run_gate(tmp_path, "am62xx_sk", SUITES, timeout=300)
    expected = [c.name for s in SUITES for c in criteria.load("am62xx_sk", s, release=seed("am62xx_sk"))]
    assert len(expected) == 20 + 3 + 2 + 12
    assert sorted(r["tests"]) == sorted(expected), r["stdout"][-2000:]
    failed = {n: m for n, (s, m) in r["tests"].items() if s != "PASS"}
    assert not failed, failed


def test_degraded_criteria_fail_alone(tmp_path: Path) -> None:
    power = criteria.load("am62xx_sk", "low_power", release=seed("am62xx_sk"))
    rail = next(c for c in power if c.table == "MCU only" and c.row == "vdd_core")
    alsa = next(c for c in criteria.load("am62xx_sk", "alsa", release=seed("am62xx_sk"))
                if c.row == "44100" and "Throughput" in c.metric and "Capture" in c.table)  # fmt: skip
    r = run_gate(tmp_path, "am62xx_sk", ["alsa", "low_power"], timeout=300,
                 FAULTS=f"degrade:{rail.id}:25,degrade:{alsa.id}:20")  # fmt: skip
    failed = sorted(n for n, (s, _) in r["tests"].items() if s != "PASS")
    assert failed == sorted([rail.name, alsa.name]), failed
