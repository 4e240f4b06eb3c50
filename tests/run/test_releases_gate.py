"""One board judged at two releases on the simulated board (j7200_evm: SDK 09.01.00 and 11.02, both publish
Dhrystone): the console, run.json, comparison.html, every test's log and `perfgate compare` name the release each
run was judged against; an unknown release stops the run at once, listing the board's releases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from perfgate import cli, criteria, paths

ROOT = paths.root()
pytestmark = pytest.mark.slow


def gate(tmp_path: Path, results: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / name), "--suite", "Suites.System.Dhrystone",
           "--variable", "BOARD:j7200-evm", "--variable", "SIM_SPEED:20", *extra, str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(results)}
    return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_one_board_judged_at_two_releases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    results = tmp_path / "results"
    old = gate(tmp_path, results, "old", "--variable", "RELEASE:09.01.00")
    assert old.returncode == 0, old.stdout[-2000:]
    assert "perfgate: judged against release 09.01.00: linux-09.01.00-j7.rst" in old.stdout
    new = gate(tmp_path, results, "new")
    assert new.returncode == 0, new.stdout[-2000:]
    assert "judged against release 11.02 (the newest that publishes numbers for the board)" in new.stdout

    runs = sorted((results / "virtual" / "j7200_evm").glob("2*"))
    assert len(runs) == 2
    metas = [json.loads((r / "run.json").read_text()) for r in runs]
    assert [m["release"] for m in metas] == ["09.01.00", "11.02"]
    assert "Judged against</dt><dd>release 11.02" in (runs[1] / "comparison.html").read_text()
    for name, release in (("old", "09.01.00"), ("new", "11.02")):
        tests = [t for s in ExecutionResult(str(tmp_path / name / "output.xml")).suite.suites for t in _tests(s)]
        assert len(tests) == len(criteria.load("j7200_evm", "dhrystone", release=release))
        for t in tests:
            logs = list(_messages(t))
            assert any(f"Judged against SDK {release}:" in m for m in logs), (t.name, logs)

    monkeypatch.setenv("PERFGATE_RESULTS", str(results))
    cli.main(["compare", "j7200_evm/previous", "j7200_evm/latest"])
    out = capsys.readouterr().out
    assert "judged against SDK release 09.01.00" in out and "judged against SDK release 11.02" in out


def test_unknown_release_stops_the_run_listing_the_board_s_releases(tmp_path: Path) -> None:
    r = gate(tmp_path, tmp_path / "results", "bad", "--variable", "RELEASE:10.99")
    assert r.returncode == 252  # bad input: robot stops before anything runs, with one error line
    assert "RELEASE 10.99: j7200_evm has no such release; its releases: 11.02, 09.01.00" in r.stdout + r.stderr


def _tests(suite):
    yield from suite.tests
    for s in suite.suites:
        yield from _tests(s)


def _messages(item):
    for child in getattr(item, "body", []):
        if getattr(child, "type", "") == "MESSAGE":
            yield child.message
        else:
            yield from _messages(child)
