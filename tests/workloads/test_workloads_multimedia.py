"""Multimedia workloads on rows the committed thresholds do not have (the AM57x guide's Sensor Capture table has
no numbers): criteria built here, answered as the simulated board answers."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.workloads import capture, decode, display
from peripheral_board import SIM_LAB, BoardContext


def crit(suite: str, table: str, row: str, value: float, cid: str) -> Criterion:
    return Criterion(
        id=f"am574x_idk.{suite}.{cid}", name=row, board="am574x_idk", guide="g", release="2017.05",
        chapter="multimedia", suite=suite, table=table, row=row, metric="Fps", unit="fps", value=value,
    )  # fmt: skip


def test_capture_per_resolution_and_format() -> None:
    crits = [crit("capture", "Sensor Capture", "1600x1200 / ba81 / ov2659", 15.0, "a"),
             crit("capture", "Sensor Capture", "320x240 / rgb4 / ov2659", 30.0, "b")]  # fmt: skip
    ctx = BoardContext("am574x_idk", capture.WORKLOAD, crits, lab=dict(SIM_LAB))
    m = capture.WORKLOAD.measure(crits, ctx)
    assert m.values == {"am574x_idk.capture.a": 15.0, "am574x_idk.capture.b": 30.0}
    assert ctx.commands[0][1] == (
        "v4l2-ctl -d /dev/video1 --set-fmt-video=width=1600,height=1200,pixelformat=BA81"
        " --stream-mmap --stream-count=300"
    )


def test_capture_row_without_format_is_not_guessed() -> None:
    crits = [crit("capture", "Sensor Capture", "ov2659", 15.0, "a")]
    m = capture.WORKLOAD.measure(crits, BoardContext("am574x_idk", capture.WORKLOAD, crits, lab=dict(SIM_LAB)))
    assert "names no <width>x<height> and pixel format" in m.missing["am574x_idk.capture.a"]


def test_display_connector_per_table() -> None:
    crits = [crit("display", "Display performance (LCD)", "1920x1200@60", 59.99, "lcd"),
             crit("display", "Display performance (HDMI)", "1024x768@75", 75.03, "hdmi"),
             crit("display", "Display performance (DSI)", "800x480@60", 60.0, "dsi")]  # fmt: skip
    ctx = BoardContext("am574x_idk", display.WORKLOAD, crits, lab=dict(SIM_LAB))
    m = display.WORKLOAD.measure(crits, ctx)
    assert [c for _, c in ctx.commands] == [
        "timeout 10 modetest -M omapdrm -v -s 37:1920x1200-60",
        "timeout 10 modetest -M omapdrm -v -s 39:1024x768-75",
    ]
    assert abs(m.values["am574x_idk.display.hdmi"] - 75.03) < 0.05
    assert "no connector for table 'Display performance (DSI)'" in m.missing["am574x_idk.display.dsi"]


def test_decode_row_without_stream_names_the_key() -> None:
    crits = [crit("decode", "GStreamer VP9 in WEBM Container Decode Performance", "1080p", 30.0, "vp9")]
    m = decode.WORKLOAD.measure(crits, BoardContext("am574x_idk", decode.WORKLOAD, crits, lab=dict(SIM_LAB)))
    assert m.missing["am574x_idk.decode.vp9"] == (
        "no stream for 'vp9/webm/1080p' with file and frames (variables/workloads/multimedia.yaml: decode.streams)"
    )
