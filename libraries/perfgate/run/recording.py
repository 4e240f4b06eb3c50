"""What the run records of each criterion: its metrics.json entry (published, measured, judged, from what evidence,
with what noise), the criteria an interrupted run never reached, run.json's verdict once Robot's own count is known,
the verdict on the console and the suite's table in the log. It stands on perfgate.report.metrics (the model) and
perfgate.report.recorder (the files)."""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass

from robot.api import SkipExecution, logger

from perfgate import custom
from perfgate.baseline.record import Against
from perfgate.decision import sequential, validity, waivers
from perfgate.decision.judge import Judge
from perfgate.decision.verdict import JUDGED, Judgement, Verdict
from perfgate.model import Criterion
from perfgate.report.recorder import RunRecorder
from perfgate.run.runner import Runner, SuiteResult
from perfgate.run.session import Session
from perfgate.run.settings import Settings

STOPPED = ("Test execution stopped due to a fatal error", "Execution terminated by signal")


@dataclass
class Outcome:
    """A criterion as `Criterion Should Hold` left it: judged (`judgement`), or skipped with why (`reason`); `skip`
    is what the skipped test says."""

    criterion: Criterion
    judgement: Judgement | None = None
    reason: str = ""
    skip: str = ""


def outcome(result: SuiteResult, cid: str, on_missing_tool: str, waived: dict[str, str]) -> Outcome:
    """A measured criterion's outcome: skipped (its suite or the criterion cannot run here, its tool is missing and
    ON_MISSING_TOOL=skip, or it is waived) or judged."""
    c = result.criteria[cid]
    if result.skip_reason:
        return Outcome(c, reason=result.skip_reason, skip=f"{c.name}: {result.skip_reason}")
    if cid in result.measured.skipped:
        return Outcome(c, reason=result.measured.skipped[cid], skip=f"{c.name}: {result.measured.skipped[cid]}")
    if cid in result.measured.unavailable and on_missing_tool == "skip":
        why = result.measured.unavailable[cid]
        return Outcome(c, reason=why, skip=f"{c.name}: {why} (ON_MISSING_TOOL=skip)")
    why = waivers.reason(cid, waived)
    if why:
        return Outcome(c, reason=f"waived: {why}", skip=f"{c.name}: waived (variables/waivers.yaml): {why}")
    return Outcome(c, result.judgements[cid])


def say_judged(result: SuiteResult, o: Outcome, settings: Settings, link: Callable[[str], str]) -> None:
    """A judged criterion in the log: against what, from what evidence and runs, and its verdict (a warning when
    better than published, or inconclusive under INCONCLUSIVE:pass); AssertionError when it fails; SkipExecution when
    it is inconclusive (SKIP in Robot's reports, apart from a FAIL: the `Gate Verdict` test fails the run for it)."""
    c, j = o.criterion, o.judgement
    assert j is not None
    against = "the board's own criterion" if c.release == custom.RELEASE else f"SDK {c.release}"
    logger.info(f"Judged against {against}: {c.guide} ({c.source})")
    files = result.evidence.get(c.id, [])
    if files:
        logger.info("Raw output: " + ", ".join(link(f) for f in dict.fromkeys(files)), html=True)
    samples = result.samples.get(c.id, [])
    if len(samples) > 1:
        logger.info(f"{len(samples)} runs {samples}, {settings.aggregate}: {j.measured}")
    for s in result.states.get(c.id, []):
        around = " → ".join(validity.describe(s[k]) for k in ("before", "after") if k in s)
        logger.info(f"Board state around run {s['run']} ({link(s['evidence'])}): {html.escape(around)}", html=True)
    files = result.invalid_evidence.get(c.id, [])
    for n, reason in enumerate(result.invalid.get(c.id, [])):
        raw = f" ({link(files[n])})" if n < len(files) and files[n] else ""
        logger.info(f"INVALID run, set aside: {html.escape(reason)}{raw}", html=True)
    if j.verdict == Verdict.INCONCLUSIVE and settings.inconclusive == "pass":
        logger.warn(f"{j.message} (INCONCLUSIVE:pass: an inconclusive criterion does not fail the gate)")
    elif j.verdict == Verdict.INCONCLUSIVE:
        raise SkipExecution(f"INCONCLUSIVE (fails the gate: see the Gate Verdict test): {j.message}")
    elif j.verdict == Verdict.WARN:
        logger.warn(j.message)
    elif not j.passed:
        raise AssertionError(j.message)
    else:
        logger.info(j.message)


def verdict_problems(recording: Recording | None, session: Session, undecided: bool) -> str | None:
    """Why the `Gate Verdict` test fails the run, None while it need not: nothing was measured (the reasons the
    criteria were skipped, grouped), or (`undecided`) criteria are inconclusive under INCONCLUSIVE:fail."""
    from perfgate.report.metrics import nothing_measured, nothing_measured_message

    entries = recording.entries if recording is not None else []
    if nothing_measured(entries):
        if not entries and session.selected:
            return (f"nothing was measured: the selected suites ({', '.join(session.selected)}) publish no number "
                    f"for {session.board}")  # fmt: skip
        return nothing_measured_message(entries)
    names = [e["name"] for e in entries if e.get("verdict") == Verdict.INCONCLUSIVE]
    if not undecided or not names or session.settings.inconclusive != "fail":
        return None
    listed = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{len(names)} criteria inconclusive (SKIP, with why): {listed}; the gate fails (-v INCONCLUSIVE:pass "
        f"lets them pass, as the log and run.json then say)"
    )


def tightness(entries: list[dict]) -> list[str]:
    """What the run could and could not check tightly: the criteria held to their own tolerance, those held to the
    wider one their runs could decide (LIMITED), with the smallest regression each can detect, and those left
    inconclusive (held to their own tolerance or LIMITED)."""
    judged = [e for e in entries if e.get("verdict") in JUDGED - {Verdict.NOT_MEASURED}]
    if not judged:
        return []
    limited = [e for e in judged if e.get("limited")]
    undecided = [e for e in judged if e.get("verdict") == Verdict.INCONCLUSIVE]
    tight = sum(1 for e in judged if not e.get("limited") and e.get("verdict") != Verdict.INCONCLUSIVE)
    out = [f"perfgate: checked at their tolerance: {tight} of {len(judged)} criteria judged"]
    if limited:
        by_suite: dict[str, int] = {}
        for e in limited:
            by_suite[e.get("suite", "?")] = by_suite.get(e.get("suite", "?"), 0) + 1
        worst = sorted(limited, key=lambda e: -(e["limited"].get("detectable_pct") or 0))[:3]
        detect = ", ".join(f"{e.get('name')} {e['limited'].get('detectable_pct'):g}%" for e in worst)
        suites = ", ".join(f"{s} {n}" for s, n in by_suite.items())
        out.append(f"perfgate: LIMITED (noise too wide for their tolerance in the runs and boots allowed; held to "
                   f"the tolerance their runs can decide): {len(limited)} ({suites}); the smallest regressions they "
                   f"can detect are as large as: {detect}")  # fmt: skip
    if undecided:
        out.append(
            f"perfgate: inconclusive (too close to their threshold to tell): {len(undecided)}: "
            + ", ".join(str(e.get("name")) for e in undecided[:5])
            + (" ..." if len(undecided) > 5 else "")
        )
    return out


class Recording:
    """The run's record: a RunRecorder (run.json, metrics.json, summary.csv, history, comparison.html) fed from the
    session, the runner's measured suites and the judge."""

    def __init__(self, session: Session, runner: Runner, recorder: RunRecorder) -> None:
        self.session = session
        self.runner = runner
        self.recorder = recorder
        self.judge: Judge | None = None  # set once the run's noise is known
        self.against: Against | None = None  # the run's baseline run (perfgate.baseline), once Open Run chose it

    @property
    def meta(self) -> dict:
        return self.recorder.meta

    @property
    def entries(self) -> list[dict]:
        return self.recorder.entries

    def criterion(self, cid: str) -> Criterion | None:
        if cid in self.runner.by_id:
            return self.runner.by_id[cid].criteria[cid]
        return self.session.criterion(cid)

    def open_baseline(self, spec: object) -> None:
        """Choose the run's baseline (`-v BASELINE`: last-accepted, a run, none), say it on the console and in
        run.json. PerfgateError for a named run that cannot be one."""
        s = self.session
        assert s.selection is not None and s.run_dir is not None
        judged = [c for c in s.selection.criteria if not s.selected or c.suite in s.selected]
        text = None if spec is None else str(spec)
        looks = s.settings.budget.max_boots if s.settings.baseline_gates and s.settings.budget else 1
        self.against = Against.open(text, s.board, s.virtual, str(self.meta.get("lab") or ""), s.selection.label,
                                    s.run_dir.name, judged, s.settings.baseline_gates, looks)  # fmt: skip
        self.meta["baseline"] = self.against.meta()
        logger.console(self.against.console())

    def baseline_more(self) -> Callable[[Criterion, list[float], list[int], int], bool] | None:
        """What the runner asks after a suite's judgement while its baseline gates (BASELINE_GATES:true): whether a
        criterion's baseline verdict is undecided and another boot may decide it (the sequential rule, within
        budget.yaml's max_boots). None when the run has no baseline or it only reports (no boot is spent on it)."""
        a = self.against
        if a is None or a.baseline is None or not a.gates or a.looks <= 1:
            return None
        return a.wants_boot

    def say_against_baseline(self, o: Outcome) -> str | None:
        """Log a judged criterion against its baseline run; why its test fails on it (BASELINE_GATES:true and
        worse), else None."""
        if self.against is None or o.judgement is None or self.against.baseline is None:
            return None
        suite = self.runner.by_id.get(o.criterion.id)
        values = suite.samples.get(o.criterion.id, []) if suite else []
        boots = suite.boots.get(o.criterion.id) if suite else None
        ch = self.against.change(o.criterion, values, boots)
        if ch is not None:
            text = f"Against the baseline run {self.against.baseline.label}: {ch.describe()}"
            logger.warn(text) if ch.verdict == "worse" else logger.info(text)
        return self.against.fails(o.criterion, values, boots)

    def test_ended(self, cid: str, pending: Outcome | None, status: str, message: str, test_id: str,
                   test_name: str) -> None:  # fmt: skip
        """Record the criterion of a test that ended (`pending`: what `Criterion Should Hold` left, None when the
        test never reached it); a test Robot stopped is recorded as never ran."""
        if pending is None:  # never judged: record it, so a run whose board died still says what it missed
            c = self.criterion(cid)
            if c is None:
                return
            skipped = status == "SKIP"
            pending = Outcome(c, reason=("" if skipped else "not measured: ") + (message or "the test did not run"))
        stopped = status == "FAIL" and any(m in (message or "") for m in STOPPED)
        if stopped:
            self.session.stopped.append(cid)
            why = f"interrupted by {self.session.signal}" if self.session.signal else "Robot stopped the run"
            pending = Outcome(pending.criterion, reason=f"never ran: {why} ({message.splitlines()[-1]})")
        c, j = pending.criterion, pending.judgement
        if j:
            verdict = j.verdict if status != "FAIL" or not j.passed else Verdict.FAIL
        else:
            verdict = Verdict.SKIP if status == "SKIP" else Verdict.NOT_MEASURED
        said = j.message if j else pending.reason
        if j and j.passed and status == "FAIL" and message:  # failed on its baseline run (BASELINE_GATES:true)
            said = message
        entry = {**self.entry(c, j, verdict, said), "test": test_id,
                 "test_name": test_name, "status": status}  # fmt: skip
        if stopped:
            entry["never_ran"] = True
        self.recorder.record(entry)

    def entry(self, c: Criterion, j: Judgement | None, verdict: Verdict, message: str) -> dict:
        """metrics.json's entry of a criterion: what was published, measured and judged, and from what evidence."""
        suite = self.runner.by_id.get(c.id)
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
            "evidence": [os.path.relpath(f, self.session.run_dir) for f in evidence],
            "samples": suite.samples.get(c.id, []) if suite else [],
            **self._invalid_entry(c, suite),
            **self._noise_entry(c, suite),
            **run_length(suite.measured.lengths.get(c.id) if suite else None),
            **self._baseline_entry(c, suite, j),
        }

    def _invalid_entry(self, c: Criterion, suite: SuiteResult | None) -> dict:
        """metrics.json's INVALID runs of a criterion (each with its reason and raw output), the boot of each sample
        and the board's state around each run."""
        if suite is None:
            return {"invalid": []}
        files = suite.invalid_evidence.get(c.id, [])
        invalid = [{"reason": r, "evidence": os.path.relpath(files[n], self.session.run_dir) if n < len(files) and
                    files[n] else None} for n, r in enumerate(suite.invalid.get(c.id, []))]  # fmt: skip
        out: dict = {"invalid": invalid}
        if suite.boots.get(c.id):
            out["boots"] = suite.boots[c.id]
        if suite.states.get(c.id):
            out["board_state"] = [{**s, "evidence": os.path.relpath(s["evidence"], self.session.run_dir)}
                                  for s in suite.states[c.id]]  # fmt: skip
        return out

    def _baseline_entry(self, c: Criterion, suite: SuiteResult | None, j: Judgement | None) -> dict:
        """metrics.json's `baseline` of a measured criterion (its verdict against the baseline run)."""
        if self.against is None or suite is None or j is None or not suite.samples.get(c.id):
            return {}
        return self.against.entry(c, suite.samples[c.id], suite.boots.get(c.id))

    def _noise_entry(self, c: Criterion, suite: SuiteResult | None) -> dict:
        """metrics.json's noise of a measured criterion (the relative sd per value its sequential verdict used, its
        degrees of freedom and source, a guide spread left out as an artefact) and, for a criterion its budget could
        not decide at its tolerance, how it was judged instead (`limited`)."""
        if suite is None or not suite.samples.get(c.id) or self.judge is None:
            return {}
        return self.judge.noise_entry(c.id)

    def finish(self, setup_failure: str = "", selected: list[str] | None = None):
        """Complete run.json (interrupted, with the criteria never run, or finished), metrics.json, the history and
        comparison.html; say the verdict. Returns comparison.html's path. `selected`: the criteria of the tests Robot
        selected; each with no entry yet is recorded as not measured, with `setup_failure` (why the gate's setup
        failed: a dead board)."""
        state = "interrupted" if self.session.interrupted else "finished"
        never = self.never_ran() if self.session.interrupted else []
        self._record_never_reached(never)
        if not self.session.interrupted:
            self._record_unmeasured(setup_failure, selected or [])
        if self.against is not None and self.against.baseline is not None:
            crits = [c for r in self.runner.suites.values() for c in r.criteria.values()]
            samples = {cid: v for r in self.runner.suites.values() for cid, v in r.samples.items()}
            boots = {cid: v for r in self.runner.suites.values() for cid, v in r.boots.items()}
            self.meta["baseline"] = {**self.against.meta(), "suites": self.against.suites(crits, samples, boots)}
        first = self.runner.first_state
        board_state = {"board_state": first.entry()} if first is not None else {}
        page = self.recorder.finish({"signal": self.session.signal, "never_ran": never, **board_state}, state=state)
        self.console_verdict()
        return page

    def never_ran(self) -> list[str]:
        """The criteria of the selected suites that were never judged: Robot stopped their tests, or never
        reached them."""
        judged = {e["id"] for e in self.recorder.entries if not e.get("never_ran")}
        out = [cid for cid in self.session.stopped if cid not in judged]
        for suite in self.session.selected:
            out += [c.id for c in self.session.suite_criteria(suite) if c.id not in judged and c.id not in out]
        return out

    def _record_never_reached(self, never: list[str]) -> None:
        """metrics.json gets an entry for each criterion of an interrupted run that Robot never reached (its suite
        never started, so it has no test): not measured, never ran, with why."""
        recorded = {e["id"] for e in self.recorder.entries}
        why = f"interrupted by {self.session.signal}" if self.session.signal else "Robot stopped the run"
        for cid in never:
            c = self.criterion(cid)
            if c is not None and cid not in recorded:
                entry = self.entry(c, None, Verdict.NOT_MEASURED, f"never ran: {why} (Robot never reached its suite)")
                self.recorder.record({**entry, "never_ran": True})

    def _record_unmeasured(self, setup_failure: str, selected: list[str]) -> None:
        """metrics.json gets an entry for each criterion whose test ran but reached no listener of the gate (Robot
        imports no library in a suite whose parent's setup failed: a board that never came up): not measured, with
        the setup's failure."""
        recorded = {e["id"] for e in self.recorder.entries}
        why = setup_failure or "its test never reached the gate"
        for cid in selected:
            c = self.criterion(cid)
            if c is not None and cid not in recorded:
                self.recorder.record(self.entry(c, None, Verdict.NOT_MEASURED, f"not measured: {why}"))
                recorded.add(cid)

    def console_verdict(self) -> None:
        meta = self.recorder.meta
        logger.console(f"perfgate: verdict {str(meta.get('verdict')).upper()}: {meta.get('verdict_reason')}")
        never = meta.get("never_ran") or []
        if never:
            by_suite: dict[str, int] = {}
            for cid in never:
                c = self.criterion(cid)
                by_suite[c.suite if c else "?"] = by_suite.get(c.suite if c else "?", 0) + 1
            logger.console("perfgate: never ran: " + ", ".join(f"{s} ({n})" for s, n in by_suite.items()))
        for line in tightness(self.recorder.entries):
            logger.console(line)
        if self.against is not None and self.against.baseline is not None:
            logger.console(self.against.summary(self.recorder.entries, meta.get("baseline", {}).get("suites") or {}))

    def robot_counted(self, robot: dict) -> None:
        """Robot's own count of the tests (the top suite ended, after Close Run): run.json's verdict takes it in;
        when that changes the verdict, the history and comparison.html follow."""
        if not self.recorder.meta.get("finished"):
            return  # Close Run did not run: close() finishes the run
        from perfgate.report import history, html
        from perfgate.report.metrics import run_verdict, update_meta, verdict_reason

        meta = self.recorder.meta
        before = (meta.get("verdict"), meta.get("verdict_reason"))
        meta["robot"] = robot
        meta["verdict"] = run_verdict(meta, self.recorder.entries)
        meta["verdict_reason"] = verdict_reason(meta, self.recorder.entries)
        update_meta(self.recorder.run_dir, {k: meta[k] for k in ("robot", "verdict", "verdict_reason")})
        if before != (meta["verdict"], meta["verdict_reason"]):
            try:
                history.append(self.recorder.run_dir)
                html.build(self.recorder.run_dir)
            except Exception as e:  # the run's files are valid already
                logger.console(f"perfgate: could not update the history or comparison.html ({e})")
            self.console_verdict()

    def log_table(self, result: SuiteResult) -> None:
        """The suite's judged criteria as a table in the log."""
        from perfgate.report.html import suite_table_html  # Jinja2 only once a suite has criteria

        entries = []
        for cid, c in result.criteria.items():
            j = result.judgements[cid]
            entries.append(
                {
                    "id": cid, "name": c.name, "suite": c.suite, "table": c.table, "row": c.row, "metric": c.metric,
                    "unit": c.unit, "measured": j.measured, "published": c.value, "min": c.min, "max": c.max,
                    "direction": c.direction, "tolerance": j.tolerance, "delta_pct": j.delta_pct,
                    "verdict": j.verdict, "message": j.message,
                    "tool": result.measured.tools.get(cid, ""), **run_length(result.measured.lengths.get(cid)),
                    **self._baseline_entry(c, result, j),
                }
            )  # fmt: skip
        logger.info(suite_table_html(entries), html=True)


def run_length(run: sequential.RunLength | None) -> dict:
    """metrics.json's run_length of a tail-latency criterion: how long it ran beside the guide's run."""
    if run is None:
        return {}
    return {"run_length": {"ran": run.ran, "guide": run.guide, "unit": run.unit, "short": run.short,
                           "text": run.describe()}}  # fmt: skip
