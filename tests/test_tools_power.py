"""Power meter parser (reconstructed: tests/fixtures/power/PROVENANCE.md), sim round trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import power as sim_power
from perfgate.tools import power

FIX = Path(__file__).parent / "fixtures" / "power"


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


def test_entering_a_mode_prints_nothing() -> None:
    assert sim_power.render("(sleep 5; rtcwake -s 30 -m mem) > /dev/null 2>&1 &", {}, random.Random(0)) == ""
