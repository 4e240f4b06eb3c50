"""End to end on the simulated board: a healthy run, then a run with STREAM degraded by 30 %; the exit code,
the comparison page, `perfgate compare` and `perfgate trend` all tell the same story."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import cli, paths

ROOT = paths.root()


def _not_ready() -> str | None:
    if not (ROOT / "suites" / "system" / "stream.robot").exists():
        return "the gate's STREAM suite is not there yet"
    return None


def _gate(tmp_path: Path, results: Path, *extra: str) -> int:
    cmd = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--listener",
           "perfgate.robot.listener.RunFiles", "--suite", "Suites.System.Stream", "--variable", "BOARD:am62xx_sk",
           "--variable", "RELEASE:10.00", "--variable", "SIM_SPEED:20", "--variable", "BOOT_CYCLES:1", *extra,
           str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(results)}
    return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, timeout=600, check=False).returncode


@pytest.mark.slow
@pytest.mark.skipif(_not_ready() is not None, reason=str(_not_ready()))
def test_a_degraded_release_is_caught_everywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    results = tmp_path / "results"
    assert _gate(tmp_path, results) == 0
    assert _gate(tmp_path, results, "--variable", "FAULTS:degrade:am62xx_sk.stream.*:30") == 4
    runs = sorted((results / "virtual" / "am62xx_sk").glob("2*"))
    assert len(runs) == 2
    bad = json.loads((runs[1] / "metrics.json").read_text())
    assert sorted(e["name"] for e in bad) == ["add (MB/s)", "copy (MB/s)", "scale (MB/s)", "triad (MB/s)"]
    assert {e["verdict"] for e in bad} == {"fail"}
    assert all(-40 < e["delta_pct"] < -20 for e in bad)
    page = (runs[1] / "comparison.html").read_text()
    assert page.count('<tr class="row-fail"') == 4 and "failed (4)" in page and 'id="virtual-banner"' in page

    monkeypatch.setenv("PERFGATE_RESULTS", str(results))
    assert cli.main(["compare", "am62xx_sk/previous", "am62xx_sk/latest", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert sorted(c["name"] for c in data["regressed"]) == ["add (MB/s)", "copy (MB/s)", "scale (MB/s)", "triad (MB/s)"]
    assert all(c["verdict_a"] == "pass" and c["verdict_b"] == "fail" for c in data["regressed"])

    assert cli.main(["trend", "am62xx_sk", "--suite", "stream", "--json", "--out", str(tmp_path / "t.png")]) == 0
    (series,) = json.loads(capsys.readouterr().out)
    first, second = (p["value"] for p in series["points"])
    assert first == pytest.approx(1.0, abs=0.1) and second == pytest.approx(0.7, abs=0.1)
