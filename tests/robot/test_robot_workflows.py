"""The gate as a Robot Framework user drives it, with real robot runs on the simulated board: one suite file alone,
--rerunfailed (Robot's own, the plain command), -t and -i (with perfgate's pre-run modifier given as well) on
criterion names and ids, --dryrun on the real criteria (and failing on a broken suite), a board that never comes
up, and what the output says: metadata, report title, xunit classnames, relative evidence links, readable files,
console progress.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from robot.api import ExecutionResult, ResultVisitor

import calibrated
from perfgate import criteria, paths
from perfgate.report.robotfiles import relink

ROOT = Path(__file__).resolve().parents[2]
# INCONCLUSIVE:pass: a quiet sim against rows whose guide prints a wide min/max (see selftest.QUIET_SIM)
FAST = ("-v", "SIM_SPEED:20", "-v", "BOOT_CYCLES:1", "-v", "INCONCLUSIVE:pass")
EXPAND = ("--prerunmodifier", "perfgate.robot.expand.Criteria")
SELECTION = criteria.select("am62xx_sk")  # what the gate judges am62xx_sk against without RELEASE
STREAM = sorted(c.name for c in SELECTION.by_suite()["stream"])  # the guide's names: add (mb/s), copy (mb/s)...


LMBENCH = SELECTION.by_suite()["lmbench"][0].name


def _names(*suites: str) -> list[str]:
    """The criteria names of these suites (default: every suite that has a suite file)."""
    by_suite = SELECTION.by_suite()
    files = {p.stem for p in (ROOT / "suites").rglob("*.robot")}
    return sorted(c.name for s in suites or sorted(files & set(by_suite)) for c in by_suite.get(s, []))


def _robot(tmp: Path, out: str, *args: str, timeout: float = 300) -> tuple[subprocess.CompletedProcess[str], Path]:
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PERFGATE_NO_COLLECT": "1"}
    calibrated.seed_for(tmp / "results", args)  # a calibrated quiet board (tests/calibrated.py)
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp / out), *args]
    p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    return p, tmp / out / "output.xml"


def _tests(output: Path) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}

    def walk(suite) -> None:
        for t in suite.tests:
            found[t.name] = (t.status, t.message)
        for s in suite.suites:
            walk(s)

    walk(ExecutionResult(str(output)).suite)
    return found


def _messages(suite) -> list[str]:
    found: list[str] = []

    class Messages(ResultVisitor):
        def visit_message(self, msg) -> None:
            found.append(msg.message)

    suite.visit(Messages())
    return found


def _run_dir(tmp: Path, n: int) -> Path:
    return sorted((tmp / "results" / paths.VIRTUAL / "am62xx_sk").glob("2*"))[n]  # a virtual board's runs


@pytest.mark.slow
def test_a_suite_file_alone_then_only_its_failures_again(tmp_path: Path) -> None:
    stream = str(ROOT / "suites" / "system" / "stream.robot")
    first, output = _robot(
        tmp_path, "run1", "--listener", "perfgate.robot.listener.RunFiles", "--xunit", "xunit.xml",
        "-v", "BOARD:am62xx_sk", *FAST, "-v", "FAULTS:degrade:am62xx_sk.stream.*add*:30", stream,
    )  # fmt: skip
    assert first.returncode == 1, first.stdout + first.stderr
    tests = _tests(output)
    assert sorted(tests) == STREAM and tests[STREAM[0]][0] == "FAIL"
    assert "perfgate: stream: board$ stream_c" in first.stdout and "perfgate: stream: done in" in first.stdout

    # what the run says about itself, in Robot's files and in the run directory's copies
    suite = ExecutionResult(str(output)).suite
    assert suite.name == "am62xx_sk · Stream"  # the report's title and every xunit classname carry the board
    meta = suite.metadata
    assert meta["Board"] == "am62xx_sk" and meta["Lab"] == "sim" and meta["Virtual"].startswith("yes")
    assert meta["Guide"] == SELECTION.criteria[0].guide and meta["Release"] == SELECTION.label
    assert meta["U-Boot"].startswith("U-Boot 20") and meta["Kernel"][0].isdigit()
    run = _run_dir(tmp_path, 0)
    link = meta["Comparison"].split("|")[0].lstrip("[")
    assert (tmp_path / "run1" / link).resolve() == (run / "comparison.html").resolve()
    classnames = {line.split('classname="')[1].split('"')[0] for line in (tmp_path / "run1" / "xunit.xml")
                  .read_text().splitlines() if 'classname="' in line}  # fmt: skip
    assert classnames == {"am62xx_sk · Stream"}
    copied = ExecutionResult(str(run / "output.xml")).suite
    assert copied.metadata["Comparison"].startswith("[comparison.html|")
    evidence = [m for m in _messages(copied) if "Raw output" in m or "Serial transcript" in m]
    assert any("Serial transcript" in m for m in evidence)
    assert evidence, "no evidence link in the copied output"
    for message in evidence:
        href = message.split('href="')[1].split('"')[0]
        assert not href.startswith("/") and (run / href).is_file(), href  # relative to the run directory
    assert "perfgate am62xx_sk (VIRTUAL BOARD) Report" in (run / "report.html").read_text()
    mask = os.umask(0)
    os.umask(mask)
    for name in ("metrics.json", "run.json", "comparison.html", "summary.csv", "log.html"):
        assert (run / name).stat().st_mode & 0o777 == 0o666 & ~mask, name

    # Robot's own --rerunfailed, the plain command (the suite files expand the criteria before Robot selects)
    again, output2 = _robot(tmp_path, "run2", "-v", "BOARD:am62xx_sk", *FAST, "-R", str(output), stream)
    assert again.returncode == 0, again.stdout + again.stderr
    assert [(name, status) for name, (status, _) in _tests(output2).items()] == [(STREAM[0], "PASS")]
    assert "(as in the one earlier run that ran it)" in again.stdout  # the second run knows how long stream_c took


def test_t_and_i_select_criteria_by_name_and_id(tmp_path: Path) -> None:
    """Selection only (a dry run): the real runs of selected criteria are the --rerunfailed ones above."""
    by_name, output = _robot(
        tmp_path, "t", "--dryrun", *EXPAND, "-v", "BOARD:am62xx-sk", "-t", STREAM[1], "-t", LMBENCH,
        str(ROOT / "suites"),
    )  # fmt: skip
    assert by_name.returncode == 0, by_name.stdout + by_name.stderr
    assert sorted(_tests(output)) == sorted([STREAM[1], LMBENCH])
    assert ExecutionResult(str(output)).suite.name == "am62xx_sk"
    by_id, output = _robot(
        tmp_path, "i", "--dryrun", *EXPAND, "-v", "BOARD:am62xx_sk", "-i", "am62xx_sk.dhrystone.*",
        str(ROOT / "suites"),
    )  # fmt: skip
    assert by_id.returncode == 0, by_id.stdout + by_id.stderr
    assert sorted(_tests(output)) == _names("dhrystone")
    by_peripheral, output = _robot(
        tmp_path, "e", "--dryrun", *EXPAND, "-v", "BOARD:am62xx_sk", "-s", "System", "-s", "Graphics",
        "-e", "needs:display", str(ROOT / "suites"),
    )  # fmt: skip
    assert by_peripheral.returncode == 0, by_peripheral.stdout + by_peripheral.stderr
    suites = {t.parent.name for t in ExecutionResult(str(output)).suite.all_tests}
    assert "Glmark2" not in suites and "Stream" in suites  # glmark2 needs a display (variables/workloads)


def test_dryrun_expands_the_boards_criteria_and_fails_a_broken_suite(tmp_path: Path) -> None:
    p, output = _robot(tmp_path, "dry", "--dryrun", "-v", "BOARD:am62xx_sk", str(ROOT / "suites"))
    assert p.returncode == 0, p.stdout + p.stderr
    expected = _names()
    assert sorted(t.name for t in ExecutionResult(str(output)).suite.all_tests) == expected

    bad, output = _robot(tmp_path, "unknown", "--dryrun", "-v", "BOARD:nosuch", "-s", "Stream", str(ROOT / "suites"))
    assert bad.returncode == 252, bad.stdout + bad.stderr  # bad input, as Robot says of a bad option: nothing runs
    said = bad.stdout + bad.stderr
    assert said.startswith("[ ERROR ] perfgate: unknown board 'nosuch'; known boards: "), said  # first and alone
    assert "DataDriver" not in said and "${id}" not in said and not output.exists(), said

    tree = tmp_path / "tree"
    for part in ("suites", "resources"):
        shutil.copytree(ROOT / part, tree / part)
    broken = tree / "suites" / "system" / "stream.robot"
    broken.write_text(
        broken.read_text().replace("    Criterion Should Hold    ${id}", "    Criterion Shuold Hold    ${id}")
    )
    bad, output = _robot(tmp_path, "broken", "--dryrun", "-v", "BOARD:am62xx_sk", "-s", "Stream", str(tree / "suites"))
    assert bad.returncode == len(STREAM)
    assert all(s == "FAIL" and "Criterion Shuold Hold" in m for s, m in _tests(output).values())


@pytest.mark.slow
def test_a_board_that_never_comes_up_fails_every_criterion_by_name(tmp_path: Path) -> None:
    p, output = _robot(
        tmp_path, "out", "-v", "BOARD:am62xx_sk", *FAST, "-v", "FAULTS:uboot-hang", "-s", "Stream", "-s", "Dhrystone",
        "-s", "Uboot Emmc", "-s", "Sata", str(ROOT / "suites"),
    )  # fmt: skip
    expected = set(_names("stream", "dhrystone", "uboot_emmc"))
    assert not _names("sata")  # a suite with no numbers for the board has no tests
    tests = _tests(output)
    verdict = tests.pop("Gate Verdict", None)  # the gate's own verdict test fails too: nothing was measured
    assert set(tests) == expected and p.returncode == len(expected) + (verdict is not None)
    assert verdict is None or verdict[0] == "FAIL"
    reasons = ("no '`Starting kernel", "U-Boot did not answer")  # the board hangs in U-Boot
    for name, (status, message) in tests.items():
        assert status == "FAIL" and message.startswith(f"{name}: not measured"), message
        assert any(r in message for r in reasons), message
    entries = json.loads((_run_dir(tmp_path, 0) / "metrics.json").read_text())
    assert {e["name"] for e in entries} == expected and {e["verdict"] for e in entries} == {"not-measured"}
    assert all(any(r in e["message"] for r in reasons) for e in entries)
    page = (_run_dir(tmp_path, 0) / "comparison.html").read_text()
    assert all(name in page for name in expected)

    # the board is fixed: --rerunfailed over the whole directory runs exactly the failed criteria again
    dd, output = _robot(
        tmp_path, "rerun", "-R", str(output), "-v", "BOARD:am62xx_sk", *FAST, str(ROOT / "suites")
    )  # fmt: skip
    assert dd.returncode == 0, dd.stdout + dd.stderr
    assert set(_tests(output)) == expected and {s for s, _ in _tests(output).values()} == {"PASS"}


def test_relink_makes_links_relative_to_the_run_directory(tmp_path: Path) -> None:
    run = tmp_path / "results" / "b" / "r1"
    (run / "raw").mkdir(parents=True)
    (run / "raw" / "x.txt").write_text("x")
    text = (
        '<msg html="true">&lt;a href="../results/b/r1/raw/x.txt"&gt;x&lt;/a&gt; '
        '&lt;a href="https://example.com/a"&gt;&lt;/a&gt;</msg>'
        '<meta name="Comparison">[../results/b/r1/comparison.html|comparison.html]</meta>'
    )
    fixed = relink(text, tmp_path / "out", run)
    assert 'href="raw/x.txt"' in fixed and "https://example.com/a" in fixed
    assert "[comparison.html|comparison.html]" in fixed
