"""The criterion-id tags stay out of Robot's "Statistics by Tag" by default (issue 23, 6), while `-i <id>` still
selects by id and the tests keep their id tags (perfgate.robot.tagstats). Before, a run of am62xx_sk counted 651
one-test tags there. Dry runs of one suite file: the statistics are Robot's own (output.xml, report.html)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from robot.api import ExecutionResult

from perfgate import criteria
from perfgate.robot import tagstats

ROOT = Path(__file__).resolve().parents[2]
STREAM_FILE = ROOT / "suites" / "system" / "stream.robot"
STREAM = criteria.select("am62xx_sk").by_suite()["stream"]


def _robot(tmp: Path, out: str, *args: str, tool: str = "robot") -> tuple[subprocess.CompletedProcess, Path]:
    argv = [sys.executable, "-m", tool, "--outputdir", str(tmp / out), *args]
    env = {k: v for k, v in os.environ.items() if k != "ROBOT_OPTIONS"}
    env.update({"PERFGATE_RESULTS": str(tmp / "results"), "PERFGATE_NO_COLLECT": "1"})
    p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=300, check=False)
    return p, tmp / out


def _tag_stats(out: Path) -> list[str]:
    """The labels of report.html's "Statistics by Tag", as Robot wrote them for the page."""
    report = (out / "report.html").read_text(encoding="utf-8")
    stats = json.loads(re.search(r'window\.output\["stats"\] = (\[.*?\]);\n', report).group(1))
    return [s["label"] for s in stats[1]]


def _output_tag_stats(out: Path) -> list[str]:
    """The tag statistics output.xml holds (its <statistics> element, as robot wrote it)."""
    stats = ET.parse(out / "output.xml").getroot().find("statistics")
    return [str(s.text) for s in stats.find("tag")]


def test_ids_are_not_counted_but_still_select(tmp_path: Path) -> None:
    p, out = _robot(tmp_path, "all", "--dryrun", "--console", "dotted", "-v", "BOARD:am62xx-sk", str(STREAM_FILE))
    assert p.returncode == 0, p.stdout + p.stderr
    assert _tag_stats(out) == ["board:am62xx_sk", "stream", "system"]
    tests = list(ExecutionResult(str(out / "output.xml")).suite.all_tests)
    assert len(tests) == len(STREAM) and all(t.tags.match(c.id) for t, c in zip(tests, STREAM, strict=True))

    wanted = STREAM[1]
    p, out = _robot(tmp_path, "one", "--dryrun", "--console", "dotted", "-v", "BOARD:am62xx_sk", "-i", wanted.id,
                    str(STREAM_FILE))  # fmt: skip
    assert p.returncode == 0, p.stdout + p.stderr
    assert [t.name for t in ExecutionResult(str(out / "output.xml")).suite.all_tests] == [wanted.name]
    assert wanted.id not in _tag_stats(out)


def test_a_run_naming_its_tag_statistics_counts_them(tmp_path: Path) -> None:
    p, out = _robot(tmp_path, "inc", "--dryrun", "--console", "dotted", "-v", "BOARD:am62xx_sk",
                    "--tagstatinclude", "am62xx_sk.*", str(STREAM_FILE))  # fmt: skip
    assert p.returncode == 0, p.stdout + p.stderr
    assert sorted(_tag_stats(out)) == sorted(c.id for c in STREAM)


def test_rebot_counts_them_unless_told_as_the_readme_says(tmp_path: Path) -> None:
    p, out = _robot(tmp_path, "run", "--dryrun", "--console", "dotted", "-v", "BOARD:am62xx_sk", str(STREAM_FILE))
    assert p.returncode == 0, p.stdout + p.stderr
    assert _output_tag_stats(out) == ["board:am62xx_sk", "stream", "system"]  # output.xml's statistics too
    p, plain = _robot(tmp_path, "rebot", str(out / "output.xml"), tool="robot.rebot")
    assert p.returncode == 0, p.stdout + p.stderr
    assert len(_tag_stats(plain)) == 3 + len(STREAM)  # rebot has its own options: the limitation, said
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "rebot --merge --tagstatexclude 'am62xx_sk.*'" in readme
    p, told = _robot(tmp_path, "told", "--tagstatexclude", "am62xx_sk.*", str(out / "output.xml"), tool="robot.rebot")
    assert p.returncode == 0, p.stdout + p.stderr
    assert _tag_stats(told) == ["board:am62xx_sk", "stream", "system"]


def test_the_patterns_cover_every_board_and_an_alias() -> None:
    patterns = tagstats.id_patterns("am62xx-sk")
    assert "am62xx_sk.*" in patterns and len(patterns) >= 20
    assert tagstats.id_patterns("no-such-board") == tagstats.id_patterns()
