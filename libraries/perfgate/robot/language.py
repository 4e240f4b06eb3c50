"""`language: perfgate.robot.language`, the first line of every gate suite file: the plain `robot` command expands
the board's criteria into tests before Robot selects any, with no extra option.

Why this mechanism. Tests built when a suite starts (as DataDriver, which the suites declared before, builds them)
come after Robot has already selected tests by name (`-t`, `--rerunfailed`) and tag (`-i`) and found only the
template `Criterion ${id}`: those runs exited 252, and a dead board failed one `Criterion ${id}` per suite.
`perfgate.robot.expand.Criteria`, a pre-run modifier, expands the criteria before Robot selects; the question is how
Robot runs it without `--prerunmodifier`. Robot 7.5 reads no configuration file (no robot.toml or pyproject
section), only the ROBOT_OPTIONS environment variable (the user's environment, not the project's), and takes custom
parsers from `--parser` only. The one thing a suite file itself can make Robot load is a language: Robot imports the
module a file's `language:` line names while it parses the file, before pre-run modifiers run
(`robot.conf.languages.Languages.add_language`).

So this module defines a language that adds no word (English stays as it is), and when Robot instantiates it during
a `robot` run it adds the expansion to that run's own pre-run modifiers (the list `--prerunmodifier` fills), unless
the command line already names it. Robot then runs it as if it had been given: no Robot code is patched, nothing
outside that run changes, and other tools that parse the files (robocop, libdoc, an editor) are untouched. The one
reliance on Robot's internals: the run's RobotSettings is found on the call stack, as the local `settings` of
`RobotFramework.main` (robot/run.py, Robot 7.5). Should a Robot upgrade move it, nothing breaks silently and no
criterion goes unjudged: the gate library expands each suite when it starts (perfgate/robot/gate.py, the same
`expand.expand`), says once that selection by criterion name or tag needs `--prerunmodifier
perfgate.robot.expand.Criteria`, and tests/robot/test_plain_command.py fails. The selection follows the renamed top
suite (`-s Suites.System.Stream` still selects), and under `--rerunfailed` the failed tests of the output are mapped
to this run's tests by suite file and test name, so that rerunning `suites/` after a one-file run (or back) selects
them.

A bad BOARD (unknown, missing) stops the run before anything starts, with one error naming the known boards.
"""

from __future__ import annotations

import sys
from pathlib import Path

from robot.api import SuiteVisitor
from robot.conf.languages import Language
from robot.output import LOGGER

MODIFIER = "perfgate.robot.expand.Criteria"


class PerfgateCriteria(Language):
    """perfgate.robot.language

    Its name is the module's, as a file's `language:` line names it (Robot finds a language by its doc's first
    line once the module is imported). It translates nothing."""

    def __init__(self) -> None:
        super().__init__()
        settings = _run_settings()
        if settings is not None:
            _register(settings)
            from perfgate.robot import tagstats  # the criterion-id tags out of "Statistics by Tag" (tagstats.py)

            tagstats.keep_ids_out_of_statistics(settings, _last([str(v) for v in settings.variables], "BOARD"))


def _run_settings():
    """The RobotSettings of the `robot` run parsing this file (None when another tool parses it): the local
    `settings` of `RobotFramework.main` (robot/run.py, Robot 7.5). Only that frame: pabot builds its own
    RobotSettings to list the suites, and that listing must see the files as they are."""
    from robot.conf import RobotSettings

    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "main":
            settings = frame.f_locals.get("settings")
            if isinstance(settings, RobotSettings):
                return settings
        frame = frame.f_back
    return None


def _given(modifier: object) -> bool:
    if isinstance(modifier, str):
        return modifier.split(":", 1)[0].replace("/", ".").removesuffix(".py").endswith(MODIFIER)
    from perfgate.robot.expand import Criteria

    return isinstance(modifier, Criteria | BadBoard | Rerun)


def _register(settings) -> None:
    if any(_given(m) for m in settings.pre_run_modifiers):
        return
    from robot.errors import DataError

    from perfgate.robot.expand import Criteria

    variables = [str(v) for v in settings.variables]
    board = _last(variables, "BOARD")
    release = _last(variables, "RELEASE")
    rerun = settings["ReRunFailed"]
    split = pabot_split(settings, variables)
    try:
        modifier: SuiteVisitor = Criteria(board or "", release, rerun)
    except DataError as e:
        modifier = BadBoard(str(e) if board else "BOARD is not set: run with -v BOARD:<board> "
                                                  "(python -m perfgate boards lists them)")  # fmt: skip
    else:
        first = _last(variables, "PABOTQUEUEINDEX") == "0"  # the whole message once, a short line from the others
        said = (
            one_gate_per_board(modifier.board, split)
            if first
            else f"pabot split {modifier.board}'s gate: {split} refused"
        )
        modifier = BadBoard(said) if split else Rerun(modifier, settings)
    settings["PreRunModifiers"] = [*settings.pre_run_modifiers, modifier]  # a new list: never Robot's default


def pabot_split(settings, variables: list[str]) -> str:
    """The part of the suites this robot process runs when pabot split one board's gate into one process per suite
    (or per test); empty when this process runs the board's whole selection. Split: a process pabot runs
    (PABOTQUEUEINDEX 0 or more; its -1 is the dry run that lists the suites), given `--suite`/`--test` names below
    the top suite, while pabot's list of items (.pabotsuitenames, in the directory pabot and its processes run in)
    has more than one. The per-board argument files with variables/pabot/ordering.txt run the whole tree in one
    process; an argument file per gate with one `--suite` (a farm's places) runs one item per board."""
    index = _last(variables, "PABOTQUEUEINDEX")
    if index is None or index.strip().startswith("-"):
        return ""
    below = [n for n in (*settings["SuiteNames"], *settings["TestNames"]) if "." in n]
    if not below:
        return ""
    try:
        names = Path(".pabotsuitenames").read_text(encoding="utf-8").splitlines()
    except OSError:
        return below[0]  # pabot's list is not where pabot keeps it: cannot tell, so one board is never split
    items = [n for n in names if n.startswith(("--suite ", "--test "))]
    return below[0] if len(items) > 1 else ""


def one_gate_per_board(board: str, part: str) -> str:
    return (
        f"pabot split {board}'s gate into one process per suite (this one: {part}): each would bring the "
        "board up, measure and judge alone, with its own verdict and report, and power-cycle the board under "
        f"the others. One board is one gate: `robot -v BOARD:{board} suites/`. Several boards in parallel, one "
        "process each: `pabot --no-pabotlib --processes <n> --ordering variables/pabot/ordering.txt "
        f"--argumentfile1 variables/pabot/{board}.args --argumentfile2 variables/pabot/<another board>.args "
        "... suites/` (README: In CI, and many boards at once)"
    )


def _last(variables: list[str], name: str) -> str | None:
    found = [v.split(":", 1)[1] for v in variables if v.split(":", 1)[0].strip().upper() == name]
    return found[-1].strip() if found else None


class BadBoard(SuiteVisitor):
    """An unknown or missing BOARD: said once, and nothing runs (Robot then exits 252, as for a bad option)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def visit_suite(self, suite) -> None:
        if suite.parent is None:
            LOGGER.error(f"perfgate: {self.message}")
            suite.suites.clear()
            suite.tests.clear()


class Rerun(SuiteVisitor):
    """The expansion; then the run's own selection follows it: `--suite`/`--test` patterns that name the top suite
    by its old name (`-s Suites.Storage`) name it by the board, and `--rerunfailed`'s failed tests are mapped onto
    this run's tests by suite file and test name."""

    def __init__(self, criteria: SuiteVisitor, settings) -> None:
        self.criteria = criteria
        self.settings = settings

    def visit_suite(self, suite) -> None:
        before = suite.name
        suite.visit(self.criteria)
        if suite.parent is not None:
            return
        if suite.name != before:
            for option in ("SuiteNames", "TestNames"):
                self.settings[option] = [_renamed(p, before, suite.name) for p in self.settings[option]]
        if self.settings["ReRunFailed"]:
            self._rerun(suite)

    def _rerun(self, suite) -> None:
        from robot.result import ExecutionResult
        from robot.utils import glob_escape

        try:
            result = ExecutionResult(self.settings["ReRunFailed"], include_keywords=False).suite
        except Exception:  # Robot's own gathering says what is wrong with the file
            return
        failed: set[tuple[str, str]] = set()
        result.visit(_Failed(failed))
        here: list[str] = []
        suite.visit(_Matching(failed, here))
        if here:
            names = [*self.settings["TestNames"], *(glob_escape(n) for n in here)]
            self.settings["TestNames"] = names
            self.settings["ReRunFailed"] = None


def _renamed(pattern: str, old: str, new: str) -> str:
    """A selection pattern that starts with the top suite's old name, with its new one (Robot's matching ignores
    case, spaces and underscores)."""

    def norm(text: str) -> str:
        return text.lower().replace(" ", "").replace("_", "")

    head, dot, rest = pattern.partition(".")
    return f"{new}{dot}{rest}" if norm(head) == norm(old) else pattern


def _key(test) -> tuple[str, str]:
    source = test.parent.source if test.parent is not None else None
    return (str(Path(str(source)).resolve()) if source else "", test.name)


class _Failed(SuiteVisitor):
    def __init__(self, found: set[tuple[str, str]]) -> None:
        self.found = found

    def visit_test(self, test) -> None:
        if test.failed:
            self.found.add(_key(test))

    def visit_keyword(self, keyword) -> None:
        """Keywords need no visit."""


class _Matching(SuiteVisitor):
    def __init__(self, failed: set[tuple[str, str]], out: list[str]) -> None:
        self.failed = failed
        self.out = out

    def visit_test(self, test) -> None:
        source, name = _key(test)
        if (source, name.replace("\\\\", "\\")) in self.failed:  # the model doubles a guide's backslash
            self.out.append(test.full_name)

    def visit_keyword(self, keyword) -> None:
        """Keywords need no visit."""
