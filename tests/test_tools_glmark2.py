"""glmark2 parser (reconstructed output: tests/fixtures/glmark2/PROVENANCE.md) and the sim round trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import glmark2 as sim_glmark2
from perfgate.tools import glmark2

FIX = Path(__file__).parent / "fixtures" / "glmark2"


def test_score_line_with_surrounding_spaces() -> None:
    m = glmark2.parse((FIX / "wayland-am62x-reconstructed.txt").read_text())
    assert m["score"] == 218.0
    assert m["build use-vbo=false (fps)"] == 209.0
    assert m["terrain <default> (fps)"] == 19.0


def test_score_alone() -> None:
    assert glmark2.parse("                                  glmark2 Score: 51 \r\n")["score"] == 51.0


def test_no_canvas_is_a_parse_error_quoting_glmark2() -> None:
    with pytest.raises(ParseError) as e:
        glmark2.parse((FIX / "no-canvas-reconstructed.txt").read_text())
    assert "Could not initialize canvas" in str(e.value) and e.value.line == 1


def test_truncated_run_is_a_parse_error() -> None:
    text = (FIX / "wayland-am62x-reconstructed.txt").read_text().split("=====\n                ")[0]
    with pytest.raises(ParseError):
        glmark2.parse(text)


@pytest.mark.parametrize("command", ["glmark2-es2-drm", "glmark2-es2-wayland", "glmark2-es2-wayland -s 1920x1080"])
@pytest.mark.parametrize("score", [28.0, 218.0, 1333.0])
def test_round_trip(command: str, score: float) -> None:
    text = sim_glmark2.render(command, {"score": score}, random.Random(3))
    m = glmark2.parse(text, command)
    assert m["score"] == score
    assert len(m) == len(sim_glmark2.DEFAULT_BENCHMARKS) + 1
    if "1920x1080" in command:
        assert "Surface Size:   1920x1080" in text
