"""The gate's checks before anything is powered, for a run and for `robot --dryrun`.

`Check The Command Line` (the first step of `Start The Gate`): every `-v` name is one the gate knows
(`perfgate.runvars.KNOWN`), one a suite or resource of the run declares in its Variables section, or a USER_ name;
every run variable's value is valid. A bad one stops the run at once, before the lab is touched.

Under `robot --dryrun` Robot runs no library keyword, so this library is also a listener: when the top suite
starts it checks the command line, the board, its criteria and the lab (`perfgate.labcheck`: keys, devices,
commands on PATH, hosts) and says each problem once, as an `[ ERROR ]` line; one test it adds to the run
(CHECK_TEST) then fails, so that the dry run exits non-zero, and the suites' own tests are dry-run as usual.

Robot keeps the command line's variables apart from the others in its settings (`RobotSettings.variables`, what
`-v`, argument files and ROBOT_OPTIONS gave); the gate reads them there, so Robot's built-in variables, variable
files (`-V`) and the suites' own variables never count as unknown.
"""

from __future__ import annotations

import sys
from pathlib import Path

from robot.api import logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn
from robot.running.context import EXECUTION_CONTEXTS

from perfgate import __version__, boards, labcheck, runvars
from perfgate.errors import PerfgateError
from perfgate.robot.robotvars import var as _var

CHECK_TEST = "Perfgate Checks The Lab, The Board And The Command Line"


def _text(value: object) -> str:
    return "" if value is None or str(value).strip().upper() in ("", "NONE") else str(value).strip()


def command_line_variables() -> list[str]:
    """The `-v` options of this robot run (`NAME:value`), as Robot read them (argument files, ROBOT_OPTIONS)."""
    ctx = EXECUTION_CONTEXTS.top
    settings = getattr(getattr(ctx, "output", None), "_settings", None)
    if settings is not None:
        return [str(v) for v in settings.variables]
    from robot.run import RobotFramework  # not inside a run Robot started: read sys.argv as Robot would

    try:
        options, _ = RobotFramework().parse_arguments(sys.argv[1:])
    except Exception:
        return []
    return [str(v) for v in options.get("variable") or []]


def declared_variables(suite: object) -> set[str]:
    """The variable names the run's suites, and the resource files they import, declare."""
    from robot.running.builder import ResourceFileBuilder
    from robot.utils import find_file

    names: set[str] = set()
    seen: set[Path] = set()

    def resource(res: object, directory: str | None) -> None:
        names.update(v.name for v in getattr(res, "variables", []))
        for imp in getattr(res, "imports", []):
            if imp.type != "RESOURCE" or "${" in imp.name:
                continue
            try:
                path = Path(find_file(imp.name, imp.directory or directory, "Resource file"))
            except Exception:
                continue
            if path in seen:
                continue
            seen.add(path)
            try:
                resource(ResourceFileBuilder(process_curdir=False).build(path), str(path.parent))
            except Exception:
                continue

    def walk(s: object) -> None:
        source = getattr(s, "source", None)
        resource(getattr(s, "resource", None), str(Path(str(source)).parent) if source else None)
        for child in getattr(s, "suites", []):
            walk(child)

    walk(suite)
    return names


# Robot's own automatic variables (Robot's user guide, "Automatic variables"): never unknown, even when given
ROBOT_BUILTINS = ("TEMPDIR", "EXECDIR", "OPTIONS", "OUTPUT_DIR", "OUTPUT_FILE", "REPORT_FILE", "LOG_FILE",
                  "DEBUG_FILE", "LOG_LEVEL", "TEST_NAME", "TEST_TAGS", "TEST_DOCUMENTATION", "TEST_STATUS",
                  "TEST_MESSAGE", "PREV_TEST_NAME", "PREV_TEST_STATUS", "PREV_TEST_MESSAGE", "SUITE_NAME",
                  "SUITE_SOURCE", "SUITE_DOCUMENTATION", "SUITE_METADATA", "SUITE_STATUS", "SUITE_MESSAGE",
                  "KEYWORD_STATUS", "KEYWORD_MESSAGE")  # fmt: skip


def check_command_line(top: object) -> runvars.RunVars:
    """Unknown `-v` names and bad values raise runvars.VariableError (the first one found)."""
    declared = {*declared_variables(top), *ROBOT_BUILTINS}
    runvars.check_names([runvars.cli_name(v) for v in command_line_variables()], declared)
    return runvars.read(_var)


def dry_run_problems(top: object) -> list[str]:
    """Everything a dry run can check without the hardware, each problem one line."""
    problems: list[str] = []
    try:
        check_command_line(top)
    except PerfgateError as e:
        problems.append(str(e))
    board, lab, release = _text(_var("BOARD")), _text(_var("LAB")), _text(_var("RELEASE")) or None
    if not board:
        problems.append("BOARD is not set: run with -v BOARD:<board> (python -m perfgate boards lists them)")
    try:
        report = labcheck.check(lab or None, board or None, release)
    except PerfgateError as e:
        problems.append(str(e))
        return problems
    problems += [str(p) for p in report.problems]
    for note in report.notes:
        logger.info(f"perfgate: {note}")
    return problems


def _dry_run() -> bool:
    ctx = EXECUTION_CONTEXTS.current
    return bool(ctx and ctx.dry_run)


@library(scope="GLOBAL", version=__version__, listener="SELF", auto_keywords=False)
class Preflight:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self) -> None:
        self.problems: list[str] | None = None  # the dry run's, once its top suite started

    @keyword
    def check_the_command_line(self) -> None:
        """Every `-v` name is one the gate knows (or a suite declares, or USER_<name>) and every run variable's
        value is valid: else the run stops here, before the lab is touched, naming the variable."""
        ctx = EXECUTION_CONTEXTS.top
        try:
            check_command_line(ctx.suite if ctx else None)
            boards.resolve(_text(_var("BOARD")))
        except PerfgateError as e:
            logger.error(f"perfgate: {e}")
            BuiltIn().fatal_error(str(e))

    def start_suite(self, data, result) -> None:
        if self.problems is not None or not _dry_run():
            return
        top = data
        while top.parent is not None:
            top = top.parent
        self.problems = dry_run_problems(top)
        for problem in self.problems:
            logger.error(f"perfgate: {problem}")
        if self.problems:  # one test fails with them (the run exits non-zero); the suites' own tests stay dry-run.
            # It goes into this suite: a library listener hears only the suites that import the library
            data.tests.create(name=CHECK_TEST, doc="What the gate checks before anything is powered: the command "
                              "line, the board, its criteria and the lab (perfgate lab check).")  # fmt: skip

    def end_test(self, data, result) -> None:
        if self.problems and _dry_run() and data.name == CHECK_TEST:
            result.status = "FAIL"
            result.message = (f"perfgate --dryrun: {len(self.problems)} problem(s) with the command line, the board "
                              "or the lab, each an [ ERROR ] line (the log's Test Execution Errors)")  # fmt: skip
