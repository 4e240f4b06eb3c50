"""Many boards: pabot runs the suites once per board argument file (variables/pabot/<board>.args), one process
per board with the whole tree in it (variables/pabot/ordering.txt), and merges the results.

The first tests use a small stand-in suite tree (tests/pabot/suites); the last runs the real gate on three
simulated boards when the suites exist.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from perfgate import paths
from testpaths import TESTS

ROOT = paths.root()
PABOT_DIR = ROOT / "variables" / "pabot"
STANDIN = TESTS / "pabot" / "suites"
BOARDS = ["am62xx_sk", "am62xx_lp_sk", "am62xxsip_sk"]  # one guide, three boards: same suites, comparable work
PABOT = [sys.executable, "-m", "pabot.pabot"]


def _pabot(tmp_path: Path, argfiles: list[Path], suites: Path, *extra: str, timeout: int = 300):
    cmd = [*PABOT, "--no-pabotlib", "--processes", str(len(argfiles)), "--ordering", str(PABOT_DIR / "ordering.txt")]
    for i, f in enumerate(argfiles, 1):
        cmd += [f"--argumentfile{i}", str(f)]
    cmd += ["--outputdir", str(tmp_path / "out"), "--xunit", "xunit.xml", *extra, str(suites)]
    # cwd: pabot keeps its .pabotsuitenames there
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=timeout, check=False)


def test_every_board_has_an_argument_file() -> None:
    boards = sorted(p.stem for p in (ROOT / "variables" / "boards").glob("*.yaml") if not p.stem.startswith("_"))
    assert boards, "no board profiles"
    for b in boards:
        lines = [x for x in (PABOT_DIR / f"{b}.args").read_text().splitlines() if x and not x.startswith("#")]
        assert lines[:3] == [f"--name {b}", f"--variable BOARD:{b}", "--listener perfgate.robot.listener.RunFiles"], b
        assert all(x.startswith("--variable LAB:") for x in lines[3:]), b


@pytest.mark.integration  # runs pabot
def test_one_process_per_board_in_parallel_and_a_merged_result(tmp_path: Path) -> None:
    setups = tmp_path / "setups.log"
    p = _pabot(tmp_path, [PABOT_DIR / f"{b}.args" for b in BOARDS], STANDIN,
               "--variable", f"SETUP_LOG:{setups}", "--variable", "SETUP_SECONDS:3")  # fmt: skip
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    lines = [line.split() for line in setups.read_text().splitlines()]
    assert sorted(x[0] for x in lines) == sorted(BOARDS), "the tree's setup must run exactly once per board"
    assert len({x[1] for x in lines}) == 3, "one process per board"
    starts, ends = [float(x[2]) for x in lines], [float(x[3]) for x in lines]
    assert max(starts) < min(ends), "the three boards were not brought up at the same time"
    merged = ExecutionResult(str(tmp_path / "out" / "output.xml")).suite
    assert [s.name for s in merged.suites] == BOARDS
    assert [s.statistics.total for s in merged.suites] == [4, 4, 4]
    xunit = (tmp_path / "out" / "xunit.xml").read_text()
    assert 'tests="12" errors="0" failures="0" skipped="0"' in xunit


@pytest.mark.integration  # runs pabot
def test_exit_code_counts_the_failures_of_every_board(tmp_path: Path) -> None:
    args = []
    for b in ("broken", "noeth"):
        f = tmp_path / f"{b}.args"
        f.write_text(f"--name {b}\n--variable BOARD:{b}\n")
        args.append(f)
    p = _pabot(tmp_path, [PABOT_DIR / "am62xx_sk.args", *args], STANDIN, "--variable", f"SETUP_LOG:{tmp_path / 's'}")
    assert p.returncode == 3, p.stdout[-3000:]  # broken fails 3 criteria; noeth's skip is no failure
    merged = ExecutionResult(str(tmp_path / "out" / "output.xml")).suite
    stats = {s.name: (s.statistics.passed, s.statistics.failed, s.statistics.skipped) for s in merged.suites}
    assert stats == {"am62xx_sk": (4, 0, 0), "broken": (1, 3, 0), "noeth": (3, 0, 1)}


def _gate_ready() -> str | None:
    if not list((ROOT / "suites").glob("**/*.robot")):
        return "the gate's suites are not there yet"
    for b in BOARDS:
        if not (ROOT / "variables" / "thresholds" / b).is_dir():
            return f"no thresholds for {b} (python -m perfgate import)"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_gate_ready() is not None, reason=str(_gate_ready()))
def test_three_simulated_boards_with_pabot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real gate, three simulated boards in parallel: a merged log, and each board's own run directory."""
    results = tmp_path / "results"
    monkeypatch.setenv("PERFGATE_RESULTS", str(results))
    fast = ["--variable", "SIM_SPEED:30", "--variable", "BOOT_CYCLES:1", "--variable", "DURATION:1"]
    start = time.monotonic()
    p = _pabot(tmp_path, [PABOT_DIR / f"{b}.args" for b in BOARDS], ROOT / "suites", *fast, timeout=1500)
    elapsed = time.monotonic() - start
    merged = ExecutionResult(str(tmp_path / "out" / "output.xml")).suite
    assert [s.name for s in merged.suites] == BOARDS, p.stdout[-3000:]
    assert p.returncode == min(merged.statistics.failed, 250)
    for b in BOARDS:
        runs = sorted((results / "virtual" / b).glob("2*"))
        assert len(runs) == 1, f"{b}: {runs}"
        for f in ("run.json", "metrics.json", "summary.csv", "comparison.html", "output.xml", "log.html"):
            assert (runs[0] / f).exists(), f"{b}: no {f}"
        page = (runs[0] / "comparison.html").read_text()
        assert 'href="log.html#s1-s' in page, f"{b}: comparison.html does not link into its own log"
    out = (tmp_path / "out" / "output.xml").read_text()
    hrefs = [h.split('"')[0] for h in out.split('href="')[1:] if "/raw/" in h.split('"')[0]]
    assert hrefs and all((tmp_path / "out" / h).is_file() for h in hrefs), "the merged log's evidence links break"
    print(f"three boards with pabot: {elapsed:.1f} s")


@pytest.mark.slow
@pytest.mark.skipif(_gate_ready() is not None, reason=str(_gate_ready()))
def test_plain_pabot_on_one_board_refuses_and_says_how_to_run_several(tmp_path: Path, monkeypatch) -> None:
    """Plain `pabot` splits one board's gate into a process per suite: each would bring the same board up and judge
    alone. Every process refuses before it starts a board, the first saying how to run several boards instead; the
    per-board argument file (the whole tree in one process) still runs one gate: one run, one verdict."""
    results = tmp_path / "results"
    monkeypatch.setenv("PERFGATE_RESULTS", str(results))
    cmd = [*PABOT, "--no-pabotlib", "--processes", "2", "--outputdir", str(tmp_path / "out"), "-v", "BOARD:am62xx_sk",
           "-v", "SIM_SPEED:20", "-s", "Dhrystone", "-s", "Whetstone", str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    p = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False, env=env)
    said = p.stdout + p.stderr
    assert p.returncode != 0, said[-3000:]
    assert "pabot split am62xx_sk's gate into one process per suite (this one: Suites." in said, said[-3000:]
    assert "--ordering variables/pabot/ordering.txt --argumentfile1 variables/pabot/am62xx_sk.args" in said
    assert "pabot split am62xx_sk's gate: Suites." in said and said.count("One board is one gate") == 1
    assert not list(results.glob("**/run.json")), "a refused process brought the board up"

    one = _pabot(tmp_path, [PABOT_DIR / "am62xx_sk.args"], ROOT / "suites", "-i", "dhrystone", "-v", "SIM_SPEED:20",
                 "-v", "INCONCLUSIVE:pass")  # fmt: skip
    assert one.returncode == 0, one.stdout[-3000:] + one.stderr[-3000:]
    runs = list(results.glob("**/run.json"))
    assert len(runs) == 1 and json.loads(runs[0].read_text())["verdict"] == "pass", runs
