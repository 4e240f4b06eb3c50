"""v4l2-ctl streaming parser (real no-device capture, reconstructed stream output), sim round trip."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import v4l2 as sim_v4l2
from perfgate.tools import v4l2
from testpaths import FIXTURES

FIX = FIXTURES / "v4l2"


def test_mean_after_the_first_report() -> None:
    assert v4l2.parse((FIX / "stream-mmap-reconstructed.txt").read_text())["fps"] == pytest.approx(29.997)


def test_old_format_without_dropped_buffers() -> None:
    assert v4l2.parse((FIX / "stream-mmap-old-reconstructed.txt").read_text())["fps"] == 15.0


def test_no_device() -> None:
    with pytest.raises(ParseError) as e:
        v4l2.parse((FIX / "no-device.txt").read_text())
    assert "Cannot open device /dev/video1" in str(e.value)


@pytest.mark.parametrize("fps", [15.0, 30.0, 60.0])
def test_round_trip(fps: float) -> None:
    command = (
        "v4l2-ctl -d /dev/video1 --set-fmt-video=width=320,height=240,pixelformat=BA81 --stream-mmap --stream-count=300"
    )
    assert v4l2.parse(sim_v4l2.render(command, {"fps": fps}, random.Random(1)), command)["fps"] == pytest.approx(fps)
