"""Power meter parser (reconstructed: tests/fixtures/power/PROVENANCE.md), sim round trip."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import power as sim_power
from perfgate.tools import power
from testpaths import FIXTURES

FIX = FIXTURES / "power"


def test_rails_and_meter_total() -> None:
    m = power.parse((FIX / "deep-sleep-am62x-reconstructed.txt").read_text())
    assert m["vdd_core (mW)"] == 7.95 and m["vdd_lpddr4 (mW)"] == 7.5 and m["total (mW)"] == 25.43


def test_ina_microwatts_and_summed_total() -> None:
    m = power.parse((FIX / "ina-hwmon-reconstructed.txt").read_text())
    assert m["vdd_core (mW)"] == 121.81 and m["total (mW)"] == pytest.approx(154.6)


def test_watts() -> None:
    assert power.parse("vdd_core: 0.5 W\n")["vdd_core (mW)"] == 500.0


def test_meter_error() -> None:
    with pytest.raises(ParseError) as e:
        power.parse((FIX / "meter-error-reconstructed.txt").read_text())
    assert "timed out" in str(e.value) and e.value.line == 1


def test_round_trip_keeps_rails_and_total() -> None:
    vals = {"vdd_core (mW)": 121.81, "soc_dvdd_3v3 (mW)": 12.72, "total (mW)": 154.61}
    m = power.parse(sim_power.render("meter", vals, random.Random(0)))
    assert m["vdd_core (mW)"] == pytest.approx(121.81, rel=0.011) and m["total (mW)"] == pytest.approx(154.61, rel=6e-3)


def test_entering_a_mode_is_left_to_the_simulated_shell() -> None:
    """The sim answers only the meter: the background job that enters a mode runs in its shell, which suspends
    the board later (tests/sim/test_sim_board.py), so the gate cannot read the meter early and still pass."""
    from perfgate.sim import workloads as sim_workloads
    from perfgate.workloads import low_power
    from peripheral_board import SIM_LAB, BoardContext, board_criteria

    crits = board_criteria("am62xx_sk", "low_power")
    profile = BoardContext("am62xx_sk", low_power.WORKLOAD, crits).profile
    runs = low_power.WORKLOAD.plan(crits, profile, SIM_LAB)
    enter = [r for r in runs if r.label.startswith("enter-")]
    assert enter and all(not r.keys for r in enter)  # setup commands: the sim's answers do not index them
    for r in enter:
        assert sim_workloads.expected(low_power.WORKLOAD, r.command, crits, profile, SIM_LAB) is None
