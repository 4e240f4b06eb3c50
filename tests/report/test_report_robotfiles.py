"""Robot's own files in the run directory, so that comparison.html's `log.html#<test id>` links open the test:
the command-line listener perfgate.robot.listener.RunFiles, and `perfgate report` afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import cli
from perfgate.report.recorder import RunRecorder


def _suite(tmp_path: Path) -> Path:
    """A run whose 'gate' records two criteria with the Robot test ids they ran as."""
    lib = tmp_path / "MiniGate.py"
    lib.write_text(
        "from pathlib import Path\n"
        "from robot.libraries.BuiltIn import BuiltIn\n"
        "from perfgate.report.recorder import RunRecorder\n"
        "class MiniGate:\n"
        "    ROBOT_LIBRARY_SCOPE = 'GLOBAL'\n"
        "    def open_run(self, run_dir):\n"
        "        self.rec = RunRecorder(Path(run_dir), {'board': 'b', 'lab': 'sim', 'virtual': True,\n"
        "            'log': BuiltIn().get_variable_value('${LOG FILE}'),\n"
        "            'output': BuiltIn().get_variable_value('${OUTPUT FILE}')})\n"
        "        BuiltIn().set_global_variable('${RUN_DIR}', run_dir)\n"
        "    def judge(self, name, verdict):\n"
        "        test = BuiltIn().get_variable_value('${TEST NAME}')\n"
        "        tid = BuiltIn()._context.test.id if hasattr(BuiltIn()._context, 'test') else None\n"
        "        self.rec.record({'id': 'b.s.t.' + name, 'name': name, 'suite': 's', 'chapter': 'system',\n"
        "            'measured': 1.0, 'published': 1.0, 'verdict': verdict, 'test': tid, 'test_name': test})\n"
        "        if verdict == 'fail':\n"
        "            raise AssertionError(name + ' worse than published')\n"
        "    def close_run(self):\n"
        "        self.rec.finish({})\n"
    )
    suite = tmp_path / "gate.robot"
    suite.write_text(
        f"*** Settings ***\nLibrary    {lib}\nSuite Setup    Open Run    {tmp_path / 'results' / 'b' / 'run1'}\n"
        "Suite Teardown    Close Run\n\n*** Test Cases ***\nCopy Holds\n    [Tags]    b.s.t.copy    system\n"
        "    Judge    copy    pass\n\nLatency Holds\n    [Tags]    b.s.t.latency    system\n"
        "    Judge    latency    fail\n"
    )
    return suite


def _robot(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), *args, str(_suite(tmp_path))]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)


@pytest.mark.integration  # runs robot
def test_listener_puts_robot_files_in_the_run_dir(tmp_path: Path) -> None:
    p = _robot(tmp_path, "--listener", "perfgate.robot.listener.RunFiles", "--xunit", "xunit.xml")
    assert p.returncode == 1, p.stdout + p.stderr
    run = tmp_path / "results" / "b" / "run1"
    for f in ("output.xml", "log.html", "report.html", "xunit.xml", "comparison.html", "metrics.json"):
        assert (run / f).exists(), f
    page = (run / "comparison.html").read_text()
    entries = json.loads((run / "metrics.json").read_text())
    assert [e["test"] for e in entries] == ["s1-t1", "s1-t2"]
    assert 'href="log.html#s1-t2"' in page and 'id="robot-log">log.html<' in page
    assert "Latency Holds" in (run / "log.html").read_text()  # Robot's log of this very run
    meta = json.loads((run / "run.json").read_text())
    assert meta["robot"] == {"tests": 2, "passed": 1, "failed": 1, "skipped": 0} and meta["verdict"] == "fail"


@pytest.mark.integration  # runs robot
def test_under_pabot_no_log_is_written_so_rebot_writes_one(tmp_path: Path) -> None:
    p = _robot(tmp_path, "--listener", "perfgate.robot.listener.RunFiles", "--log", "NONE", "--report", "NONE")
    assert p.returncode == 1, p.stdout + p.stderr
    run = tmp_path / "results" / "b" / "run1"
    assert (run / "output.xml").exists() and (run / "log.html").exists() and (run / "report.html").exists()
    assert "Latency Holds" in (run / "log.html").read_text()


@pytest.mark.integration  # runs robot
def test_without_the_listener_the_page_links_to_robots_log_and_report_copies_it(tmp_path: Path, capsys) -> None:
    p = _robot(tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    run = tmp_path / "results" / "b" / "run1"
    assert not (run / "log.html").exists()
    page = (run / "comparison.html").read_text()
    assert 'href="../../../out/log.html#s1-t2"' in page  # where robot wrote it, relative to the run dir
    assert cli.main(["report", str(run), "--no-charts"]) == 0
    assert (run / "log.html").exists() and (run / "output.xml").exists()
    assert 'href="log.html#s1-t2"' in (run / "comparison.html").read_text()


def test_an_older_runs_log_is_not_copied(tmp_path: Path) -> None:
    old = tmp_path / "log.html"
    old.write_text("old")
    import os

    os.utime(old, (1_000_000_000, 1_000_000_000))
    run = tmp_path / "run"
    RunRecorder(run, {"board": "b", "lab": "sim", "log": str(old)})
    assert cli.main(["report", str(run), "--no-charts"]) == 0
    assert not (run / "log.html").exists()


@pytest.mark.integration  # runs robot
def test_tests_that_failed_without_a_criterion_are_not_hidden(tmp_path: Path) -> None:
    """A criterion test that fails before it is judged (a data error) records nothing: Robot's count shows it."""
    suite = _suite(tmp_path)
    suite.write_text(suite.read_text() + "\nBroken Row\n    Fail    DataDriver could not read the row\n")
    p = subprocess.run(
        [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--listener",
         "perfgate.robot.listener.RunFiles", str(suite)],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert p.returncode == 2, p.stdout
    run = tmp_path / "results" / "b" / "run1"
    assert len(json.loads((run / "metrics.json").read_text())) == 2
    page = (run / "comparison.html").read_text()
    assert 'id="unjudged">Robot failed 1 test(s) that judged no criterion' in page
    assert "3 tests: 1 passed, 2 failed, 0 skipped" in page


@pytest.mark.integration  # runs robot
def test_the_run_dirs_report_counts_no_criterion_id_tag(tmp_path: Path) -> None:
    """The run directory's log.html and report.html (rebot) keep the criterion ids (`<board>.*`, tagged on every
    test) out of "Statistics by Tag", as the gate's own run does (perfgate.robot.tagstats); the tests keep them."""
    import re

    assert _robot(tmp_path, "--listener", "perfgate.robot.listener.RunFiles").returncode == 1
    run = tmp_path / "results" / "b" / "run1"
    report = (run / "report.html").read_text(encoding="utf-8")
    stats = json.loads(re.search(r'window\.output\["stats"\] = (\[.*?\]);\n', report).group(1))
    assert [s["label"] for s in stats[1]] == ["system"]
    assert "b.s.t.copy" in (run / "output.xml").read_text(encoding="utf-8")
