"""gst-launch-1.0 parser on real GStreamer 1.22 captures (tests/fixtures/gstreamer/PROVENANCE.md), sim round trip."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import gstreamer as sim_gstreamer
from perfgate.tools import gstreamer
from testpaths import FIXTURES

FIX = FIXTURES / "gstreamer"
PLAYBIN = 'gst-launch-1.0 playbin uri=file:///x.mp4 video-sink="kmssink sync=false connector=0" audio-sink=fakesink'


def test_execution_time_of_a_paced_pipeline() -> None:
    assert gstreamer.parse((FIX / "gst-videotestsrc-60.txt").read_text()) == {"execution time (s)": 1.000386144}


def test_playbin_decode() -> None:
    m = gstreamer.parse((FIX / "gst-playbin-theora.txt").read_text(), PLAYBIN)
    assert m["execution time (s)"] == pytest.approx(0.041307187)


def test_failed_pipeline_quotes_the_first_error() -> None:
    with pytest.raises(ParseError) as e:
        gstreamer.parse((FIX / "playbin-missing-file.txt").read_text())
    assert "Resource not found" in str(e.value) and e.value.line == 2


def test_no_eos_is_an_error() -> None:
    text = "Setting pipeline to PAUSED ...\nExecution ended after 0:00:01.000000000\n"
    with pytest.raises(ParseError, match="end of stream"):
        gstreamer.parse(text)


@pytest.mark.parametrize("seconds", [0.5, 24.2, 4000.0])
def test_round_trip(seconds: float) -> None:
    text = sim_gstreamer.render(PLAYBIN, {"execution time (s)": seconds}, random.Random(2))
    assert gstreamer.parse(text, PLAYBIN)["execution time (s)"] == pytest.approx(seconds, rel=2e-3)
    assert 'Got EOS from element "playbin0".' in text


def test_fps_from_the_stated_frame_count() -> None:
    command = "STREAM_FRAMES=120 " + PLAYBIN
    m = gstreamer.parse((FIX / "gst-playbin-theora.txt").read_text(), command)
    assert m["fps"] == pytest.approx(120 / 0.041307187, rel=1e-3)
    text = sim_gstreamer.render(command, {"fps": 59.94}, random.Random(3))
    assert gstreamer.parse(text, command)["fps"] == pytest.approx(59.94, rel=2e-3)
