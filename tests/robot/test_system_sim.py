"""The System Benchmarks suites under Robot against the simulated board: one test per criterion, a degraded metric
fails alone, a missing tool fails (or skips, by policy) its suite's tests with the reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from robot.api import ExecutionResult

import calibrated
from perfgate import criteria
from seed_releases import seed
from selftest import QUIET_SIM

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = ["lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark_pro", "multibench"]

pytestmark = pytest.mark.slow


def robot(tmp: Path, board: str, *args: str, timeout: float = 300) -> dict[str, dict[str, tuple[str, str]]]:
    """robot -v BOARD:<board> <args> suites/ -> {suite name: {test name: (status, message)}}."""
    out = tmp / "robot"
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results")}
    calibrated.seed(tmp / "results", [board])  # a calibrated quiet board (tests/calibrated.py)
    release = ["-v", f"RELEASE:{seed(board)}"] if seed(board) else []  # written for the seed guides' tables
    argv = [sys.executable, "-m", "robot", "--outputdir", str(out), "--console", "none", "-v", f"BOARD:{board}",
            "-v", f"INCONCLUSIVE:{QUIET_SIM}", *release, *args, str(ROOT / "suites")]  # fmt: skip
    subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    result = ExecutionResult(str(out / "output.xml"))
    suites: dict[str, dict[str, tuple[str, str]]] = {}

    def walk(suite) -> None:
        if suite.tests:
            suites[suite.name] = {t.name: (t.status, t.message) for t in suite.tests}
        for s in suite.suites:
            walk(s)

    walk(result.suite)
    return suites


def suite_name(suite: str) -> str:
    return suite.replace("_", " ").title()


@pytest.mark.parametrize("board", ["am62xx_sk", "am574x_idk"])
def test_one_passing_test_per_system_criterion(tmp_path: Path, board: str) -> None:
    got = robot(tmp_path, board, "-i", "system")
    for suite in SYSTEM:
        crits = criteria.load(board, suite, release=seed(board))
        tests = got.get(suite_name(suite), {})
        assert len(tests) == len(crits), (suite, len(tests), len(crits))
        assert sorted(tests) == sorted(c.name for c in crits)
        assert not [n for n, (status, _) in tests.items() if status != "PASS"], suite


def test_degraded_metric_fails_alone_and_missing_tool_fails_with_the_reason(tmp_path: Path) -> None:
    board = "am62xx_sk"
    copy = next(c for c in criteria.load(board, "stream", release=seed(board)) if c.row.startswith("copy"))
    lmbench = criteria.load(board, "lmbench", release=seed(board))
    lat = next(c for c in lmbench if c.row.startswith("lat_mem_rd-stride128-sz500k"))
    faults = f"degrade:{copy.id}:20,degrade:{lat.id}:20,missing-tool:linpack"
    got = robot(tmp_path, board, "-i", "stream", "-i", "linpack", "-i", "lmbench", "-v", f"FAULTS:{faults}")
    stream = got["Stream"]
    assert [n for n, (s, _) in stream.items() if s == "FAIL"] == [copy.name]
    message = stream[copy.name][1]
    for part in ("measured", "published", "MB/s", "tolerance 10%", "delta -"):
        assert part in message, message
    lmbench = got["Lmbench"]
    # the 0.50 MB row is published twice (lat_mem_rd-stride128-sz500k and latency_for_0.50_mb_block_size): one
    # slower row fails both names, and nothing else
    failed = sorted(n for n, (s, _) in lmbench.items() if s == "FAIL")
    assert failed == sorted([lat.name, "latency_for_0.50_mb_block_size (nanosec)"]), failed
    (status, why), = got["Linpack"].values()  # fmt: skip
    assert status == "FAIL" and "linpack: not found" in why, why


def test_missing_tool_skips_by_policy(tmp_path: Path) -> None:
    got = robot(tmp_path, "am62xx_sk", "-i", "whetstone", "-v", "FAULTS:missing-tool:whetstone",
                "-v", "ON_MISSING_TOOL:skip")  # fmt: skip
    (status, why), = got["Whetstone"].values()  # fmt: skip
    assert status == "SKIP" and "whetstone: not found" in why, why


def test_board_without_a_section_gets_no_tests(tmp_path: Path) -> None:
    assert not criteria.load("am43xx_gpevm", "coremark_pro", release=seed("am43xx_gpevm"))
    got = robot(tmp_path, "am43xx_gpevm", "-i", "coremark_pro", "-i", "dhrystone")
    assert not got.get("Coremark Pro")
    assert len(got["Dhrystone"]) == len(criteria.load("am43xx_gpevm", "dhrystone", release=seed("am43xx_gpevm")))
