"""The cyclictest histogram plot (perfgate.report.histogram) from real captures and from a run directory."""

from __future__ import annotations

from pathlib import Path

from perfgate.report import histogram
from testpaths import FIXTURES

FIX = FIXTURES / "cyclictest"


def test_two_threads_drawn_with_their_maxima() -> None:
    svg = histogram.from_text((FIX / "h400-t2.txt").read_text(), "two threads")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "thread 0: max 235 us" in svg and "thread 1: max 40 us" in svg


def test_overflows_are_said() -> None:
    svg = histogram.from_text((FIX / "h10-overflows.txt").read_text())
    assert "988 beyond 10 us" in svg


def test_no_histogram_no_picture() -> None:
    assert histogram.from_text((FIX / "osadl-noh-t1.txt").read_text()) == ""


def test_run_directory(tmp_path: Path) -> None:
    raw = tmp_path / "raw" / "rt_latency"
    raw.mkdir(parents=True)
    (raw / "cyclictest-osadl-1.txt").write_text((FIX / "osadl-h400-t1.txt").read_text())
    (raw / "cyclictest-no_load-1.txt").write_text((FIX / "osadl-noh-t1.txt").read_text())
    pictures = histogram.run_histograms(tmp_path)
    assert list(pictures) == ["rt_latency/cyclictest-osadl-1.txt"]
