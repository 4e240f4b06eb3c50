"""The gate's Robot Framework library: open a run, measure a suite, judge one criterion.

It is also a listener (library listener, GLOBAL scope): every suite imports it through resources/criteria.resource,
so it sees each test end and records the judged criterion in results/<board>/<run>/metrics.json at once.

The work is done by the rooms of perfgate.run (session, plan, runner, recording) and by perfgate.decision; this library
only turns keywords and listener calls into theirs. The run's session (found through perfgate.robot.runsession, as the
board library finds it) holds the access the lab's kind started; the gate hands it to the runner (`Session.opened`),
which never goes through the board library.
"""

from __future__ import annotations

import html
import os
import sys
from pathlib import Path

from robot.api import SkipExecution, logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn

from perfgate import __version__, boards
from perfgate.datafile import merge
from perfgate.decision.judge import Judge
from perfgate.errors import PerfgateError
from perfgate.report.recorder import RunRecorder
from perfgate.robot import expand, runsession
from perfgate.robot import squad as squad_option
from perfgate.robot.criteria_reader import criteria_csv, criteria_problem
from perfgate.robot.expand import named_suites
from perfgate.robot.links import link_base as _link_base
from perfgate.robot.robotvars import var as _var
from perfgate.robot.verdict_test import VerdictTest
from perfgate.run import plan
from perfgate.run.recording import Outcome, Recording, outcome, say_judged, verdict_problems
from perfgate.run.runner import Runner
from perfgate.run.session import board_versions, selected_suites

GATE_LIBRARY = "perfgate.robot.gate.Gate"


@library(scope="GLOBAL", listener="SELF", auto_keywords=False, version=__version__)
class Gate:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self) -> None:
        self.session = runsession.session()  # the run's, shared with the board library (Start Lab, Close Lab)
        self.runner = Runner(self.session, self.session.opened, self._link)
        self.judge: Judge | None = None
        self.recording: Recording | None = None
        self._pending: dict[str, Outcome] = {}  # criterion id -> what `Criterion Should Hold` left
        self._current: str | None = None  # the criterion id of the test running now
        self._verdict = VerdictTest(f"{GATE_LIBRARY}.Gate Verdict Should Pass")
        self._expanded_late = False  # a suite reached unexpanded was expanded when it started (said once)

    board = property(lambda self: self.session.board, lambda self, v: setattr(self.session, "board", v))
    profile = property(lambda self: self.session.profile)
    lab = property(lambda self: self.session.lab)

    # ----------------------------------------------------------------------------------------------- keywords
    @keyword
    def open_run(self, board: str, lab: str = "sim", virtual: bool = False) -> str:
        """Resolve the board and the release it is judged against (RELEASE: the newest by default, one release, or
        `a,b` mixed, newest wins per criterion), open results/<board>/<run>/ and write those criteria there for
        the suites' expansion (perfgate/robot/expand.py).

        Sets the global variables ${BOARD_NAME}, ${RELEASE_NAME}, ${RUN_DIR} and ${CRITERIA_DIR}. An unknown board
        or release fails at once and lists the known ones."""
        s = self.session
        try:
            s.check(board)
        except PerfgateError as e:
            bad_input(e)
        meta = s.start(board, lab, virtual)
        self.recording = Recording(s, self.runner, RunRecorder(s.run_dir, meta))
        s.recorder = self.recording.recorder  # a lab kind that keeps its own key in run.json (LAVA) finds it there
        s.watch_signals()
        s.sweep_killed_runs()
        bi = BuiltIn()
        for name, value in (("BOARD_NAME", s.board), ("RELEASE_NAME", s.selection.label), ("RUN_DIR", s.run_dir),
                            ("CRITERIA_DIR", s.criteria_dir)):  # fmt: skip
            bi.set_global_variable("${" + name + "}", str(value))
        self.recording.meta["link_base"] = str(_link_base())
        metadata, console = s.announce(lab, self._href(s.run_dir / "comparison.html"))
        if meta.get("sim_noise"):  # the simulated board's noise regime: named wherever the run is
            metadata.append(("Simulated Noise", str(meta["sim_noise"])))
            console.append(f"perfgate: simulated board, {meta['sim_noise']}")
        for name, value in metadata:
            bi.set_suite_metadata(name, value, top=True)
        for line in console:
            logger.console(line)
        s.load_history()
        self.recording.judge = self.judge = s.judge()
        try:
            self.recording.open_baseline(_var("BASELINE"))
        except PerfgateError as e:
            bad_input(e)
        self.runner.baseline_more = self.recording.baseline_more()
        plan.allocate(self.judge, s.selection.criteria, s.selected, s.settings, s.profile, s.lab, _var)
        stuck_at = self.judge.undecidable
        for warning in plan.warnings(s.selection.criteria, s.selected, s.settings, s.profile, s.lab, stuck_at, _var):
            logger.warn(warning)
        self._sync_verdict_test()  # there from the start: a run whose suites never reach the gate (a user's) fails
        return str(s.run_dir)

    @keyword
    def gate_is_open(self) -> bool:
        """True once `Open Run` has run (in suites/__init__.robot, or earlier in a suite file run alone)."""
        return self.session.run_dir is not None

    @keyword
    def gate_was_opened_by_this_suite(self) -> bool:
        """True in the suite whose setup opened the run: its teardown closes it."""
        return self.session.run_dir is not None and self.session.opened_by == str(_var("SUITE NAME", ""))

    @keyword
    def note_board_versions(self) -> dict[str, str]:
        """The U-Boot and kernel versions the board printed on its console (serial.log), in the output's metadata
        and run.json. A board that printed none (it never came up) is said to have printed none."""
        assert self.session.run_dir is not None, "Open Run must come first"
        versions = board_versions(self.session.run_dir / "serial.log")
        for name, key in (("U-Boot", "uboot_version"), ("Kernel", "kernel_version")):
            BuiltIn().set_suite_metadata(name, versions.get(key) or "not seen on the console", top=True)
        if self.recording is not None:
            self.recording.meta.update(versions)
        return versions

    @keyword
    def use_lab(self, lab: dict) -> None:
        """Give the gate the lab's data (the board library loads and validates it). The lab's per-board overrides
        (`boards.<board>`) apply to the gate's board profile as they do to board control."""
        s = self.session
        s.lab = dict(lab or {})
        overrides = s.lab.pop("profile_overrides", None) or {}
        if s.board:
            s.profile = merge(boards.profile(s.board), overrides)
        try:
            if s.selection is not None:
                s.check_tool_faults()
        except PerfgateError as e:
            bad_input(e)

    @keyword
    def measure_suite(self, suite: str) -> None:
        """Run the suite's workload, keep every raw output, and judge each criterion of the board. The workload runs
        once, and again (up to REPEAT runs) only while one of its criteria is still inside the noise band around its
        threshold (perfgate.decision.sequential)."""
        assert self.judge is not None and self.recording is not None, "Open Run must come first"
        if self.session.suite_criteria(suite):
            self.runner.announce(suite)
        result = self.runner.measure(suite, self.judge)
        if result.judgements:
            self.recording.log_table(result)

    @keyword
    def criterion_should_hold(self, id: str) -> None:
        """Judge one criterion: fail when worse than published beyond tolerance or not measured, warn when better."""
        self._current = id
        result = self.runner.by_id.get(id)
        if result is None:
            raise AssertionError(f"criterion {id}: its suite was not measured (no `Measure Suite` ran for it)")
        settings = self.session.settings
        o = self._pending[id] = outcome(result, id, settings.on_missing_tool, self.session.waivers)
        self._say_time(id)
        if o.skip:
            raise SkipExecution(o.skip)
        against = self.recording.say_against_baseline(o) if self.recording is not None else None
        say_judged(result, o, settings, self._link)
        if against:
            raise AssertionError(against)

    def _say_time(self, cid: str) -> None:
        """Where this test's time went: its suite's setup measured it (Robot times the test itself at 00:00:00),
        so the test's log and message say how long the commands it was read from took."""
        seconds, runs, suite = self.runner.took(cid)
        if not runs:
            return
        note = (f"measured in the suite setup: {seconds:.1f} s in {runs} command run{'s' if runs > 1 else ''} "
                f"(the suite's commands: {suite:.1f} s)")  # fmt: skip
        logger.info(note)
        BuiltIn().set_test_message(note)

    @keyword
    def close_run(self) -> str:
        """Finish the run: run.json, comparison.html and the board's history. Returns comparison.html's path.

        A run stopped by a signal (Ctrl-C, SIGTERM) is recorded as `interrupted`, its verdict `incomplete`, with
        the criteria that never ran."""
        if self.recording is None:
            return ""
        why = str(_var("SUITE MESSAGE", "") or "")  # in the top suite's teardown: its setup's failure, if any
        top = self._verdict.top
        selected = [cid for t in (top.all_tests if top is not None else ()) if (cid := self._id_in_body(t))]
        page = self.recording.finish(why.removeprefix("Suite setup failed:").strip(), selected)
        logger.console(f"perfgate: comparison report {page}")
        return str(page)

    @keyword
    def something_should_have_been_measured(self) -> None:
        """Fails when no criterion was judged: a run that measured nothing fails (Robot's exit status too), with the
        reasons the criteria were skipped, grouped."""
        problem = verdict_problems(self.recording, self.session, undecided=False)
        if problem:
            raise AssertionError(problem)

    @keyword
    def gate_verdict_should_pass(self) -> None:
        """The `Gate Verdict` test: fails when nothing was measured (`Something Should Have Been Measured`) or when
        criteria are inconclusive under INCONCLUSIVE:fail (they read SKIP in the reports, apart from FAIL, and still
        fail the gate): Robot's exit status agrees with the gate's verdict."""
        problem = verdict_problems(self.recording, self.session, undecided=True)
        if problem:
            raise AssertionError(problem)

    # ----------------------------------------------------------------------------------------------- listener
    def start_suite(self, data, result) -> None:
        self._expand_late(data)
        if data.parent is None:
            self._verdict.top = data
            self.session.selected = selected_suites(data)
            if not data.has_tests:  # only suites the board publishes nothing for (--runemptysuite): Robot would run
                self.session.selected = named_suites(sys.argv[1:])  # no setup and pass; the Gate Verdict test
                self._verdict.sync(True)  # says nothing was measured

    def _expand_late(self, data) -> None:
        """A gate suite that reached the run unexpanded (perfgate.robot.language found no `robot` run to add the
        expansion to: Robot's programmatic API, or a Robot release that hides its settings) gets its criteria now,
        from the same files and through the same `expand.expand`, so that every criterion is still judged. Robot
        selected tests by name and tag before that, on the template alone: said once. Criteria that cannot be read
        leave the template, which `end_test` fails with the reason."""
        suite = expand.criteria_suite(data)
        if suite is None:
            return
        try:
            text = criteria_csv(f"{suite}.csv")
        except PerfgateError:
            return
        expand.expand(data, text)
        if not self._expanded_late:
            self._expanded_late = True
            logger.warn("perfgate: the criteria were expanded as each suite started, after Robot selected tests: "
                        "to select criteria by name or tag (-t, -i, --rerunfailed), run with --prerunmodifier "
                        "perfgate.robot.expand.Criteria")  # fmt: skip

    def end_suite(self, data, result) -> None:
        if data.parent is not None:
            self._sync_verdict_test()
        elif self.recording is not None:
            s = result.statistics
            self.recording.robot_counted({"tests": s.total, "passed": s.passed, "failed": s.failed,
                                          "skipped": s.skipped})  # fmt: skip

    def _sync_verdict_test(self) -> None:
        """A failing `Gate Verdict` test ends the top suite exactly while nothing has been judged (and the run was not
        stopped)."""
        if self.recording is not None:
            needed = verdict_problems(self.recording, self.session, undecided=True) is not None
            self._verdict.sync(needed and not self.session.interrupted)

    def end_test(self, data, result) -> None:
        if data is self._verdict.test:
            return
        if "${" in data.name:  # the suite's template was never expanded: its criteria could not be read
            result.status = "FAIL"
            result.message = f"no criteria: {criteria_problem(data.parent)}"
        try:
            # a Robot 7 running.TestCase has no `args`: the id is the one `Criterion Should Hold` was last called
            # with, or, for a test that never reached it (its suite setup failed), the id the expansion put in its body
            cid = self._current or self._id_in_body(data)
            self._current = None
            if cid and self.recording is not None:
                self.recording.test_ended(cid, self._pending.pop(cid, None), result.status, result.message,
                                          result.id, result.full_name)  # fmt: skip
        finally:
            self._sync_verdict_test()

    def _id_in_body(self, data) -> str | None:
        for item in getattr(data, "body", ()):
            for arg in getattr(item, "args", ()):
                arg = getattr(arg, "value", arg)  # Robot >= 7.0.1 may hold robot.running.Argument objects
                if isinstance(arg, str) and self.recording is not None and self.recording.criterion(arg) is not None:
                    return arg
        return None

    def close(self) -> None:
        if self.recording is None:
            return
        if not self.recording.meta.get("finished"):
            try:
                self.recording.finish()
            except Exception as e:  # the run's files are already valid; the page can be rebuilt later
                logger.console(f"perfgate: could not build comparison.html ({e}); rebuild with perfgate report")
        squad_option.after_run(self.session.run_dir, self.lab)  # -v SQUAD / the lab's squad: publish it
        self.session.collect_robot_files_after_exit()

    # ----------------------------------------------------------------------------------------------- helpers
    def _href(self, path: Path | str) -> str:
        """`path` relative to where the log is written (perfgate.report.robotfiles rewrites it for the copies)."""
        return os.path.relpath(path, _link_base())

    def _link(self, path: str) -> str:
        return f'<a href="{html.escape(self._href(path))}">{html.escape(Path(path).name)}</a>'


def bad_input(error: PerfgateError) -> None:
    """Bad input found before anything was measured: said on the console (file, key and line as the error names
    them) and in the log, and the run stops at once."""
    logger.error(f"perfgate: {error}")
    BuiltIn().fatal_error(str(error))
