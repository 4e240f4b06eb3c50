"""Progress under Robot on the simulated board: `suite N of M` with the time the rest of the run should take by the
board's earlier runs, each command's expected time from them, and each criterion's test saying how long its
measurement took (all measuring happens in the suite setup, so Robot times every test at 00:00:00)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from selftest import run_gate

pytestmark = pytest.mark.slow


def test_suite_n_of_m_the_rest_of_the_run_and_each_tests_measuring_time(tmp_path: Path) -> None:
    first = run_gate(tmp_path / "a", "am62xx_sk", ["dhrystone", "whetstone"], SIM_SPEED="20")
    assert first["rc"] == 0, first["stdout"][-3000:]
    said = first["stdout"]
    assert re.search(r"perfgate: suite 1 of 2: dhrystone \(\d+ criteria\); no earlier run of the board", said), said
    assert "perfgate: suite 2 of 2: whetstone" in said
    for name, (_, message) in first["tests"].items():
        if ".Dhrystone." in name or ".Whetstone." in name:
            assert re.fullmatch(r"measured in the suite setup: \d+\.\d s in \d+ command runs? \(the suite's commands: "
                                r"\d+\.\d s\)", message), (name, message)  # fmt: skip

    (tmp_path / "a" / "results").rename(tmp_path / "b-results")
    (tmp_path / "b").mkdir()
    (tmp_path / "b-results").rename(tmp_path / "b" / "results")  # the board's history: one earlier run
    again = run_gate(tmp_path / "b", "am62xx_sk", ["whetstone"], SIM_SPEED="20")
    assert again["rc"] == 0, again["stdout"][-3000:]
    m = re.search(r"perfgate: suite 1 of 1: whetstone \(\d+ criteria\); ~(\S+) (s|min) to the end of the run by "
                  r"the board's earlier runs", again["stdout"])  # fmt: skip
    assert m and float(m.group(1)) > 0, again["stdout"][-3000:]
    assert "(as in the one earlier run that ran it)" in again["stdout"]
