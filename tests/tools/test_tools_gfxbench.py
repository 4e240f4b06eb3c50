"""GFXBench and GLBenchmark parsers (reconstructed outputs: see the fixtures' PROVENANCE.md), sim round trips."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import gfxbench as sim_gfxbench
from perfgate.sim.tools import glbenchmark as sim_glbenchmark
from perfgate.tools import gfxbench, glbenchmark
from testpaths import FIXTURES

FIX = FIXTURES
GFX = (
    "/opt/gfxbench/bin/testfw_app --gfx egl --gl_api gles --width 1920 --height 1080 --fullscreen 0"
    " --test_id gl_trex_off"
)


def test_gfxbench_result_document() -> None:
    m = gfxbench.parse((FIX / "gfxbench" / "manhattan-reconstructed.txt").read_text())
    assert m["score"] == 82.32 and m["fps"] == 1.33 and m["gl_manhattan_off fps"] == 1.33


def test_gfxbench_failed_status_is_an_error() -> None:
    with pytest.raises(ParseError, match="FAILED") as e:
        gfxbench.parse((FIX / "gfxbench" / "failed-reconstructed.txt").read_text())
    assert e.value.line == 3


def test_gfxbench_without_document() -> None:
    with pytest.raises(ParseError):
        gfxbench.parse("I/GFXBench: Running test gl_trex_off\nSegmentation fault\n")


def test_gfxbench_round_trip() -> None:
    m = gfxbench.parse(sim_gfxbench.render(GFX, {"score": 122.97, "fps": 2.2}, random.Random(1)), GFX)
    assert m["score"] == pytest.approx(122.97, rel=6e-3) and m["gl_trex_off fps"] == pytest.approx(2.2, rel=6e-3)


def test_glbenchmark_fill_and_triangles() -> None:
    m = glbenchmark.parse((FIX / "glbenchmark" / "fill-reconstructed.txt").read_text())
    assert m == {"texels/sec": 755731648.0, "fps": 30.71}
    m = glbenchmark.parse((FIX / "glbenchmark" / "triangles-reconstructed.txt").read_text())
    assert m == {"triangles/sec": 46891760.0}


def test_glbenchmark_error() -> None:
    with pytest.raises(ParseError, match="not supported"):
        glbenchmark.parse("GLB25_EgyptTestC24Z16_PVRTC4 test (2501101)\n  PVRTC textures not supported\n")
    with pytest.raises(ParseError):
        glbenchmark.parse("Fps: 30\n")  # no result block


def test_glbenchmark_round_trip() -> None:
    cmd = "/opt/glbenchmark/GLBenchmark2 --test 2500101"
    vals = {"fps": 30.71, "texels/sec": 755731648.0}
    m = glbenchmark.parse(sim_glbenchmark.render(cmd, vals, random.Random(9)), cmd)
    assert m["fps"] == pytest.approx(30.71, rel=6e-3) and m["texels/sec"] == pytest.approx(755731648.0, rel=6e-3)
