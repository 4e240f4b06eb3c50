"""The runner: runs a suite's workload and keeps what it printed.

The workload sees a `Context` (perfgate.workloads.base.Context): its commands go to the board library (shell, U-Boot,
console) or this host, each announced on the console with how long it took last time (perfgate.report.progress), its
output kept verbatim in results/<board>/<run>/raw/<suite>/ with an index. `Runner.measure` runs every command of the
suite once, then again only the commands whose criteria the judge (perfgate.decision) still calls undecided, within
their budget (perfgate.decision.budget: REPEAT caps it).
"""

from __future__ import annotations

import html
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from robot.api import logger

from perfgate.decision import validity
from perfgate.decision.judge import Judge, SuiteDecision, SuiteState
from perfgate.decision.verdict import Judgement
from perfgate.errors import BoardLost, PerfgateError, ToolMissing
from perfgate.labkinds.base import Access
from perfgate.model import Criterion
from perfgate.report import progress
from perfgate.run import plan
from perfgate.run.session import Session
from perfgate.workloads import network as net
from perfgate.workloads.base import Measurements, Workload


@dataclass
class SuiteResult:
    """A measured suite: its criteria, what its runs gave, the evidence, the judgement of each criterion."""

    suite: str
    criteria: dict[str, Criterion]
    measured: Measurements
    samples: dict[str, list[float]] = field(default_factory=dict)
    evidence: dict[str, list[str]] = field(default_factory=dict)  # criterion id -> evidence files
    judgements: dict[str, Judgement] = field(default_factory=dict)
    skip_reason: str | None = None
    rounds: int = 0  # rounds of runs: every command once, then the undecided ones' commands again
    # criterion id -> the reason of each INVALID run (set aside: never a sample), and its raw output, in step
    invalid: dict[str, list[str]] = field(default_factory=dict)
    invalid_evidence: dict[str, list[str]] = field(default_factory=dict)
    boots: dict[str, list[int]] = field(default_factory=dict)  # criterion id -> the boot of each sample, in step
    # criterion id -> the board's state around each of its runs, valid or not (validity.State.summary)
    states: dict[str, list[dict]] = field(default_factory=dict)


@dataclass
class Check:
    """The board's state read before and after one command, and why it makes the command's samples INVALID."""

    before: validity.State | None
    after: validity.State | None
    problems: list[str]
    file: str  # the raw reads, beside the command's output

    def entry(self, round_: int, evidence: str) -> dict:
        out: dict = {"run": round_, "evidence": evidence}
        for when, s in (("before", self.before), ("after", self.after)):
            if s is not None:
                out[when] = s.summary()
        return out


REUSE_SECONDS = 5.0  # a clean state read after one command stands as the next one's read before it, this fresh
STATE_WHERE = ("shell", "console")  # where a command runs on the board's Linux: its state is read around it
MAX_ROUNDS = 50  # a guard: the budget (at most 20 runs of any command) ends every suite long before this


class Context:
    """The Context a workload sees (perfgate.workloads.base.Context)."""

    def __init__(self, runner: Runner, suite: str) -> None:
        session = runner.session
        self._runner = runner
        self.suite = suite
        self.board = session.board
        self.profile = session.profile
        self.lab = session.lab
        budget = session.settings.budget
        self.repeat = session.settings.repeat or (budget.max_runs if budget else 1)  # the most runs of a command
        self.virtual = session.virtual
        duration = session.var("DURATION")
        self.duration = None if duration in (None, "", "NONE") else duration  # -v DURATION: network seconds
        self.files: list[str] = []
        self.last_evidence = ""
        self.checks: dict[str, Check] = {}  # evidence file -> the board's state around its command

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell",
            setup: tuple[str, ...] = ()) -> str:  # fmt: skip
        r = self._runner
        logger.console(progress.starting(self.suite, where, command, timeout, r.expected(self.suite, where, command)))
        before = r.read_state(reuse=True) if where in STATE_WHERE else None
        started = time.monotonic()
        try:
            if where == "host":
                text = r.run_on_host(command, timeout)
            else:
                board = r.board()
                if where == "uboot":
                    text = board.uboot(command, timeout=timeout, setup=setup)
                else:
                    text = board.run(command, timeout=timeout, where=where)
        except BaseException as e:
            logger.console(progress.finished(self.suite, time.monotonic() - started, e))
            raise
        elapsed = time.monotonic() - started
        path = r.keep_evidence(self.suite, label or "output", command, text, elapsed, where)
        self.files.append(path)
        self.last_evidence = path
        if before is not None:
            self.checks[path] = r.check(self.suite, command, path, before, r.read_state())
        if not_found(text):
            error = ToolMissing(f"`{command.split()[0]}` is not on the board ({not_found(text)})")
            logger.console(progress.finished(self.suite, elapsed, error))
            raise error
        logger.console(progress.finished(self.suite, elapsed))
        return text

    def tester(self) -> str:
        return self._runner.board().tester_address()

    def console_mark(self) -> int:
        return self._runner.board().console_mark()

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str] | None = None,
                      quiet: float = 0.0, label: str = "") -> int:  # fmt: skip
        board = self._runner.board()
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

    def _keep_console(self, board: Access, since: int, label: str, what: str, elapsed: float) -> None:
        text = board.console_text(since)
        path = self._runner.keep_evidence(self.suite, label or "console", f"(console: {what})", text, elapsed,
                                          "console")  # fmt: skip
        self.files.append(path)
        self.last_evidence = path

    def board_address(self) -> str:
        """The board's address as the tester sees it (learned from the console, or the lab's)."""
        return self._runner.board().board_address()

    def note(self, message: str) -> None:
        logger.info(f"{self.suite}: {message}", also_console=False)


class Runner:
    """Runs the suites of one run. `access()` is the board the lab's kind started (perfgate.labkinds.base.Access,
    None when there is none: commands on this host only) that commands go to: the gate hands it the session's
    (`Session.opened`, the session starts and closes the lab); `link(path)` is the log's HTML link to an evidence
    file."""

    def __init__(self, session: Session, access: Callable[[], Access | None], link: Callable[[str], str]) -> None:
        self.session = session
        self.access = access
        self.link = link
        self.suites: dict[str, SuiteResult] = {}
        self.by_id: dict[str, SuiteResult] = {}  # criterion id -> its measured suite
        self._evidence_count: dict[tuple[str, str], int] = {}
        self._state: tuple[str, dict, dict] | None = None  # (read command, expected state, rules); "" when off
        self.boot_ids: list[str] = []  # the boots seen in this run, in order (the state reads' boot ids)
        self.reboots = 0  # the boards brought up afresh by the runner (SuiteDecision.reboot)
        self.first_state: validity.State | None = None  # the board's state at the run's first read (run.json)
        self._clean: tuple[float, validity.State] | None = None  # the last read after a command, when it was clean
        self._timings: progress.Timings | None = None  # the board's earlier runs' time per command and suite
        self.elapsed: dict[str, float] = {}  # evidence file -> seconds its command took
        # BASELINE_GATES: (criterion, its values, their boots, the suite's boots so far) -> whether its verdict against
        # the board's baseline is undecided and another boot may decide it (perfgate.baseline.record.Against)
        self.baseline_more: Callable[[Criterion, list[float], list[int], int], bool] | None = None

    def board(self) -> Access:
        """The started board; AssertionError when no lab started one."""
        access = self.access()
        if access is None:
            raise AssertionError("no board: no lab has started one (`Start Lab`, suites/__init__.robot)")
        return access

    def measure(self, suite: str, judge: Judge) -> SuiteResult:
        """Run the suite's workload, keep every raw output, and judge each criterion of the board. Every command runs
        once; then only the commands of criteria the judge still calls undecided run again, within their budget."""
        crits = self.session.suite_criteria(suite)
        result = SuiteResult(suite, {c.id: c for c in crits}, Measurements())
        self.suites[suite] = result
        for c in crits:
            self.by_id[c.id] = result
        if not crits:
            return result
        try:
            workload = plan.workload(suite)
        except ModuleNotFoundError as e:
            if not plan.has_no_workload(e, suite):
                raise
            result.measured.missing = dict.fromkeys(result.criteria, f"perfgate has no workload for suite {suite!r}")
            return self._judged(result, judge, more_runs=False)
        try:
            reason = workload.applicable(crits, self.session.profile, self.session.lab)
        except PerfgateError as e:  # a broken settings file: this suite fails with the reason, the run goes on
            logger.error(f"perfgate: {suite}: {e}")
            result.measured.missing = dict.fromkeys(result.criteria, f"bad input: {e}")
            return self._judged(result, judge, more_runs=False)
        if reason:
            result.skip_reason = reason
            logger.info(f"{suite}: skipped: {reason}")
            return result
        s = self.session
        assert s.settings.budget is not None
        cmds = plan.commands(suite, crits, s.profile, s.lab, s.settings.budget)
        judge.begin(result.criteria)
        subset, i = crits, 0
        while True:
            self._run_once(workload, subset, result, i)
            decision = judge.decide(self._state_of(result, True, cmds))
            if decision.final or i >= MAX_ROUNDS:
                break
            if decision.reboot:
                self.reboot(suite)
            again = set(decision.undecided)
            subset, i = [c for c in crits if c.id in again], i + 1
            undecided = sorted(cid for cid in again if judge.final(cid) is None)
            logger.info(f"{suite}: round {i + 1}: the commands of {len(undecided)} undecided criteria run again "
                        f"({', '.join(undecided)})")  # fmt: skip
        if not decision.final:  # a judge that never settles must not hang the run: judged on what it has
            decision = judge.decide(self._state_of(result, False, cmds))
        decision, i = self._baseline_boots(workload, crits, result, judge, cmds, decision, i)
        assert decision.measured is not None
        result.measured = decision.measured
        result.judgements = decision.judgements
        result.rounds = i + 1
        return result

    def _baseline_boots(self, workload: Workload, crits: list[Criterion], result: SuiteResult, judge: Judge,
                        cmds: list, decision: SuiteDecision, i: int) -> tuple[SuiteDecision, int]:  # fmt: skip
        """The sequential rule against the board's baseline (BASELINE_GATES:true): while a criterion's baseline
        verdict is undecided, the board boots again and its commands run again, up to budget.yaml's max_boots boots
        of the suite in all; then the suite is judged again on everything it measured."""
        more, budget = self.baseline_more, self.session.settings.budget
        while more is not None and budget is not None and i < MAX_ROUNDS:
            booted = max((len(set(b)) for cid, b in result.boots.items() if cid in result.criteria), default=0)
            if booted >= budget.max_boots:
                break
            again = [c for c in crits if more(c, result.samples.get(c.id, []), result.boots.get(c.id, []), booted)]
            if not again:
                break
            logger.info(f"{result.suite}: boot {booted + 1}: {len(again)} criteria undecided against the baseline run "
                        f"again ({', '.join(c.id for c in again)})")  # fmt: skip
            self.reboot(result.suite)
            i += 1
            self._run_once(workload, again, result, i)
            decision = judge.decide(self._state_of(result, False, cmds))
        return decision, i

    def _run_once(self, workload: Workload, crits: list[Criterion], result: SuiteResult, i: int) -> None:
        """Round `i` of the suite's workload over `crits` (all of them first; then the criteria whose commands run
        again): its values join the samples, its evidence and what it missed the suite's."""
        ctx = Context(self, result.suite)
        ids = [c.id for c in crits]
        try:
            m = workload.measure(crits, ctx)
        except (BoardLost, AssertionError) as e:
            m = Measurements(missing=dict.fromkeys(ids, f"run {i + 1}: {e}"))
            logger.error(f"{result.suite}: round {i + 1} ended early: {e}")
        except PerfgateError as e:  # bad input found mid-run (a broken settings file): named on the console;
            # what earlier suites and runs measured stays, and this suite's criteria fail with the reason
            m = Measurements(missing=dict.fromkeys(ids, f"bad input: {e}"))
            logger.error(f"perfgate: {result.suite}: {e}")
        self._set_aside(ctx, m, result, i)
        for cid, v in m.values.items():
            if cid in result.criteria:
                result.samples.setdefault(cid, []).append(float(v))
                result.boots.setdefault(cid, []).append(self._boot_of(ctx, m.evidence.get(cid) or ctx.files))
        for cid in ids:
            files = [f for f in m.evidence.get(cid, []) if f] or ctx.files
            result.evidence.setdefault(cid, []).extend(files)
        result.measured.missing.update(m.missing)
        result.measured.skipped.update(m.skipped)
        result.measured.unavailable.update(m.unavailable)
        result.measured.tools.update(m.tools)
        result.measured.add_lengths(m.lengths)  # a tail-latency criterion: the shortest run counts
        result.measured.add_averaged(m.averaged)  # boot time: each value the mean of BOOT_CYCLES boots

    def _set_aside(self, ctx: Context, m: Measurements, result: SuiteResult, i: int) -> None:
        """Round `i`'s values taken while the board's state was wrong (throttled, a low clock, a slow link) or that
        say the tool measured nothing become INVALID runs; every INVALID run joins the suite's with its reason (and
        the log says so); each run's board state joins its criterion's."""
        for cid, v in list(m.values.items()):
            c = result.criteria.get(cid)
            files = m.evidence.get(cid) or ctx.files
            checks = [ctx.checks[f] for f in files if f in ctx.checks]
            reasons = [p for ch in checks for p in ch.problems]
            odd = validity.implausible(c, float(v)) if c is not None else None
            if c is not None and (reasons or odd):
                bad = next((f for f in files if f in ctx.checks and ctx.checks[f].problems), files[-1] if files else "")
                m.set_invalid([cid], "; ".join(dict.fromkeys(reasons + ([odd] if odd else []))), bad)
        for cid in result.criteria:
            files = dict.fromkeys(m.evidence.get(cid, []) + m.invalid_evidence.get(cid, []))
            result.states.setdefault(cid, []).extend(ctx.checks[f].entry(i + 1, f) for f in files if f in ctx.checks)
        for cid, reasons in m.invalid.items():
            if cid not in result.criteria:
                continue
            files = m.invalid_evidence.get(cid, [])
            for n, reason in enumerate(reasons):
                file = files[n] if n < len(files) else ""
                result.invalid.setdefault(cid, []).append(reason)
                result.invalid_evidence.setdefault(cid, []).append(file)
                link = f" → {self.link(file)}" if file else ""
                logger.info(f"INVALID: {result.criteria[cid].name} (round {i + 1}): {html.escape(reason)}{link}",
                            html=True)  # fmt: skip
        if m.invalid:
            why = sorted({r for cid, rs in m.invalid.items() if cid in result.criteria for r in rs})
            logger.console(f"perfgate: {result.suite}: round {i + 1}: INVALID runs of {len(m.invalid)} criteria, set "
                           f"aside: {'; '.join(why)[:300]}")  # fmt: skip

    def _boot_of(self, ctx: Context, files: list[str]) -> int:
        """The boot (0: the first this run saw) a sample was taken in: its state read's boot id, else the boards
        the runner brought up afresh so far."""
        for f in files:
            ch = ctx.checks.get(f)
            boot = ch.after.boot_id if ch is not None and ch.after is not None else ""
            if boot in self.boot_ids:
                return self.boot_ids.index(boot)
        return self.reboots

    def _state_of(self, result: SuiteResult, more_runs: bool, cmds: list | None = None) -> SuiteState:
        return SuiteState(result.criteria, result.samples, result.measured, more_runs, cmds or [],
                          invalid=result.invalid, boots=result.boots)  # fmt: skip

    def reboot(self, suite: str) -> None:
        """Bring the board up afresh before the next round (the judge asked for repetition across boots): the board
        library's reboot (a power-cycle where the lab has a switch), then the shell and SSH again."""
        board = self.access()
        if board is None:  # no board (commands on this host only): nothing to boot
            return
        logger.console(f"perfgate: {suite}: the board is brought up afresh before the next round")
        try:
            board.reboot()
        except AssertionError as e:  # the next round finds the board lost, and says so
            logger.error(f"{suite}: the reboot before the next round failed: {e}")
        self.reboots += 1
        self._clean = None

    def read_state(self, reuse: bool = False) -> validity.State | None:
        """The board's state (one short command), or None when it cannot be read (no board library, a LAVA lab whose
        commands are planned ahead, bad settings, a board that does not answer). `reuse`: the read after the last
        command stands for this one when it was clean and is at most REUSE_SECONDS old (half the reads)."""
        clean, self._clean = self._clean, None  # used once: a command that fails leaves no read after it
        if reuse and clean is not None and time.monotonic() - clean[0] <= REUSE_SECONDS:
            return clean[1]
        board = self.access()
        if self._state is None:
            self._state = self._state_settings(board)
        if not self._state[0] or board is None:
            return None
        try:
            text = board.run(self._state[0], timeout=float(self._state[2].get("timeout", 15)))
        except (AssertionError, PerfgateError) as e:
            logger.info(f"the board's state could not be read: {e}")
            return None
        state = validity.parse(text)
        state.raw = text
        self.first_state = self.first_state or state
        if state.boot_id and state.boot_id not in self.boot_ids:
            self.boot_ids.append(state.boot_id)
        return state

    def _state_settings(self, board: Access | None) -> tuple[str, dict, dict]:
        if board is None or not board.reads_state:
            return "", {}, {}
        s = self.session
        try:
            conf = validity.settings()
            interface = str(net.settings("ethernet", s.profile, s.lab).get("interface") or "eth0")
            expect = dict(s.profile.get("board_state") or {})
            # the clock the guide printed beside its numbers (Dhrystone's cpu_clock row) is the one TI measured at:
            # a board at that clock is not slow, whatever its description's top clock
            printed = [c.value for c in (s.selection.criteria if s.selection else []) if "cpu_clock" in c.row]
            if printed and printed[0] > 0:
                expect["cpu_mhz"] = min(float(expect.get("cpu_mhz") or printed[0]), printed[0])
            return validity.read_command(interface, conf), expect, conf
        except PerfgateError as e:
            logger.error(f"perfgate: the board's state is not read around its commands: {e}")
            return "", {}, {}

    def check(self, suite: str, command: str, evidence: str, before: validity.State,
              after: validity.State | None) -> Check:  # fmt: skip
        """The board's state around one command, kept beside its output, and why it invalidates its samples."""
        assert self._state is not None
        rules = dict(self._state[2].get("rules") or {})
        problems = validity.problems(before, after, self._state[1], rules, suite)
        self._clean = (time.monotonic(), after) if after is not None and not problems else None
        path = str(Path(evidence).with_suffix(".state.txt"))
        text = f"# the board's state before `{command}`\n{before.raw}\n# after it\n{after.raw if after else ''}\n"
        Path(path).write_text(text, encoding="utf-8")
        if problems:
            logger.info(f"board state around `{command}`: {before.describe()}; after: "
                        f"{after.describe() if after else 'not read'}: INVALID: {'; '.join(problems)}")  # fmt: skip
        return Check(before, after, problems, path)

    def _judged(self, result: SuiteResult, judge: Judge, more_runs: bool) -> SuiteResult:
        decision = judge.decide(self._state_of(result, more_runs))
        assert decision.measured is not None
        result.measured = decision.measured
        result.judgements = decision.judgements
        return result

    @property
    def timings(self) -> progress.Timings:
        """The durations the board's earlier runs recorded (read once per run)."""
        if self._timings is None:
            run_dir = self.session.run_dir
            self._timings = progress.timings(run_dir) if run_dir else progress.Timings()
        return self._timings

    def expected(self, suite: str, where: str, command: str) -> tuple[float, int] | None:
        """How long the same command took in the board's earlier runs: (median seconds, how many runs); None when
        no earlier run ran it."""
        return self.timings.command(suite, where, command)

    def announce(self, suite: str) -> None:
        """`suite N of M` and the time the rest of the run should take, on the console."""
        s = self.session
        order = [x for x in dict.fromkeys(s.selected) if s.suite_criteria(x)]
        logger.console(progress.suite_line(suite, order, len(s.suite_criteria(suite)), self.timings))

    def took(self, cid: str) -> tuple[float, int, float]:
        """(seconds the commands a criterion was measured from took, how many command runs, the whole suite's
        seconds) in this run."""
        result = self.by_id.get(cid)
        if result is None:
            return 0.0, 0, 0.0
        mine = dict.fromkeys(result.evidence.get(cid, []))
        suite = {f for files in result.evidence.values() for f in files}
        return (sum(self.elapsed.get(f, 0.0) for f in mine), len(mine),
                sum(self.elapsed.get(f, 0.0) for f in suite))  # fmt: skip

    @staticmethod
    def run_on_host(command: str, timeout: float) -> str:
        p = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=timeout, check=False)
        return p.stdout + p.stderr

    def keep_evidence(self, suite: str, label: str, command: str, text: str, elapsed: float, where: str) -> str:
        """The output of one command, verbatim, in raw/<suite>/<label>-<n>.txt, indexed in raw/<suite>/index.tsv."""
        assert self.session.run_dir is not None
        n = self._evidence_count.get((suite, label), 0) + 1
        self._evidence_count[(suite, label)] = n
        d = self.session.run_dir / "raw" / suite
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"{safe(label)}-{n}.txt"
        path.write_text(text, encoding="utf-8")
        with (d / "index.tsv").open("a", encoding="utf-8") as f:
            f.write(f"{path.name}\t{where}\t{elapsed:.3f}\t{command}\n")
        self.elapsed[str(path)] = elapsed
        logger.info(f"{where}$ {command}  ({elapsed:.2f} s) → {self.link(str(path))}", html=True)
        return str(path)


def not_found(text: str) -> str:
    """The shell's `not found` line at the end of a command's output, '' when there is none."""
    for line in text.splitlines()[-5:]:
        if line.rstrip().endswith(": not found") or line.rstrip().endswith("command not found"):
            return line.strip()
    return ""


def safe(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)[:80] or "output"
