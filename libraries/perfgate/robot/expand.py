"""`robot --prerunmodifier perfgate.robot.expand.Criteria -v BOARD:<board> ...`: the board's criteria as real tests
before Robot selects any, so that Robot's own selection works on them:

    robot --prerunmodifier perfgate.robot.expand.Criteria -v BOARD:am62xx_sk -t "add (MB/s)" suites/
    robot --prerunmodifier perfgate.robot.expand.Criteria -v BOARD:am62xx_sk --rerunfailed run1/output.xml suites/
    robot --prerunmodifier perfgate.robot.expand.Criteria -v BOARD:am62xx_sk -i 'am62xx_sk.lmbench.*' suites/

DataDriver builds a suite's tests only when the suite starts, after Robot has already filtered by name (`-t`,
`--rerunfailed`) and found nothing but the template. This modifier does DataDriver's expansion at parse time
from the same threshold files (the same test names, tags, documentation and template call) and takes DataDriver
out of those suites. The board comes from the modifier's argument (`...Criteria:am62xx_sk`) or from
`-v BOARD:`, the release from `-v RELEASE:` (default: the newest), as in the gate.
Every gate suite file's `language: perfgate.robot.language` line adds it to the plain `robot` command's own
pre-run modifiers (perfgate/robot/language.py), so the option is needed only where the suites are not perfgate's.

The top suite is named after the board (as the RunFiles listener names it in output.xml and the pabot argument
files with --name), or, with --rerunfailed, as in the output it reruns, so that Robot's full names match.
DataDriver's own `DataDriver.rerunfailed` modifier works only when one criterion per suite failed (with Robot 7 it
hands its list of names to DataDriver as one space-joined string).
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
        datadriver = [i for i in suite.resource.imports if i.type == "LIBRARY" and i.name == "DataDriver"]
        if not datadriver or not suite.tests:
            return
        template = suite.tests[0]
        try:
            text = board_csv(self.board, self.release, Path(str(datadriver[0].args[0])).stem)
        except PerfgateError as e:
            raise DataError(str(e)) from e
        rows = list(csv.DictReader(io.StringIO(text)))
        suite.resource.imports = [i for i in suite.resource.imports if i not in datadriver]
        if not rows:  # the board publishes nothing here: no test (never the unexpanded `Criterion ${id}` template)
            suite.tests = []
            return
        needs = settings.needs(Path(str(datadriver[0].args[0])).stem)
        suite.tests = [_test(template, row, needs) for row in rows]

    def visit_test(self, test: TestCase) -> None:
        """Tests need no visit."""


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
