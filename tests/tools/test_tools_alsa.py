"""ALSA parser: ltp-ddt TRACE LOG lines and timed arecord/aplay (real alsa-utils captures), and the sim round trip."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import alsa as sim_alsa
from perfgate.tools import alsa
from testpaths import FIXTURES

FIX = FIXTURES / "alsa"
ARECORD = "/usr/bin/time -v arecord -D hw:0,0 -t raw -r 44100 -c 2 -f S16_LE --period-size=64 -s 441000 /dev/null"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_ltp_ddt_capture() -> None:
    assert alsa.parse(read("ltp-ddt-capture-reconstructed.txt")) == {
        "throughput (bits/sec)": 1411175.0,
        "cpu load (%)": 0.48,
    }


def test_ltp_ddt_playback() -> None:
    assert alsa.parse(read("ltp-ddt-playback-reconstructed.txt"))["throughput (bits/sec)"] == 1411756.0


def test_timed_arecord_uses_frames_channels_format_and_elapsed() -> None:
    # real GNU time block (0.50 s elapsed); the command says 441000 frames x 2 ch x 16 bit
    m = alsa.parse(read("time-v-sleep.txt"), ARECORD)
    assert m["throughput (bits/sec)"] == pytest.approx(441000 * 2 * 16 / 0.5)
    assert m["cpu load (%)"] == 0.0


def test_unpaced_null_device_is_rejected_with_its_line() -> None:
    command = "/usr/bin/time -v arecord -D null -t raw -r 44100 -c 2 -f S16_LE --period-size=64 -s 44100 /dev/null"
    with pytest.raises(ParseError) as e:
        alsa.parse(read("arecord-null-time-v.txt"), command)
    assert "zero" in str(e.value) and e.value.line == 6


def test_timed_without_frame_count_is_an_error() -> None:
    with pytest.raises(ParseError, match="-s <frames>"):
        alsa.parse(read("time-v-sleep.txt"), "/usr/bin/time -v arecord -d 10 -f S16_LE /dev/null")


def test_no_card_quotes_arecord() -> None:
    with pytest.raises(ParseError) as e:
        alsa.parse(read("arecord-no-card.txt"), "arecord -D hw:0,0 -s 441 /dev/null")
    assert "Cannot get card index" in str(e.value) or "audio open error" in str(e.value)


@pytest.mark.parametrize(
    "command",
    [
        "alsa_perf_tests -t capture -r 44100",
        "alsa_perf_tests -t playback -r 96000",
        ARECORD,
        "/usr/bin/time -v aplay -D hw:0,0 -t raw -r 44100 -c 2 -f S16_LE --period-size=64 -s 441000 /dev/zero",
    ],
)
def test_round_trip(command: str) -> None:
    values = {"throughput (bits/sec)": 1411176.0, "cpu load (%)": 3.0}
    m = alsa.parse(sim_alsa.render(command, values, random.Random(5)), command)
    assert m["throughput (bits/sec)"] == pytest.approx(1411176.0, rel=2e-3)
    assert 2.0 <= m["cpu load (%)"] <= 4.0
