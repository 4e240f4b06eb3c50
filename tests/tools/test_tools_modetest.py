"""modetest parser (real no-device capture, reconstructed flip output), sim round trip."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import modetest as sim_modetest
from perfgate.tools import modetest
from testpaths import FIXTURES

FIX = FIXTURES / "modetest"


def test_mean_min_max_of_freq_lines() -> None:
    m = modetest.parse((FIX / "lcd-1920x1200-reconstructed.txt").read_text())
    assert m["fps min"] == 59.01 and m["fps max"] == 60.11
    assert m["fps"] == pytest.approx(59.91, abs=0.01)


def test_no_device_quotes_modetest() -> None:
    with pytest.raises(ParseError) as e:
        modetest.parse((FIX / "no-device.txt").read_text())
    assert "failed to open device" in str(e.value) and e.value.line == 1


@pytest.mark.parametrize("fps", [56.25, 59.99, 75.03])
def test_round_trip(fps: float) -> None:
    command = "timeout 10 modetest -M omapdrm -v -s 39:1024x768-75"
    text = sim_modetest.render(command, {"fps": fps}, random.Random(4))
    assert text.startswith("setting mode 1024x768-75.00Hz on connectors 39")
    assert modetest.parse(text, command)["fps"] == pytest.approx(fps, abs=0.01)
