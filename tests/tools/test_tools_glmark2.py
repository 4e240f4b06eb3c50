"""glmark2 parser (reconstructed output: tests/fixtures/glmark2/PROVENANCE.md) and the sim round trip."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import glmark2 as sim_glmark2
from perfgate.tools import glmark2
from testpaths import FIXTURES

FIX = FIXTURES / "glmark2"


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


# --- real glmark2 2023.01 (llvmpipe under Xvfb) and its scene lines wrapped at a terminal width (issue 21) -----------


def test_real_capture_reads_every_scene() -> None:
    from captures import capture

    m = glmark2.parse(capture(FIX / "x11-llvmpipe-xvfb.txt"))
    assert m["score"] == 164.0 and len(m) == 9 + 1
    assert m["buffer columns=200:duration=0.5:interleave=false:update-dispersion=0.9:update-fraction=0.5:"
             "update-method=map (fps)"] == 118.0  # fmt: skip


@pytest.mark.parametrize("name", ["x11-llvmpipe-xvfb-fold-w80.txt", "x11-llvmpipe-xvfb-fold-s-w72.txt"])
def test_wrapped_scene_lines_are_read_whole(name: str) -> None:
    """A log kept at a terminal width wraps the long scene lines (mid-word with `fold -w`, at spaces with `fold -s`):
    each scene is still read, with its options whole, as from the unwrapped run."""
    from captures import capture

    assert glmark2.parse(capture(FIX / name)) == glmark2.parse(capture(FIX / "x11-llvmpipe-xvfb.txt"))


def test_a_scene_line_that_cannot_be_read_is_said() -> None:
    from captures import capture

    lines = capture(FIX / "x11-llvmpipe-xvfb-fold-w80.txt").splitlines()
    cut = next(n for n, line in enumerate(lines) if line.startswith("[buffer]"))
    del lines[cut + 1]  # the wrapped rest of the [buffer] line lost
    with pytest.raises(ParseError, match=r"scene line.*\[buffer\] columns=200") as e:
        glmark2.parse("\n".join(lines) + "\n")
    assert e.value.line == cut + 1


def test_a_scene_glmark2_could_not_run_is_no_error() -> None:
    # constructed: glmark2's src/main.cpp prints the scene line then `Unsupported` / `Set up failed` for a scene that
    # does not run; the score is still printed
    text = "[ideas] speed=duration: Unsupported\n[terrain] <default>: Set up failed\n    glmark2 Score: 12 \n"
    assert glmark2.parse(text) == {"score": 12.0}


@pytest.mark.skipif(not (shutil.which("glmark2") and shutil.which("xvfb-run")), reason="needs glmark2-x11, xvfb")
def test_live_glmark2_read_whole_and_wrapped_at_a_terminal_width() -> None:
    """The real glmark2 here (Mesa llvmpipe under Xvfb), two short scenes, one of them longer than a terminal: its
    output read as printed, and wrapped at 80 columns as a console log keeps it, gives the same scenes."""
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", "glmark2", "--off-screen", "-b",
           "build:use-vbo=false:duration=0.3", "-b", "buffer:columns=200:interleave=false:update-dispersion=0.9:"
           "update-fraction=0.5:update-method=map:duration=0.3"]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    m = glmark2.parse(run.stdout)
    assert len(m) == 3 and m["score"] > 0
    wrapped = "".join(
        "".join(line[i : i + 80] + "\n" for i in range(0, max(len(line), 1), 80)) for line in run.stdout.splitlines()
    )
    assert max(len(line) for line in run.stdout.splitlines()) > 80 and glmark2.parse(wrapped) == m
