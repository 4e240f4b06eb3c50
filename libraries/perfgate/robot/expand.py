"""The one expansion of a suite's criteria into tests: a gate suite file holds one template test, `Criterion ${id}`
(or `Boot time ${id}`...), and each criterion of the board becomes one test in its place, named as the guide names
it, tagged with its id, chapter, suite, board and `needs:<peripheral>`, documented with its published number,
calling the suite's template with its id.

It runs before Robot selects any test, as a pre-run modifier, so that Robot's own selection works on the criteria:

    robot -v BOARD:am62xx_sk -t "add (MB/s)" suites/
    robot -v BOARD:am62xx_sk --rerunfailed run1/output.xml suites/
    robot -v BOARD:am62xx_sk -i 'am62xx_sk.lmbench.*' suites/

Every gate suite file's `language: perfgate.robot.language` line adds `Criteria` to the plain `robot` command's own
pre-run modifiers (perfgate/robot/language.py); `--prerunmodifier perfgate.robot.expand.Criteria` may be given
where the suites are not perfgate's (it expands once). Should a run reach a gate suite unexpanded (Robot's
programmatic API builds the suites itself, or a Robot release where the language line finds no run to add it
to), the gate library expands it with `expand()` when the suite starts (perfgate/robot/gate.py), from the same
files: every criterion is still judged, and only selection by criterion name or tag is lost, which it says.

The board comes from the modifier's argument (`...Criteria:am62xx_sk`) or from `-v BOARD:`, the release from
`-v RELEASE:` (default: the newest), as in the gate. The top suite is named after the board (as the RunFiles
listener names it in output.xml and the pabot argument files with --name), or, with --rerunfailed, as in the
output it reruns, so that Robot's full names match.
"""

from __future__ import annotations

import csv
import html
import io
import sys
from pathlib import Path

from robot.api import SuiteVisitor
from robot.errors import DataError
from robot.running.model import TestCase, TestSuite

from perfgate import boards, criteria
from perfgate.errors import PerfgateError
from perfgate.report.robotfiles import TOP_SUITE, top_suite_name
from perfgate.robot.criteria_reader import board_csv, extra_tags, robot_name
from perfgate.run.plan import all_suites
from perfgate.workloads import settings

NAME = "*** Test Cases ***"


def _option(argv: list[str], short: str, long: str) -> list[str]:
    """Every value of a robot option on the command line (`-v X`, `--variable X`, `--variable=X`)."""
    found = []
    for i, arg in enumerate(argv):
        if arg in (short, long) and i + 1 < len(argv):
            found.append(argv[i + 1])
        elif arg.startswith(long + "="):
            found.append(arg.split("=", 1)[1])
    return found


def board_from_argv(argv: list[str]) -> str:
    """The last `-v BOARD:x` on the command line."""
    boards_given = [v.split(":", 1)[1] for v in _option(argv, "-v", "--variable") if v.startswith("BOARD:")]
    return boards_given[-1] if boards_given else ""


def named_suites(argv: list[str]) -> list[str]:
    """The suite files `--suite` names on the command line, as file stems (`-s Suites.Boot.Boot_Time` -> boot_time)."""
    return [v.rsplit(".", 1)[-1].strip().lower().replace(" ", "_") for v in _option(argv, "-s", "--suite")]


def rerun_top_name(argv: list[str]) -> str | None:
    """The top suite's name in the output that `--rerunfailed` reads: the rerun must carry the same name for
    Robot's full names to match."""
    outputs = _option(argv, "-R", "--rerunfailed")
    if not outputs or not Path(outputs[-1]).is_file():
        return None
    with open(outputs[-1], encoding="utf-8") as f:
        m = TOP_SUITE.search(f.read(4096))
    return html.unescape(m.group(1)) if m else None


def rerun_top_source(output: str) -> str | None:
    """The source of the top suite in an output.xml (a suite file or the suites directory)."""
    if not Path(output).is_file():
        return None
    with open(output, encoding="utf-8") as f:
        m = TOP_SUITE.search(f.read(4096))
    return html.unescape(m.group(2)) if m and m.group(2) else None


class Criteria(SuiteVisitor):
    def __init__(self, board: str = "", release: str | None = None, rerun: str | None = None) -> None:
        argv = sys.argv[1:]
        name = board or board_from_argv(argv)
        if not name:
            raise DataError("perfgate.robot.expand.Criteria needs the board: -v BOARD:<board> or Criteria:<board>")
        if release is None:
            releases = [v.split(":", 1)[1] for v in _option(argv, "-v", "--variable") if v.startswith("RELEASE:")]
            release = releases[-1] if releases else None
        self.release = release or None
        self.rerun = rerun
        self.expanded = False
        try:
            self.board = boards.resolve(name)
            criteria.select(self.board, self.release)  # an unknown release fails here, naming the board's
        except PerfgateError as e:
            raise DataError(str(e)) from e

    def visit_suite(self, suite: TestSuite) -> None:
        if self.expanded and suite.parent is None:  # the hook and an explicit --prerunmodifier: once
            return
        super().visit_suite(suite)
        if suite.parent is None:
            self.expanded = True

    def start_suite(self, suite: TestSuite) -> None:
        if suite.parent is None:
            given = rerun_top_name(sys.argv[1:]) if self.rerun is None else rerun_top_name(["-R", self.rerun])
            if given and self.rerun is not None:  # a file rerun after a directory run (or back): names by the board
                was = rerun_top_source(self.rerun)
                if was and Path(was).is_file() != Path(str(suite.source or "")).is_file():
                    given = None
            suite.name = given or top_suite_name(self.board, suite.name, str(suite.source or ""))
        suite_name = criteria_suite(suite)
        if suite_name is None:
            return
        try:
            text = board_csv(self.board, self.release, suite_name)
        except PerfgateError as e:
            raise DataError(str(e)) from e
        expand(suite, text)

    def visit_test(self, test: TestCase) -> None:
        """Tests need no visit."""


def criteria_suite(suite: TestSuite) -> str | None:
    """The suite name (`stream`) of a gate suite file not expanded yet: one test, the template named with `${id}`
    (`Criterion ${id}`, `Boot time ${id}`), in a file named after a suite of the gate; None for any other suite (a
    directory, a user's own suite, a suite already expanded)."""
    if suite.source is None or len(suite.tests) != 1 or "${id}" not in suite.tests[0].name:
        return None
    name = Path(str(suite.source)).stem
    return name if name in all_suites() else None


def expand(suite: TestSuite, text: str) -> None:
    """Replace the suite's template by one test per row of its criteria file `text` (no row: no test, never the
    unexpanded template)."""
    template = suite.tests[0]
    rows = list(csv.DictReader(io.StringIO(text)))
    needs = settings.needs(Path(str(suite.source)).stem)
    suite.tests = [_test(template, row, needs) for row in rows]


def _test(template: TestCase, row: dict[str, str], suite: str) -> TestCase:
    cid = row["${id}"]
    tags = extra_tags(
        [*template.tags, *(t.strip() for t in (row.get("[Tags]") or "").split(",") if t.strip())], cid, suite
    )
    test = TestCase(
        name=robot_name(row[NAME]), doc=row.get("[Documentation]") or template.doc, tags=tags,
        template=template.template, lineno=template.lineno, timeout=template.timeout,
    )  # fmt: skip
    test.setup, test.teardown = template.setup, template.teardown
    test.body.create_keyword(name=template.template, args=[cid], lineno=template.lineno)
    return test
