"""The decode workload with real GStreamer on this host: a 120-frame Theora/Ogg stream made here, played by the
guide's playbin pipeline (fakesink instead of kmssink: no display here); fps = frames / gst-launch's execution
time, read from what gst-launch-1.0 really prints."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from perfgate import boards
from perfgate.datafile import merge
from perfgate.model import Criterion
from perfgate.workloads import decode
from peripheral_board import HostContext

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not shutil.which("gst-launch-1.0"), reason="needs GStreamer")]


def test_playbin_decode_fps(tmp_path: Path) -> None:
    stream = tmp_path / "test-320x240.ogg"
    subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=120", "!",
                    "video/x-raw,width=320,height=240,framerate=30/1", "!", "theoraenc", "!", "oggmux", "!",
                    "filesink", f"location={stream}"], check=True, timeout=60)  # fmt: skip
    settings = {
        "command": 'gst-launch-1.0 playbin uri=file://{path} video-sink="fakesink sync=true" audio-sink=fakesink',
        "streams_dir": str(tmp_path),
        "streams": {"theora/ogg/qvga": {"file": stream.name, "frames": 120}},
    }
    profile = merge(boards.profile("am574x_idk"), {"workloads": {"decode": settings}})
    c = Criterion(id="am574x_idk.decode.theora", name="QVGA", board="am574x_idk", guide="g", release="r",
                  chapter="multimedia", suite="decode", table="Theora in OGG Container Decode Performance",
                  row="QVGA", metric="Fps", unit="fps", value=30.0)  # fmt: skip
    ctx = HostContext("am574x_idk", profile, {"has": ["display"]})  # type: ignore[arg-type]
    m = decode.WORKLOAD.measure([c], ctx)
    assert not m.missing, m.missing
    assert m.values[c.id] == pytest.approx(30.0, rel=0.1)  # sync=true: played at the stream's 30 fps
