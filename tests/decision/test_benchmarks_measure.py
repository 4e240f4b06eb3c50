"""A benchmark that measured nothing exits non-zero and says so: each one run as a user runs it (its script, a fresh
interpreter), in a situation where there is nothing to measure."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from testpaths import ROOT

BENCH = ROOT / "benchmarks"


def _run(script: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, check=False)  # fmt: skip


def test_guide_import_benchmark_without_guides_fails(tmp_path):
    """A guides directory with no guide (PERFGATE_GUIDES) used to time 0 guides and print `OK: under 2 s`."""
    p = _run("import_guides.py", "--repeat", "1", PERFGATE_GUIDES=str(tmp_path))
    assert p.returncode != 0 and "NOTHING MEASURED" in p.stdout + p.stderr and "OK" not in p.stdout


def test_rfc2544_benchmark_on_a_board_without_udp_rows_fails():
    p = _run("rfc2544.py", "--board", "am43xx_gpevm")
    assert p.returncode != 0 and "NOTHING MEASURED: am43xx_gpevm publishes no UDP" in p.stdout


@pytest.mark.parametrize("script", ["bringup.py", "sim_boot.py"])
def test_bring_up_benchmarks_with_no_runs_fail(script):
    p = _run(script, "--runs", "0")
    assert p.returncode != 0 and "--runs must be 1 or more" in p.stderr


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_error_rate_benchmarks_that_measure_nothing_fail():
    """k2g_evm publishes no number in any imported guide; a suite list the board does not publish, or no run at all,
    leaves the end-to-end benchmark nothing to judge."""
    p = _run("error_rates.py", "--board", "k2g_evm")
    assert p.returncode != 0 and "k2g_evm publishes no criterion: nothing measured" in p.stderr
    p = _run("error_rates_robot.py", "--suites", "nosuchsuite", "--runs", "1")
    assert p.returncode != 0 and "publishes no criterion in nosuchsuite: nothing to measure" in p.stderr
    p = _run("error_rates_robot.py", "--suites", "stream", "--runs", "0", "--degraded", "0")
    assert p.returncode != 0 and "no run judged a criterion: nothing was measured" in p.stderr
