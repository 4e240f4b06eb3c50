"""Where a change began (perfgate.baseline.changes: Apache Otava's e-divisive means with a t-test): a history with a
step at a known run is found at that run (within one), a history without one has none; through `perfgate trend
--changes` and comparison.html's trend charts on a recorded history."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from perfgate import cli
from perfgate.baseline import changes
from perfgate.report import html
from perfgate.report.recorder import RunRecorder
from perfgate.sim import values

STEP_AT = 23


def _series(rng: random.Random, runs: int, step_at: int | None, sd: float = 0.01, step: float = 0.05) -> list[float]:
    """Runs of one criterion as the simulated board draws them, `step` worse from run `step_at` on."""
    return [values.draw(100.0 * (1 - step if step_at is not None and i >= step_at else 1), "higher", rng, sd)
            for i in range(runs)]  # fmt: skip


def test_a_step_is_found_at_its_run_and_none_without_one() -> None:
    rng = random.Random(11)
    for _ in range(20):
        found = changes.change_points(_series(rng, 40, STEP_AT), max_pvalue=0.001, min_magnitude=0.02)
        assert [abs(c.index - STEP_AT) <= 1 for c in found] == [True], [(c.index, c.pvalue) for c in found]
        assert -6.5 < found[0].change_pct < -3.5
        assert changes.change_points(_series(rng, 40, None), max_pvalue=0.001, min_magnitude=0.02) == []
    assert changes.change_points([1.0, 2.0]) == []


def test_two_steps_and_a_step_smaller_than_the_magnitude() -> None:
    rng = random.Random(2)
    x = [v * (1.1 if i >= 30 else 1) for i, v in enumerate(_series(rng, 45, 12))]
    assert [c.index for c in changes.change_points(x, 0.001, 0.02)] == [12, 30]
    small = _series(rng, 40, 20, sd=0.002, step=0.01)  # significant, but under a 2 % tolerance
    assert [c.index for c in changes.change_points(small, 0.001, 0.0)] == [20]
    assert changes.change_points(small, 0.001, 0.02) == []


def _history(results: Path, step_at: int | None, runs: int = 24) -> list[str]:
    rng = random.Random(4)
    names = []
    for i in range(runs):
        name = f"20260201-{i:06d}"
        release = "12.00.00" if i < 12 else "12.01.00"
        d = results / "virtual" / "am62xx_sk" / name
        rec = RunRecorder(d, {"board": "am62xx_sk", "lab": "sim", "virtual": True, "release": release,
                              "started": f"2026-02-01T00:{i:02d}:00+00:00"})  # fmt: skip
        for metric in ("copy", "add"):
            worse = step_at is not None and i >= step_at and metric == "copy"
            v = values.draw(1000.0 * (0.9 if worse else 1), "higher", rng, 0.01)
            rec.record({"id": f"am62xx_sk.stream.stream-benchmarks.{metric}-mb-s.perf", "name": f"{metric} (mb/s)",
                        "board": "am62xx_sk", "suite": "stream", "chapter": "system", "unit": "MB/s", "measured": v,
                        "published": 1000.0, "direction": "higher", "tolerance": 0.1, "verdict": "pass",
                        "samples": [v]})  # fmt: skip
        rec.finish()
        names.append(name)
    return names


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_trend_changes_names_the_run_and_release_where_a_step_began(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    names = _history(tmp_path, step_at=15)
    assert cli.main(["trend", "am62xx_sk", "--virtual", "--changes", "--no-plot"]) == 0
    out = capsys.readouterr().out
    assert "copy (mb/s)" in out and f"from run {names[15]} (SDK 12.01.00)" in out
    assert cli.main(["trend", "am62xx_sk", "--virtual", "--changes", "--json", "--no-plot", "--fail-on-change"]) == 1
    found = json.loads(capsys.readouterr().out)
    copy = [f for f in found if f["label"].endswith("copy-mb-s.perf")]
    assert [abs(names.index(f["run"]) - 15) <= 1 for f in copy] == [True] and copy[0]["change_pct"] < -5
    assert not [f for f in found if f["label"].endswith("add-mb-s.perf")]
    page = html.build(tmp_path / "virtual" / "am62xx_sk" / names[-1]).read_text()
    assert any(f'data-change-run="{names[i]}"' in page for i in (14, 15, 16))


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_trend_changes_finds_none_in_a_steady_history(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    names = _history(tmp_path, step_at=None)
    out_png = tmp_path / "t.png"
    assert cli.main(["trend", "am62xx_sk", "--virtual", "--changes", "--fail-on-change", "--out", str(out_png)]) == 0
    assert "Where a change began (0;" in capsys.readouterr().out and out_png.stat().st_size > 1000
    assert "data-change-run" not in html.build(tmp_path / "virtual" / "am62xx_sk" / names[-1]).read_text()


def test_a_value_printed_on_a_coarse_grid_moving_one_step_is_no_change() -> None:
    """DMIPS/MHz printed to one decimal: 2.8, 2.7, 2.7, 2.7, 2.7 is its rounding (the e-divisive t-test gave p 0, the
    two segments having no variance); a step of two grid steps and more still shows."""
    from perfgate.baseline import changes

    rounded = [(f"r{i}", "12.00.00", "", v) for i, v in enumerate([2.8, 2.7, 2.7, 2.7, 2.7, 2.8, 2.7, 2.7])]
    assert changes.in_history(rounded, 0.05, 0.0) == []
    step = changes.resolution([2.8, 2.7, 2.7, 2.7])
    assert step is not None and abs(step - 0.1) < 1e-9
    assert changes.resolution([1.0, 1.1, 1.2, 1.3, 1.4]) is None
