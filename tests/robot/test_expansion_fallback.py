"""One expansion, whichever way Robot is started (docs/architecture.md, How the criteria become tests): a suite file
built and run through Robot's programmatic API (`robot.api.TestSuiteBuilder`, `TestSuite.run`) has no `robot`
command whose pre-run modifiers the `language:` line could extend, so the gate library expands it as it starts;
its tests are the ones the plain `robot` command makes before selecting (names, tags, documentation, the template
call), and the console says that selection by criterion did not see them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from robot.api import ExecutionResult, ResultVisitor

from testpaths import ROOT

SUITE = ROOT / "suites" / "system" / "stream.robot"
BOARD = "am62xx_sk"
BY_API = """
import sys
from robot.api import TestSuiteBuilder
suite = TestSuiteBuilder().build(sys.argv[1])
assert [t.name for t in suite.tests] == ["Criterion ${id}"], [t.name for t in suite.tests]  # the hook did nothing
suite.run(variable=["BOARD:" + sys.argv[3]], dryrun=True, output=sys.argv[2], log=None, report=None, console="dotted")
"""


class _Tests(ResultVisitor):
    def __init__(self) -> None:
        self.found: list[tuple] = []

    def visit_test(self, test) -> None:
        body = [(k.name, tuple(k.args)) for k in test.body if getattr(k, "type", "") == "KEYWORD"]
        self.found.append((test.name, sorted(test.tags), test.doc, body))


def _tests(output: Path) -> list[tuple]:
    v = _Tests()
    ExecutionResult(str(output)).visit(v)
    return v.found


def test_a_suite_run_through_robots_api_gets_the_same_tests(tmp_path: Path) -> None:
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results")}
    plain = tmp_path / "plain.xml"
    p = subprocess.run([sys.executable, "-m", "robot", "--dryrun", "-v", f"BOARD:{BOARD}", "--output", str(plain),
                        "--log", "NONE", "--report", "NONE", str(SUITE)],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stdout + p.stderr
    api = tmp_path / "api.xml"
    q = subprocess.run([sys.executable, "-c", BY_API, str(SUITE), str(api), BOARD],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)  # fmt: skip
    assert q.returncode == 0, q.stdout + q.stderr
    expected = _tests(plain)
    assert len(expected) >= 2 and all("${" not in name for name, *_ in expected), expected
    assert _tests(api) == expected
    assert "expanded as each suite started" in q.stdout + q.stderr
    assert "expanded as each suite started" not in p.stdout + p.stderr
