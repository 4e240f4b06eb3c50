"""The audio, graphics and power suites of am62xx_sk (the AM62x SDK 10.00 guide) against the simulated board: one
test per criterion, all pass; a degraded rail and a degraded sampling rate fail alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from perfgate import criteria
from peripheral_runs import run_suites as run_gate
from seed_releases import seed

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
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


def test_a_reading_before_the_board_sleeps_fails_on_the_sim(tmp_path: Path) -> None:
    """The simulated board suspends when its background job gets there and its rails read the mode's power only
    while it sleeps: a lab whose evidence stops at `PM: suspend entry` (the meter read before the freezer, the
    console's suspend and the SoC's) reads an awake board, and every rail of both modes fails; nothing passes."""
    lab = yaml.safe_load((ROOT / "variables" / "labs" / "sim.yaml").read_text(encoding="utf-8"))
    lab["name"] = "sim-early"
    lab.setdefault("workloads", {})["low_power"] = {"entered": {"console": [r"PM: suspend entry \(deep\)"], "quiet": 0}}
    path = tmp_path / "sim-early.yaml"
    path.write_text(yaml.safe_dump(lab), encoding="utf-8")
    r = run_gate(tmp_path, "am62xx_sk", ["low_power"], timeout=300, LAB=str(path))
    power = criteria.load("am62xx_sk", "low_power", release=seed("am62xx_sk"))
    rails = [c.name for c in power if "resume latency" not in c.table.casefold()]
    assert len(rails) == 12
    for name in rails:
        status, message = r["tests"][name]
        assert status == "FAIL" and "worse than published" in message, (name, message)
