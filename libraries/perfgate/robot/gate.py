"""The gate's Robot Framework library: open a run, measure a suite, judge one criterion.

It is also a listener (library listener, GLOBAL scope): every suite imports it through resources/criteria.resource,
so it sees each test end and records the judged criterion in results/<board>/<run>/metrics.json at once.

Board access goes through the board library (perfgate.robot.board.Board): `run_on_board()` and `uboot_command()`.
"""

from __future__ import annotations

import html
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from importlib import import_module
from pathlib import Path

from robot.api import SkipExecution, logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError

from perfgate import boards, criteria, paths, runvars, sequential, waivers
from perfgate.datafile import merge
from perfgate.errors import BoardLost, PerfgateError, ToolMissing
from perfgate.model import Criterion
from perfgate.report import progress
from perfgate.robot import squad as squad_option
from perfgate.robot.links import link_base as _link_base
from perfgate.tolerance import Policy
from perfgate.verdict import FAIL, NOT_MEASURED, PASS, WARN, Judgement, judge
from perfgate.workloads.base import Measurements, Workload

BOARD_LIBRARY = "perfgate.robot.board.Board"
GATE_LIBRARY = "perfgate.robot.gate.Gate"
STOPPED = ("Test execution stopped due to a fatal error", "Execution terminated by signal")
UBOOT_BANNER = re.compile(r"^\s*(U-Boot (?:SPL )?\d{4}\.\d\d\S*[^\r\n]*)", re.M)
LINUX_VERSION = re.compile(r"Linux version (\S+)")


def _var(name: str, default: object = None) -> object:
    """A Robot variable; its default when the library is used outside a robot run (a Python test, a script)."""
    try:
        return BuiltIn().get_variable_value("${" + name + "}", default)
    except RobotNotRunningError:
        return default


@dataclass
class _SuiteResult:
    suite: str
    criteria: dict[str, Criterion]
    measured: Measurements
    samples: dict[str, list[float]] = field(default_factory=dict)
    evidence: dict[str, list[str]] = field(default_factory=dict)  # criterion id -> evidence files
    judgements: dict[str, Judgement] = field(default_factory=dict)
    skip_reason: str | None = None


class _Context:
    """The Context a workload sees (perfgate.workloads.base.Context)."""

    def __init__(self, gate: Gate, suite: str) -> None:
        self._gate = gate
        self.suite = suite
        self.board = gate.board
        self.profile = gate.profile
        self.lab = gate.lab
        self.repeat = gate.repeat
        self.virtual = gate.virtual
        duration = _var("DURATION")
        self.duration = None if duration in (None, "", "NONE") else duration  # -v DURATION: network seconds
        self.files: list[str] = []
        self.last_evidence = ""

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell",
            setup: tuple[str, ...] = ()) -> str:  # fmt: skip
        logger.console(
            progress.starting(self.suite, where, command, timeout, self._gate.expected(self.suite, where, command))
        )
        started = time.monotonic()
        try:
            if where == "host":
                text = self._gate.run_on_host(command, timeout)
            else:
                board = self._gate.board_library()
                if where == "uboot":
                    text = board.uboot_command(command, timeout=timeout, setup=setup)
                else:
                    text = board.run_on_board(command, timeout=timeout, where=where)
        except BaseException as e:
            logger.console(progress.finished(self.suite, time.monotonic() - started, e))
            raise
        elapsed = time.monotonic() - started
        path = self._gate.keep_evidence(self.suite, label or "output", command, text, elapsed, where)
        self.files.append(path)
        self.last_evidence = path
        if _not_found(text):
            error = ToolMissing(f"`{command.split()[0]}` is not on the board ({_not_found(text)})")
            logger.console(progress.finished(self.suite, elapsed, error))
            raise error
        logger.console(progress.finished(self.suite, elapsed))
        return text

    def tester(self) -> str:
        return self._gate.board_library().tester_address()

    def console_mark(self) -> int:
        return self._gate.board_library().console_mark()

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0, label: str = "") -> int:  # fmt: skip
        board = self._gate.board_library()
        what = " then ".join(f"`{p}`" for p in patterns)
        logger.console(progress.starting(self.suite, "console", f"(waiting for {what})", timeout, None))
        started = time.monotonic()
        try:
            end = board.await_console(patterns, since=since, timeout=timeout, abort=abort or [], quiet=quiet)
        except BaseException as e:
            self._keep_console(board, since, label, what, time.monotonic() - started)
            logger.console(progress.finished(self.suite, time.monotonic() - started, e))
            raise
        self._keep_console(board, since, label, what, time.monotonic() - started)
        logger.console(progress.finished(self.suite, time.monotonic() - started))
        return end

    def _keep_console(self, board: object, since: int, label: str, what: str, elapsed: float) -> None:
        text = board.console_text(since)  # type: ignore[attr-defined]
        path = self._gate.keep_evidence(self.suite, label or "console", f"(console: {what})", text, elapsed, "console")
        self.files.append(path)
        self.last_evidence = path

    def board_address(self) -> str:
        """The board's address as the tester sees it (learned from the console, or the lab's)."""
        return self._gate.board_library().board_address()

    def note(self, message: str) -> None:
        logger.info(f"{self.suite}: {message}", also_console=False)


def _not_found(text: str) -> str:
    for line in text.splitlines()[-5:]:
        if line.rstrip().endswith(": not found") or line.rstrip().endswith("command not found"):
            return line.strip()
    return ""


@library(scope="GLOBAL", listener="SELF", auto_keywords=False)
class Gate:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self) -> None:
        self.board = ""
        self.profile: dict = {}
        self.lab: dict = {}
        self.virtual = False
        self.repeat = 3
        self.aggregate = "median"
        self.inconclusive = "fail"
        self.noise: sequential.NoiseModel | None = None
        self.noise_history: dict[str, list[float]] = {}  # criterion id -> the board's passing hardware runs
        self.on_missing_tool = "fail"
        self.run_dir: Path | None = None
        self.criteria_dir: Path | None = None
        self.selection: criteria.Selection | None = None
        self.policy: Policy | None = None
        self.waivers: dict[str, str] = {}
        self.recorder = None
        self._suites: dict[str, _SuiteResult] = {}
        self._by_id: dict[str, _SuiteResult] = {}
        self._pending: dict[str, tuple[Criterion, Judgement | None, str]] = {}
        self._evidence_count: dict[tuple[str, str], int] = {}
        self.opened_by = ""  # the suite whose setup opened the run (suites/__init__.robot, or a suite run alone)
        self._current: str | None = None  # the criterion id of the test running now
        self._all: dict[str, Criterion] | None = None  # every criterion of the run, read when first needed
        self._top = None  # the running top suite (robot.running.TestSuite): where `Gate Verdict` goes
        self._verdict_test = None  # the `Gate Verdict` test while it is in the top suite
        self._selected: list[str] = []  # the gate suites this robot run selected
        self.signal: str | None = None  # SIGINT/SIGTERM that stopped the run
        self.stopped: list[str] = []  # criteria whose tests Robot stopped (never ran)
        self._previous: dict[tuple[str, str, str], float] | None = None  # the last run's time per command

    # ----------------------------------------------------------------------------------------------- keywords
    @keyword
    def open_run(self, board: str, lab: str = "sim", virtual: bool = False) -> str:
        """Resolve the board and the release it is judged against (RELEASE: the newest by default, one release, or
        `a,b` mixed, newest wins per criterion), open results/<board>/<run>/ and write those criteria there for
        DataDriver.

        Sets the global variables ${BOARD_NAME}, ${RELEASE_NAME}, ${RUN_DIR} and ${CRITERIA_DIR}. An unknown board
        or release fails at once and lists the known ones."""
        try:
            self.board = boards.resolve(board)
            self.selection = criteria.select(self.board, _str_or_none(_var("RELEASE")))
            self.profile = boards.profile(self.board)
            self._check_variables()
            self._check_degrade_faults()
            self.policy = Policy.load(
                tolerance=_str_or_none(_var("TOLERANCE")), tolerances=_str_or_none(_var("TOLERANCES"))
            )
            self.waivers = waivers.load()
        except PerfgateError as e:
            bad_input(e)
        # the simulated board (a child process) draws its numbers around the same release's published values
        os.environ["PERFGATE_RELEASE"] = self.selection.label
        self.virtual = bool(virtual)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        self.run_dir = _unique(paths.board_results(self.board, self.virtual) / stamp)
        self.criteria_dir = self.run_dir / "criteria"
        self.opened_by = str(_var("SUITE NAME", ""))
        self.criteria_dir.mkdir(parents=True)
        self._copy_criteria()
        guides = sorted({c.guide for c in self.selection.criteria})
        meta = {
            "board": self.board,
            "board_requested": board,
            "lab": lab,
            "virtual": self.virtual,
            "guide": ", ".join(guides),
            "release": self.selection.label,
            "release_choice": self.selection.describe(),
            "repeat": self.repeat,
            "aggregate": self.aggregate,
            "inconclusive": self.inconclusive,
            "tolerances": self.policy.source,
            "output": _var("OUTPUT FILE"),
            "log": _var("LOG FILE"),
            "report": _var("REPORT FILE"),
            "faults": _str_or_none(_var("FAULTS")),
            "suites": self._selected,
        }
        from perfgate.report.recorder import RunRecorder

        self.recorder = RunRecorder(self.run_dir, meta)
        self._watch_signals()
        self._sweep_killed_runs()
        bi = BuiltIn()
        bi.set_global_variable("${BOARD_NAME}", self.board)
        bi.set_global_variable("${RELEASE_NAME}", self.selection.label)
        bi.set_global_variable("${RUN_DIR}", str(self.run_dir))
        bi.set_global_variable("${CRITERIA_DIR}", str(self.criteria_dir))
        self.recorder.meta["link_base"] = str(_link_base())
        where = "VIRTUAL BOARD (simulated or emulated, not hardware)" if self.virtual else "hardware"
        for name, value in (
            ("Board", self.board), ("Lab", lab), ("Virtual", f"yes: {where}" if self.virtual else "no: hardware"),
            ("Guide", meta["guide"]), ("Release", meta["release"]),
            ("Comparison", f"[{self._href(self.run_dir / 'comparison.html')}|comparison.html] (measured vs published)"),
            ("Results", str(self.run_dir)),
        ):  # fmt: skip
            bi.set_suite_metadata(name, value, top=True)
        logger.console(f"perfgate: board {self.board} in lab {lab}: {where}; results in {self.run_dir}")
        logger.console(f"perfgate: judged against {self.selection.describe()}: {', '.join(guides) or 'no guide'}")
        self._load_noise_history()
        self._warn_undecidable()
        if self.aggregate == "best":
            from perfgate.report.metrics import BEST_OF, LENIENT_BEST

            logger.warn(f"perfgate: {BEST_OF}: {LENIENT_BEST}")
        return str(self.run_dir)

    def _load_noise_history(self) -> None:
        """The board's recorded hardware runs: a criterion's noise when its guide prints no min/max."""
        from perfgate.report import history

        path = history.path_for(self.board, virtual=False)
        self.noise_history = history.measured_values(path)
        for problem in history.read(path).problems:
            logger.warn(f"perfgate: {problem}")

    def _warn_undecidable(self) -> None:
        """Say at once which criteria REPEAT runs cannot decide even on a board exactly at its published value (the
        guide's own spread is wider than the tolerance): they will be inconclusive, whatever the board does."""
        assert self.policy is not None
        stuck: dict[str, int] = {}
        averaged: dict[str, int] = {}
        for c in self.selection.criteria:
            if c.suite not in averaged:
                averaged[c.suite] = self._averaged_over(c.suite)
            chosen = c.suite in self._selected or not self._selected
            at_value = self._decision(c, [c.value] * self.repeat, True, averaged[c.suite])
            if chosen and at_value.verdict == sequential.INCONCLUSIVE:
                stuck[c.suite] = stuck.get(c.suite, 0) + 1
        if stuck:
            suites = ", ".join(f"{s} {n}" for s, n in sorted(stuck.items(), key=lambda x: -x[1]))
            logger.warn(
                f"perfgate: {sum(stuck.values())} criteria cannot be decided in REPEAT:{self.repeat} runs even at "
                f"their published value, their noise (the guide's own min/max, else history or variables/noise.yaml) "
                f"being wide against their tolerance ({suites}); they will read inconclusive"
                f"{' and fail the gate' if self.inconclusive == 'fail' else ''}: raise REPEAT (boot time: "
                f"BOOT_CYCLES), or widen their tolerance in variables/tolerances.yaml, or -v INCONCLUSIVE:pass"
            )

    @staticmethod
    def _averaged_over(suite: str) -> int:
        """How many runs each value of the suite's workload is the mean of (boot time: BOOT_CYCLES), 1 if none."""
        try:
            name, default = import_module(f"perfgate.workloads.{suite}").WORKLOAD.averaged_over
        except (ImportError, AttributeError):
            return 1
        return runvars.whole(name, _var(name), default) if name else 1

    @keyword
    def gate_is_open(self) -> bool:
        """True once `Open Run` has run (in suites/__init__.robot, or earlier in a suite file run alone)."""
        return self.run_dir is not None

    @keyword
    def gate_was_opened_by_this_suite(self) -> bool:
        """True in the suite whose setup opened the run: its teardown closes it."""
        return self.run_dir is not None and self.opened_by == str(_var("SUITE NAME", ""))

    @keyword
    def note_board_versions(self) -> dict[str, str]:
        """The U-Boot and kernel versions the board printed on its console (serial.log), in the output's metadata
        and run.json. A board that printed none (it never came up) is said to have printed none."""
        assert self.run_dir is not None, "Open Run must come first"
        versions = board_versions(self.run_dir / "serial.log")
        for name, key in (("U-Boot", "uboot_version"), ("Kernel", "kernel_version")):
            BuiltIn().set_suite_metadata(name, versions.get(key) or "not seen on the console", top=True)
        if self.recorder is not None:
            self.recorder.meta.update(versions)
        return versions

    @keyword
    def use_lab(self, lab: dict) -> None:
        """Give the gate the lab's data (the board library loads and validates it). The lab's per-board overrides
        (`boards.<board>`) apply to the gate's board profile as they do to board control."""
        self.lab = dict(lab or {})
        overrides = self.lab.pop("profile_overrides", None) or {}
        if self.board:
            self.profile = merge(boards.profile(self.board), overrides)
        try:
            self._check_tool_faults()
        except PerfgateError as e:
            bad_input(e)

    @keyword
    def measure_suite(self, suite: str) -> None:
        """Run the suite's workload, keep every raw output, and judge each criterion of the board. The workload runs
        once, and again (up to REPEAT runs) only while one of its criteria is still inside the noise band around its
        threshold (perfgate.sequential)."""
        crits = self._suite_criteria(suite)
        result = _SuiteResult(suite, {c.id: c for c in crits}, Measurements())
        self._suites[suite] = result
        for c in crits:
            self._by_id[c.id] = result
        if not crits:
            return
        try:
            workload: Workload = import_module(f"perfgate.workloads.{suite}").WORKLOAD
        except ModuleNotFoundError as e:
            if e.name != f"perfgate.workloads.{suite}":
                raise
            result.measured.missing = dict.fromkeys(result.criteria, f"perfgate has no workload for suite {suite!r}")
            self._judge_all(result)
            return
        try:
            reason = workload.applicable(crits, self.profile, self.lab)
        except PerfgateError as e:  # a broken settings file: this suite fails with the reason, the run goes on
            logger.error(f"perfgate: {suite}: {e}")
            result.measured.missing = dict.fromkeys(result.criteria, f"bad input: {e}")
            self._judge_all(result)
            return
        if reason:
            result.skip_reason = reason
            logger.info(f"{suite}: skipped: {reason}")
            return
        for i in range(self.repeat):
            ctx = _Context(self, suite)
            try:
                m = workload.measure(crits, ctx)
            except (BoardLost, AssertionError) as e:
                m = Measurements(missing=dict.fromkeys(result.criteria, f"run {i + 1}: {e}"))
                logger.error(f"{suite}: run {i + 1} of {self.repeat} ended early: {e}")
            except PerfgateError as e:  # bad input found mid-run (a broken settings file): named on the console;
                # what earlier suites and runs measured stays, and this suite's criteria fail with the reason
                m = Measurements(missing=dict.fromkeys(result.criteria, f"bad input: {e}"))
                logger.error(f"perfgate: {suite}: {e}")
            for cid, v in m.values.items():
                result.samples.setdefault(cid, []).append(float(v))
            for cid in result.criteria:
                files = [f for f in m.evidence.get(cid, []) if f] or ctx.files
                result.evidence.setdefault(cid, []).extend(files)
            result.measured.missing.update(m.missing)
            result.measured.skipped.update(m.skipped)
            result.measured.unavailable.update(m.unavailable)
            result.measured.tools.update(m.tools)
            result.measured.add_lengths(m.lengths)  # a tail-latency criterion: the shortest run counts
            result.measured.add_averaged(m.averaged)  # boot time: each value the mean of BOOT_CYCLES boots
            if i + 1 < self.repeat and not self._undecided(result):
                break
        for cid, values in result.samples.items():
            result.measured.values[cid] = self._aggregate(result.criteria[cid], values)
            result.measured.missing.pop(cid, None)
            result.measured.unavailable.pop(cid, None)
        self._judge_all(result)

    @keyword
    def criterion_should_hold(self, id: str) -> None:
        """Judge one criterion: fail when worse than published beyond tolerance or not measured, warn when better."""
        self._current = id
        result = self._by_id.get(id)
        if result is None:
            raise AssertionError(f"criterion {id}: its suite was not measured (no `Measure Suite` ran for it)")
        c = result.criteria[id]
        if result.skip_reason:
            self._pending[id] = (c, None, result.skip_reason)
            raise SkipExecution(f"{c.name}: {result.skip_reason}")
        if id in result.measured.skipped:
            self._pending[id] = (c, None, result.measured.skipped[id])
            raise SkipExecution(f"{c.name}: {result.measured.skipped[id]}")
        if id in result.measured.unavailable and self.on_missing_tool == "skip":
            self._pending[id] = (c, None, result.measured.unavailable[id])
            raise SkipExecution(f"{c.name}: {result.measured.unavailable[id]} (ON_MISSING_TOOL=skip)")
        waived = waivers.reason(id, self.waivers)
        if waived:
            self._pending[id] = (c, None, f"waived: {waived}")
            raise SkipExecution(f"{c.name}: waived (variables/waivers.yaml): {waived}")
        j = result.judgements[id]
        self._pending[id] = (c, j, "")
        logger.info(f"Judged against SDK {c.release}: {c.guide} ({c.source})")
        files = result.evidence.get(id, [])
        if files:
            logger.info("Raw output: " + ", ".join(self._link(f) for f in dict.fromkeys(files)), html=True)
        samples = result.samples.get(id, [])
        if len(samples) > 1:
            logger.info(f"{len(samples)} runs {samples}, {self.aggregate}: {j.measured}")
        if j.verdict == sequential.INCONCLUSIVE and self.inconclusive == "pass":
            logger.warn(f"{j.message} (INCONCLUSIVE:pass: an inconclusive criterion does not fail the gate)")
        elif j.verdict == WARN:
            logger.warn(j.message)
        elif not j.passed:
            raise AssertionError(j.message)
        else:
            logger.info(j.message)

    @keyword
    def close_run(self) -> str:
        """Finish the run: run.json, comparison.html and the board's history. Returns comparison.html's path.

        A run stopped by a signal (Ctrl-C, SIGTERM) is recorded as `interrupted`, its verdict `incomplete`, with
        the criteria that never ran."""
        if self.recorder is None:
            return ""
        page = self._finish()
        logger.console(f"perfgate: comparison report {page}")
        return str(page)

    @keyword
    def something_should_have_been_measured(self) -> None:
        """The `Gate Verdict` test, added to the run only when no criterion was judged: a run that measured nothing
        fails (Robot's exit status too), with the reasons the criteria were skipped, grouped."""
        from perfgate.report.metrics import nothing_measured, nothing_measured_message

        entries = self.recorder.entries if self.recorder is not None else []
        if not nothing_measured(entries):
            return
        if not entries and self._selected:
            raise AssertionError(f"nothing was measured: the selected suites ({', '.join(self._selected)}) publish "
                                 f"no number for {self.board}")  # fmt: skip
        raise AssertionError(nothing_measured_message(entries))

    def _finish(self) -> Path:
        assert self.recorder is not None
        state = "interrupted" if self.interrupted else "finished"
        never = self._never_ran() if self.interrupted else []
        self._record_never_reached(never)
        page = self.recorder.finish({"signal": self.signal, "never_ran": never}, state=state)
        self._console_verdict()
        return page

    @property
    def interrupted(self) -> bool:
        return bool(self.signal or self.stopped)

    def _never_ran(self) -> list[str]:
        """The criteria of the selected suites that were never judged: Robot stopped their tests, or never
        reached them."""
        assert self.recorder is not None
        judged = {e["id"] for e in self.recorder.entries if not e.get("never_ran")}
        out = [cid for cid in self.stopped if cid not in judged]
        for suite in self._selected:
            out += [c.id for c in self._suite_criteria(suite) if c.id not in judged and c.id not in out]
        return out

    def _console_verdict(self) -> None:
        assert self.recorder is not None
        meta = self.recorder.meta
        logger.console(f"perfgate: verdict {str(meta.get('verdict')).upper()}: {meta.get('verdict_reason')}")
        never = meta.get("never_ran") or []
        if never:
            by_suite: dict[str, int] = {}
            for cid in never:
                c = self._criterion(cid)
                by_suite[c.suite if c else "?"] = by_suite.get(c.suite if c else "?", 0) + 1
            logger.console("perfgate: never ran: " + ", ".join(f"{s} ({n})" for s, n in by_suite.items()))

    def _sweep_killed_runs(self) -> None:
        """Earlier runs of this board and kind whose robot was killed go into the history as INCOMPLETE now."""
        from perfgate.report import history

        assert self.run_dir is not None
        try:
            for run in history.sweep_killed(self.run_dir.parent):
                logger.console(f"perfgate: an earlier run was killed before it finished: {run} (INCOMPLETE)")
        except Exception as e:  # the new run must not suffer from an old one
            logger.warn(f"could not check earlier runs for killed ones: {e}")

    def _watch_signals(self) -> None:
        """Note which signal stops the run (Robot's own handler still does the stopping: this one only chains)."""
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                previous = signal.getsignal(signum)
            except ValueError:
                continue
            if not callable(previous) or getattr(previous, "_perfgate", False):
                continue

            def handler(num, frame, previous=previous):
                self.signal = self.signal or signal.Signals(num).name
                previous(num, frame)

            handler._perfgate = True  # type: ignore[attr-defined]
            try:
                signal.signal(signum, handler)
            except ValueError:  # not the main thread
                return

    # ----------------------------------------------------------------------------------------------- listener
    def start_suite(self, data, result) -> None:
        if data.parent is None:
            self._top = data
            self._selected = _gate_suites(data)

    def end_suite(self, data, result) -> None:
        if data.parent is not None:
            self._sync_verdict_test()
            return
        if self.recorder is None:
            return
        s = result.statistics
        robot = {"tests": s.total, "passed": s.passed, "failed": s.failed, "skipped": s.skipped}
        if not self.recorder.meta.get("finished"):
            return  # Close Run did not run: close() finishes the run
        from perfgate.report import history, html
        from perfgate.report.metrics import run_verdict, update_meta, verdict_reason

        before = (self.recorder.meta.get("verdict"), self.recorder.meta.get("verdict_reason"))
        self.recorder.meta["robot"] = robot
        self.recorder.meta["verdict"] = run_verdict(self.recorder.meta, self.recorder.entries)
        self.recorder.meta["verdict_reason"] = verdict_reason(self.recorder.meta, self.recorder.entries)
        keys = ("robot", "verdict", "verdict_reason")
        update_meta(self.recorder.run_dir, {k: self.recorder.meta[k] for k in keys})
        if before != (self.recorder.meta["verdict"], self.recorder.meta["verdict_reason"]):
            try:
                history.append(self.recorder.run_dir)
                html.build(self.recorder.run_dir)
            except Exception as e:  # the run's files are valid already
                logger.console(f"perfgate: could not update the history or comparison.html ({e})")
            self._console_verdict()

    def _sync_verdict_test(self) -> None:
        """Keep a failing `Gate Verdict` test at the end of the top suite exactly while nothing has been judged (and
        the run was not stopped): Robot runs it after every suite (or, in a one-file run, after the last test)."""
        from perfgate.report.metrics import nothing_measured

        if self._top is None or self.recorder is None or _dry_run():
            return
        needed = nothing_measured(self.recorder.entries) and not self.interrupted
        if needed and self._verdict_test is None:
            t = self._top.tests.create(
                name="Gate Verdict",
                doc="Added by the gate because no criterion was judged: a run that measured nothing fails.",
            )
            t.body.create_keyword(name=f"{GATE_LIBRARY}.Something Should Have Been Measured")
            self._verdict_test = t
        elif not needed and self._verdict_test is not None:
            if self._verdict_test in self._top.tests:
                self._top.tests.remove(self._verdict_test)
            self._verdict_test = None

    def end_test(self, data, result) -> None:
        if data is self._verdict_test:
            return
        if "${" in data.name:  # DataDriver never expanded the suite's template: its criteria could not be read
            result.status = "FAIL"
            result.message = f"no criteria: {_criteria_problem(data.parent)}"
        try:
            self._record_test(data, result)
        finally:
            self._sync_verdict_test()

    def _record_test(self, data, result) -> None:
        # a Robot 7 running.TestCase has no `args`: the id is the one `Criterion Should Hold` was last called with,
        # or, for a test that never reached it (its suite setup failed), the id DataDriver put in its body
        cid = self._current or self._id_in_body(data)
        self._current = None
        if not cid or self.recorder is None:
            return
        pending = self._pending.pop(cid, None)
        if pending is None:  # never judged: record it, so a run whose board died still says what it missed
            c = self._criterion(cid)
            if c is None:
                return
            skipped = result.status == "SKIP"
            pending = (c, None, ("" if skipped else "not measured: ") + (result.message or "the test did not run"))
        stopped = result.status == "FAIL" and any(m in (result.message or "") for m in STOPPED)
        if stopped:
            self.stopped.append(cid)
            why = f"interrupted by {self.signal}" if self.signal else "Robot stopped the run"
            pending = (pending[0], None, f"never ran: {why} ({result.message.splitlines()[-1]})")
        c, j, reason = pending
        if j:
            verdict = j.verdict if result.status != "FAIL" or not j.passed else "fail"
        else:
            verdict = "skip" if result.status == "SKIP" else "not-measured"
        entry = {
            **self._entry(c, j, verdict, j.message if j else reason),
            "test": result.id,
            "test_name": result.full_name,
            "status": result.status,
        }
        if stopped:
            entry["never_ran"] = True
        self.recorder.record(entry)

    def _entry(self, c: Criterion, j: Judgement | None, verdict: str, message: str) -> dict:
        """metrics.json's entry of a criterion: what was published, measured and judged, and from what evidence."""
        suite = self._by_id.get(c.id)
        evidence = dict.fromkeys(suite.evidence.get(c.id, [])) if suite else {}
        return {
            **{k: getattr(c, k) for k in ("id", "name", "board", "suite", "chapter", "table", "row", "metric")},
            **{k: getattr(c, k) for k in ("unit", "min", "max", "direction", "guide", "release", "source")},
            "published": c.value,
            "measured": j.measured if j else None,
            "tolerance": j.tolerance if j else None,
            "absolute": j.absolute if j else None,
            "delta_pct": j.delta_pct if j else None,
            "verdict": verdict,
            "message": message,
            "tool": suite.measured.tools.get(c.id, "") if suite else "",
            "evidence": [os.path.relpath(f, self.run_dir) for f in evidence],
            "samples": suite.samples.get(c.id, []) if suite else [],
            **self._noise_entry(c, suite),
            **_run_length(suite.measured.lengths.get(c.id) if suite else None),
        }

    def _record_never_reached(self, never: list[str]) -> None:
        """metrics.json gets an entry for each criterion of an interrupted run that Robot never reached (its suite
        never started, so it has no test): not measured, never ran, with why."""
        assert self.recorder is not None
        recorded = {e["id"] for e in self.recorder.entries}
        why = f"interrupted by {self.signal}" if self.signal else "Robot stopped the run"
        for cid in never:
            c = self._criterion(cid)
            if c is not None and cid not in recorded:
                entry = self._entry(c, None, "not-measured", f"never ran: {why} (Robot never reached its suite)")
                self.recorder.record({**entry, "never_ran": True})

    def _noise_entry(self, c: Criterion, suite: _SuiteResult | None) -> dict:
        """metrics.json's noise of a measured criterion: the relative sd per value its sequential verdict used."""
        if suite is None or not suite.samples.get(c.id) or self.noise is None:
            return {}
        noise = self._noise(c, suite.measured.averaged.get(c.id, 1))
        return {"noise": {"sd": round(noise.sd, 6), "source": noise.source}}

    def _id_in_body(self, data) -> str | None:
        for item in getattr(data, "body", ()):
            for arg in getattr(item, "args", ()):
                arg = getattr(arg, "value", arg)  # DataDriver (Robot >= 7.0.1) passes robot.running.Argument objects
                if isinstance(arg, str) and self._criterion(arg) is not None:
                    return arg
        return None

    def _criterion(self, cid: str) -> Criterion | None:
        if cid in self._by_id:
            return self._by_id[cid].criteria[cid]
        if self._all is None:
            self._all = {}
            if self.criteria_dir is not None:
                for f in sorted(self.criteria_dir.glob("*.csv")):
                    self._all.update({c.id: c for c in criteria.read(f)})
        return self._all.get(cid)

    def close(self) -> None:
        if self.recorder is None:
            return
        if not self.recorder.meta.get("finished"):
            try:
                self._finish()
            except Exception as e:  # the run's files are already valid; the page can be rebuilt later
                logger.console(f"perfgate: could not build comparison.html ({e}); rebuild with perfgate report")
        squad_option.after_run(self.run_dir, self.lab)  # -v SQUAD / the lab's squad: publish it
        self._collect_robot_files_after_exit()

    def _collect_robot_files_after_exit(self) -> None:
        """Robot writes log.html and report.html after its listeners close, and tells only command-line listeners
        where: a detached `perfgate report --after-pid` copies them into the run directory once robot has ended."""
        if os.environ.get("PERFGATE_NO_COLLECT") or self.run_dir is None:
            return
        cmd = [sys.executable, "-m", "perfgate", "report", str(self.run_dir), "--after-pid", str(os.getpid())]
        with open(self.run_dir / "collect.log", "w", encoding="utf-8") as log:
            subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )

    # ----------------------------------------------------------------------------------------------- helpers
    def _check_degrade_faults(self) -> None:
        """FAULTS `degrade:<id glob>:<percent>` must degrade a criterion this run judges: one that matches none of
        the selected suites' criteria would let the run go green without testing the gate at all. (The simulated
        board checks the rest of the spec, and every glob against all of the board's criteria.)"""
        spec = _str_or_none(_var("FAULTS")) or ""
        selected = [] if _under_pabot() else self._selected  # pabot splits the suites across processes
        judged = [c for c in self.selection.criteria if not selected or c.suite in selected]
        for item in (i.strip() for i in spec.split(",")):
            kind, _, rest = item.partition(":")
            glob = rest.rpartition(":")[0].strip()
            if kind.strip().lower() == "degrade" and glob and not any(fnmatchcase(c.id, glob) for c in judged):
                suites = ", ".join(selected) if selected else "all suites"
                raise runvars.VariableError(f"variable FAULTS: {item} matches none of the {len(judged)} criteria this "
                                            f"run judges ({self.board}, {suites})")  # fmt: skip

    def _check_tool_faults(self) -> None:
        """FAULTS `missing-tool:<tool>` / `ssh-drop:<tool>` must name a tool the selected suites run (their workloads'
        plans), or the fault never fires and the run goes green. Suites that build their commands while measuring
        (network) cannot say beforehand: then the simulated board's check of the tool names is all there is."""
        spec = _str_or_none(_var("FAULTS")) or ""
        items = [i.strip() for i in spec.split(",")]
        named = {i: i.partition(":")[2].strip() for i in items
                 if i.partition(":")[0].strip().lower() in ("missing-tool", "ssh-drop")}  # fmt: skip
        if not named or _under_pabot():  # pabot splits the suites across processes: this one sees only its share
            return
        tools: set[str] = set()
        suites = self._selected or sorted({c.suite for c in self.selection.criteria})
        for suite in suites:
            crits = [c for c in self.selection.criteria if c.suite == suite]
            if not crits:
                continue
            try:
                runs = import_module(f"perfgate.workloads.{suite}").WORKLOAD.plan(crits, self.profile, self.lab)
            except Exception:  # no workload, or one that cannot plan without the board: cannot tell
                return
            if not runs:
                return
            tools |= {r.tool for r in runs}
        for item, tool in named.items():
            if tool not in tools:
                ran = ", ".join(sorted(tools))
                raise runvars.VariableError(
                    f"variable FAULTS: {item} names a tool none of the selected suites ({', '.join(suites)}) runs "
                    f"(they run {ran})"
                )

    def _check_variables(self) -> None:
        """Every run variable the gate reads, checked before anything runs (a bad one names itself)."""
        self.repeat = runvars.whole("REPEAT", _var("REPEAT"), 3)
        self.aggregate = runvars.choice("AGGREGATE", _var("AGGREGATE"), "median", ("best", "median"))
        self.inconclusive = runvars.choice("INCONCLUSIVE", _var("INCONCLUSIVE"), "fail", ("fail", "pass"))
        self.noise = sequential.load()
        self.on_missing_tool = runvars.choice("ON_MISSING_TOOL", _var("ON_MISSING_TOOL"), "fail", ("fail", "skip"))
        runvars.whole("BOOT_CYCLES", _var("BOOT_CYCLES"), runvars.BOOT_CYCLES)
        runvars.positive("DURATION", _var("DURATION"), "a positive number of seconds")
        speed = _var("SIM_SPEED")
        if str(speed).strip().lower() != "auto":  # the simulated board's own default, said as a word
            runvars.positive("SIM_SPEED", speed, "auto or a positive factor (how much faster than real time)")
        runvars.integer("SIM_SEED", _var("SIM_SEED"))

    def board_library(self):
        from perfgate.robot.board import Board  # GLOBAL: the instance suites/__init__.robot opened

        return Board.active or BuiltIn().get_library_instance(BOARD_LIBRARY)

    def expected(self, suite: str, where: str, command: str) -> float | None:
        """How long the same command took in the board's previous run (None: no such run or command)."""
        if self._previous is None:
            self._previous = progress.previous_durations(self.run_dir) if self.run_dir else {}
        return self._previous.get((suite, where, command))

    def run_on_host(self, command: str, timeout: float) -> str:
        p = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=timeout, check=False)
        return p.stdout + p.stderr

    def keep_evidence(self, suite: str, label: str, command: str, text: str, elapsed: float, where: str) -> str:
        assert self.run_dir is not None
        n = self._evidence_count.get((suite, label), 0) + 1
        self._evidence_count[(suite, label)] = n
        d = self.run_dir / "raw" / suite
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"{_safe(label)}-{n}.txt"
        path.write_text(text, encoding="utf-8")
        with (d / "index.tsv").open("a", encoding="utf-8") as f:
            f.write(f"{path.name}\t{where}\t{elapsed:.3f}\t{command}\n")
        logger.info(f"{where}$ {command}  ({elapsed:.2f} s) → {self._link(str(path))}", html=True)
        return str(path)

    def _href(self, path: Path | str) -> str:
        """`path` relative to where the log is written (perfgate.report.robotfiles rewrites it for the copies)."""
        return os.path.relpath(path, _link_base())

    def _link(self, path: str) -> str:
        return f'<a href="{html.escape(self._href(path))}">{html.escape(Path(path).name)}</a>'

    def _copy_criteria(self) -> None:
        """The run's criteria files, one per suite (header only for a suite the release does not publish)."""
        assert self.criteria_dir is not None and self.selection is not None
        chosen = self.selection.by_suite()
        known = set(_all_suites())
        for suite in sorted({*known, *chosen}):
            criteria.write(self.criteria_dir / f"{suite}.csv", chosen.get(suite, []))
        for suite in sorted(set(chosen) - known):  # never silently unjudged: say what no suite file reads
            logger.warn(f"{len(chosen[suite])} criteria of suite {suite!r} are not judged: no suites/*/{suite}.robot")

    def _suite_criteria(self, suite: str) -> list[Criterion]:
        assert self.criteria_dir is not None, "Open Run must come first (suites/__init__.robot)"
        f = self.criteria_dir / f"{suite}.csv"
        return criteria.read(f) if f.exists() else []

    def _aggregate(self, c: Criterion, values: list[float]) -> float:
        if len(values) == 1:
            return values[0]
        if self.aggregate == "median" or c.direction == "match":
            return statistics.median(values)
        return max(values) if c.direction == "higher" else min(values)

    def _noise(self, c: Criterion, averaged: int = 1) -> sequential.Noise:
        """The criterion's noise per value: the guide's, its history's or its class's, over sqrt(runs averaged)."""
        assert self.noise is not None
        return sequential.averaged(self.noise.of(c, self.noise_history.get(c.id)), averaged)

    def _decision(self, c: Criterion, samples: list[float], last: bool, averaged: int = 1) -> sequential.Decision:
        assert self.policy is not None and self.noise is not None
        noise = self._noise(c, averaged)
        return sequential.decide(c, samples, self.policy.for_criterion(c), noise, self.noise.z, last, self.noise.z_fail)

    def _undecided(self, result: _SuiteResult) -> list[str]:
        """The criteria of the suite still inside the noise band around their threshold after the runs so far."""
        if any(result.measured.missing.get(cid) for cid in result.criteria):
            return []  # a run that lost the board or its tool: running it again measures nothing better
        out = []
        for cid, samples in result.samples.items():
            if cid not in result.criteria:
                continue
            d = self._decision(result.criteria[cid], samples, False, result.measured.averaged.get(cid, 1))
            run = result.measured.lengths.get(cid)
            if d.verdict == sequential.MORE and not (run is not None and run.short and d.margin >= 0):
                out.append(cid)  # (a tail-latency run shorter than the guide's cannot pass: another short run on
                # the passing side decides nothing; only a longer one would)
        return out

    def _judge_all(self, result: _SuiteResult) -> None:
        assert self.policy is not None
        for cid, c in result.criteria.items():
            measured = result.measured.values.get(cid)
            reason = result.measured.missing.get(cid) or result.measured.unavailable.get(cid, "")
            if measured is None and not reason:
                reason = "the workload produced no value for it"
            tol = self.policy.for_criterion(c)
            j = judge(c, measured, tol, reason)
            samples = result.samples.get(cid, [])
            if samples and j.verdict in (PASS, FAIL) and self.aggregate == "median" and self.noise is not None:
                d = self._decision(c, samples, True, result.measured.averaged.get(cid, 1))
                if d.verdict == sequential.INCONCLUSIVE:
                    j = replace(j, verdict=sequential.INCONCLUSIVE, message=f"{j.message}; INCONCLUSIVE: {d.reason}")
            # a tail-latency criterion: its run length beside the guide's; shorter and not failing is inconclusive
            result.judgements[cid] = sequential.with_run_length(j, c, tol, result.measured.lengths.get(cid))
        self._log_table(result)

    def _log_table(self, result: _SuiteResult) -> None:
        from perfgate.report.html import suite_table_html  # Jinja2 only once a suite has criteria

        entries = []
        for cid, c in result.criteria.items():
            j = result.judgements[cid]
            entries.append(
                {
                    "id": cid, "name": c.name, "suite": c.suite, "table": c.table, "row": c.row, "metric": c.metric,
                    "unit": c.unit, "measured": j.measured, "published": c.value, "min": c.min, "max": c.max,
                    "direction": c.direction, "tolerance": j.tolerance, "delta_pct": j.delta_pct,
                    "verdict": j.verdict if j.verdict != NOT_MEASURED else NOT_MEASURED, "message": j.message,
                    "tool": result.measured.tools.get(cid, ""), **_run_length(result.measured.lengths.get(cid)),
                }
            )  # fmt: skip
        logger.info(suite_table_html(entries), html=True)


def _run_length(run: sequential.RunLength | None) -> dict:
    """metrics.json's run_length of a tail-latency criterion: how long it ran beside the guide's run."""
    if run is None:
        return {}
    return {"run_length": {"ran": run.ran, "guide": run.guide, "unit": run.unit, "short": run.short,
                           "text": run.describe()}}  # fmt: skip


def _gate_suites(suite) -> list[str]:
    """The gate suites (file stems) under a running suite, as Robot selected them."""
    out: list[str] = []
    if suite.source and Path(str(suite.source)).is_file() and Path(str(suite.source)).stem != "__init__":
        out.append(Path(str(suite.source)).stem)
    for child in suite.suites:
        out += _gate_suites(child)
    return out


def _dry_run() -> bool:
    from robot.running.context import EXECUTION_CONTEXTS

    ctx = EXECUTION_CONTEXTS.current
    return bool(ctx and ctx.dry_run)


def _under_pabot() -> bool:
    return _var("PABOTQUEUEINDEX") is not None


def bad_input(error: PerfgateError) -> None:
    """Bad input found before anything was measured: said on the console (file, key and line as the error names
    them) and in the log, and the run stops at once."""
    logger.error(f"perfgate: {error}")
    BuiltIn().fatal_error(str(error))


def _criteria_problem(suite) -> str:
    """Why DataDriver could not read a suite's criteria (BOARD unset or unknown, RELEASE unknown, a bad file)."""
    from perfgate.robot.criteria_reader import criteria_csv

    try:
        criteria_csv(f"{Path(str(suite.source)).stem}.csv")
    except (PerfgateError, OSError) as e:
        return str(e)
    return "DataDriver could not read them (see the errors above)"


def board_versions(serial_log: Path) -> dict[str, str]:
    """The last U-Boot banner and `Linux version` line the board printed on its console."""
    text = serial_log.read_text(encoding="utf-8", errors="replace") if serial_log.is_file() else ""
    found: dict[str, str] = {}
    for key, pattern in (("uboot_version", UBOOT_BANNER), ("kernel_version", LINUX_VERSION)):
        matches = pattern.findall(text)
        if matches:
            found[key] = " ".join(matches[-1].split())
    return found


def _all_suites() -> list[str]:
    """Every suite that has a robot file, so that a board without a section gets a header-only criteria file."""
    return sorted(p.stem for p in (paths.root() / "suites").rglob("*.robot") if p.stem != "__init__")


def _unique(path: Path) -> Path:
    """Create and return a new run directory: `path`, else `path-2`, `path-3`... Created here, atomically, so that
    gates of one board started in the same second (pabot on a farm) never share one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    candidate, n = path, 1
    while True:
        try:
            candidate.mkdir()
            return candidate
        except FileExistsError:
            n += 1
            candidate = path.with_name(f"{path.name}-{n}")


def _safe(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)[:80] or "output"


def _str_or_none(value: object) -> str | None:
    if value is None or value == "" or str(value).upper() == "NONE":
        return None
    return str(value)
