"""The CI contract (docs/ci.md): robot's exit code is the number of failed criteria (capped at 250), skips and
warnings do not fail, --xunit writes a JUnit-style file CI servers read. Run on the stand-in suite tree."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from testpaths import TESTS

STANDIN = TESTS / "pabot" / "suites"

pytestmark = pytest.mark.integration  # each test runs robot
ROBOT = [sys.executable, "-m", "robot"]


def _robot(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [*ROBOT, "--outputdir", str(tmp_path), "--xunit", "xunit.xml", "--variable", f"SETUP_LOG:{tmp_path / 's'}"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120, check=False)


def _xunit(tmp_path: Path) -> dict[str, str]:
    return ET.parse(tmp_path / "xunit.xml").getroot().attrib


def test_all_hold_exit_0(tmp_path: Path) -> None:
    p = _robot(tmp_path, "--variable", "BOARD:am62xx_sk", str(STANDIN))
    assert p.returncode == 0, p.stdout
    x = _xunit(tmp_path)
    assert (x["tests"], x["failures"], x["skipped"], x["errors"]) == ("4", "0", "0", "0")


def test_exit_code_is_the_number_of_failed_criteria(tmp_path: Path) -> None:
    p = _robot(tmp_path, "--variable", "BOARD:broken", str(STANDIN))
    assert p.returncode == 3, p.stdout
    root = ET.parse(tmp_path / "xunit.xml").getroot()
    assert root.attrib["failures"] == "3"
    failed = [tc.attrib["name"] for tc in root.iter("testcase") if tc.find("failure") is not None]
    assert sorted(failed) == ["Copy Bandwidth Holds", "Latency Holds", "Throughput Holds"]
    msg = next(tc.find("failure") for tc in root.iter("testcase") if tc.find("failure") is not None)
    assert "broken == broken" in (msg.attrib.get("message", "") + (msg.text or ""))


def test_a_skipped_criterion_is_not_a_failure(tmp_path: Path) -> None:
    p = _robot(tmp_path, "--variable", "BOARD:noeth", str(STANDIN))
    assert p.returncode == 0, p.stdout
    x = _xunit(tmp_path)
    assert (x["failures"], x["skipped"]) == ("0", "1")


def test_exit_code_is_capped_at_250(tmp_path: Path) -> None:
    suite = tmp_path / "many.robot"
    suite.write_text(
        "*** Settings ***\nTest Template    Fail Criterion\n\n*** Test Cases ***\n"
        + "\n".join(f"Criterion {i}    {i}" for i in range(260))
        + "\n\n*** Keywords ***\nFail Criterion\n    [Arguments]    ${i}\n    Fail    criterion ${i} missed\n"
    )
    p = _robot(tmp_path, str(suite))
    assert p.returncode == 250, p.stdout[-500:]
    assert _xunit(tmp_path)["failures"] == "260"


def test_bad_usage_is_252(tmp_path: Path) -> None:
    assert _robot(tmp_path, "--no-such-option", str(STANDIN)).returncode == 252
    assert _robot(tmp_path, str(tmp_path / "no-such-suite")).returncode == 252
