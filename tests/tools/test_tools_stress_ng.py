"""The stress-ng parser on real output (tests/fixtures/stress-ng/PROVENANCE.md, qemu_arm64-PROVENANCE.md), and on the
real tool here when it is installed (setup.sh's test packages)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from perfgate import tools
from perfgate.errors import ParseError
from testpaths import FIXTURES

FIX = FIXTURES / "stress-ng"


def parse(name: str) -> dict[str, float]:
    return tools.parse("stress-ng", (FIX / name).read_text(encoding="utf-8"))


def test_one_stressor_on_the_host():
    assert parse("host-cpu-matrixprod-brief.txt") == {
        "cpu bogo ops ()": 2605.0,
        "cpu real time (s)": 2.0,
        "cpu bogo ops/s (real time)": 1300.37,
        "cpu bogo ops/s (usr+sys time)": 1323.11,
    }


def test_two_stressors_and_the_metrics_columns():
    both = parse("host-cpu-vm-brief.txt")
    assert both["cpu bogo ops/s (real time)"] == 1970.88 and both["vm bogo ops/s (real time)"] == 83234.45
    assert both["vm bogo ops/s (usr+sys time)"] == 90436.43
    full = parse("host-cpu-metrics.txt")
    assert full["cpu bogo ops/s (real time)"] == 2155.37 and full["cpu cpu used per instance (%)"] == 99.98


def test_the_qemu_boards_output():
    assert parse("qemu_arm64-cpu-metrics.txt")["cpu bogo ops/s (real time)"] == 16.22  # real time 6.54 s of 5 s set
    assert parse("qemu_arm64-cpu-matrixprod-brief.txt")["cpu bogo ops/s (real time)"] == 10.58


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("host-cpu-interrupted.txt", "cut short: 0.99 s of the 5 s"),
        ("host-bad-option.txt", "unrecognized option"),
        ("host-no-metrics.txt", "no stress-ng metrics table"),
    ],
)
def test_refused(name, said):
    with pytest.raises(ParseError, match=said):
        parse(name)


def test_a_stressor_twice_and_failures():
    text = (FIX / "host-cpu-matrixprod-brief.txt").read_text(encoding="utf-8")
    with pytest.raises(ParseError, match="printed twice"):
        tools.parse("stress-ng", text + text)
    with pytest.raises(ParseError, match="metrics untrustworthy: 1"):
        tools.parse("stress-ng", text + "stress-ng: info:  [1] metrics untrustworthy: 1\n")
    with pytest.raises(ParseError, match="unsuccessful"):
        tools.parse("stress-ng", text.replace("successful run", "unsuccessful run"))


@pytest.mark.skipif(shutil.which("stress-ng") is None, reason="needs stress-ng (setup.sh --tests installs it)")
def test_the_real_tool_here():
    command = ["stress-ng", "--cpu", "1", "--cpu-method", "matrixprod", "-t", "1", "--metrics-brief"]
    p = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    got = tools.parse("stress-ng", p.stdout + p.stderr)
    assert got["cpu bogo ops/s (real time)"] > 0 and 0.9 <= got["cpu real time (s)"] < 3
