"""ALSA workload: one run per sampling rate and direction with the guides' settings, by ltp-ddt or by arecord/aplay
under GNU time (data: variables/workloads/audio.yaml), answered as the simulated board answers."""

from __future__ import annotations

import pytest

from perfgate.datafile import merge
from perfgate.workloads import alsa
from peripheral_board import SIM_LAB, BoardContext, board_criteria


def context(method: str) -> tuple[BoardContext, list]:
    crits = board_criteria("j721e_idk_gw", "alsa")
    ctx = BoardContext("j721e_idk_gw", alsa.WORKLOAD, crits, lab=dict(SIM_LAB))
    ctx.profile = merge(ctx.profile, {"workloads": {"alsa": {"method": method}}})  # type: ignore[assignment]
    return ctx, crits


@pytest.mark.parametrize("method", ["ltp-ddt", "timed"])
def test_every_rate_and_direction(method: str) -> None:
    ctx, crits = context(method)
    m = alsa.WORKLOAD.measure(crits, ctx)
    assert len(ctx.commands) == 18  # 9 rates x capture, playback
    for c in crits:
        if "Throughput" in c.metric or method == "ltp-ddt":
            assert m.values[c.id] == pytest.approx(c.value, rel=0.02), c.id
        else:  # GNU time prints whole percents
            assert m.values[c.id] == round(m.values[c.id]) and abs(m.values[c.id] - c.value) <= 0.5, c.id


def test_timed_commands_have_the_guides_settings() -> None:
    ctx, crits = context("timed")
    alsa.WORKLOAD.measure(crits, ctx)
    cmd = next(c for _, c in ctx.commands if "arecord" in c and "-r 44100" in c)
    assert cmd == (
        "/usr/bin/time -v arecord -D hw:0,0 -t raw -r 44100 -c 2 -f S16_LE --period-size=64 -s 441000 /dev/null"
    )


def test_no_audio_on_the_board() -> None:
    ctx, crits = context("ltp-ddt")
    ctx.profile = {**ctx.profile, "has": ["ethernet"]}
    assert alsa.WORKLOAD.applicable(crits, ctx.profile, SIM_LAB) == (
        "board j721e_idk_gw has no audio (variables/boards/j721e_idk_gw.yaml: has)"
    )
