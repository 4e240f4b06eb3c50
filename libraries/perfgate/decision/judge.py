"""The judge: the decision over one suite's runs, for all its criteria at once.

The runner (perfgate.run.runner) runs a suite's commands, collects each criterion's value per run and asks the judge
after every round, with the whole suite's state (`SuiteState`): its criteria, the samples per criterion so far, what
the runs measured or missed (Measurements), its commands (which criteria each one measures, how long it takes) and
whether another round may follow. The judge answers (`SuiteDecision`) with the criteria whose commands run again, or,
when none is left, the final Judgement of each criterion and the Measurements those were read from.

The rule (decision.sequential, decision.pooling, decision.suite_decision): each criterion's noise is the board's own in
this run, pooled across its suite's rows with the guide's spread as a prior, a Student t with honest degrees of
freedom; a FAIL is held to the whole gate's error rate and to the guide's own spread; a decision once reached is final;
only the commands of criteria still undecided run again, within their most runs and the suite's rerun budget; a
criterion the budget cannot hold to its tolerance is held to the wider one its runs can decide (`limited`); a
tail-latency run shorter than the guide's cannot pass. AGGREGATE:best has no noise model: every command runs REPEAT
times (or the budget's fewest runs) and the best of each criterion's values is judged as it is.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace

from perfgate.decision import sequential, validity
from perfgate.decision.budget import Budget
from perfgate.decision.pooling import Prior
from perfgate.decision.suite_decision import Command, Final, SuiteSequence
from perfgate.decision.tolerance import Policy, Tolerance
from perfgate.decision.verdict import FAIL, PASS, WARN, Judgement, judge
from perfgate.model import Criterion
from perfgate.workloads.base import Measurements


@dataclass
class SuiteState:
    """A suite after the runs so far."""

    criteria: dict[str, Criterion]  # criterion id -> criterion: every criterion the suite judges
    samples: dict[str, list[float]]  # criterion id -> its value of each run so far
    measured: Measurements  # what the runs missed, skipped, which tool, run lengths, values averaged over
    more_runs: bool  # whether another round may follow at all (False: the board was lost, the suite cannot run)
    commands: list[Command] = field(default_factory=list)  # the suite's commands (none: one command for all)
    invalid: dict[str, list[str]] = field(default_factory=dict)  # criterion id -> why each run set aside was invalid
    boots: dict[str, list[int]] = field(default_factory=dict)  # criterion id -> the boot of each of its samples


@dataclass
class SuiteDecision:
    """The judge's answer: run the commands of `undecided` again, else the final `judgements`."""

    undecided: list[str] = field(default_factory=list)  # criteria whose commands run again
    judgements: dict[str, Judgement] = field(default_factory=dict)  # final, once nothing is undecided
    measured: Measurements | None = None  # the Measurements judged: each criterion's samples aggregated
    reboot: bool = False  # the undecided commands run after a fresh boot (their noise lies between boots)

    @property
    def final(self) -> bool:
        return not self.undecided


@dataclass
class Judge:
    """Judges the suites of one run: its tolerances, its noise model, its run budget and the board's history."""

    policy: Policy
    noise: sequential.NoiseModel | None
    # criterion id -> the board's recorded runs of it (each a boot's samples; perfgate.report.history.measured_values)
    history: dict[str, list[list[float]]] = field(default_factory=dict)
    aggregate: str = "median"  # AGGREGATE: median, or best (lenient)
    budget: Budget = field(default_factory=Budget)
    judged: int = 1  # the criteria the whole run judges: a FAIL is held to the gate's error rate over them
    artefacts: dict[str, str] = field(default_factory=dict)  # criterion id -> why its min/max is not a spread
    invalid: dict[str, list[str]] = field(default_factory=dict)  # criterion id -> its runs set aside, with why
    own: frozenset[str] | None = None  # the criteria allocate() keeps at their own tolerance (None: not allocated)
    allocated: dict = field(default_factory=dict)  # what allocate() kept, of how many, and the beta it spent
    calibrate: int = 0  # CALIBRATE: every command runs this many times in the boot before the judgement (A/A)
    _sequences: dict[tuple[str, ...], SuiteSequence] = field(default_factory=dict)  # by the suite's criteria
    _finals: dict[str, Final] = field(default_factory=dict)  # criterion id -> its final decision

    def decide(self, state: SuiteState) -> SuiteDecision:
        """The suite after its runs so far: the criteria whose commands run again (only while another round may
        follow), else the final judgement of every criterion. Runs that measured nothing (a failed run's zero, or
        what the runner set aside: `state.invalid`) are never averaged: their commands run again within the budget,
        and a criterion whose runs are mostly invalid fails with the reasons."""
        state = self._valid(state)
        retry = self._retry(state)
        if not state.samples and retry:  # no valid run of any yet: their commands run again
            return SuiteDecision(undecided=sorted(retry))
        calibrating = self.calibrate and state.samples and state.more_runs and not self._lost(state)
        if calibrating and min(len(v) for v in state.samples.values()) < self.calibrate:
            return SuiteDecision(undecided=sorted(state.samples))  # an A/A run: every command n times
        if self.aggregate == "best" and state.samples and state.more_runs and not self._lost(state):
            runs = self.budget.repeat or self.budget.min_runs  # best of N: every command runs N times, no rule
            if min(len(v) for v in state.samples.values()) < runs:
                return SuiteDecision(undecided=sorted(state.samples))
        if self.noise is not None and self.aggregate == "median" and state.samples:
            seq = self._sequence(state)
            again = seq.step(stop=self._lost(state) or not state.more_runs, final=self._short_and_passing(state))
            self._finals.update(seq.final)
            retry = self._retry(state)  # decisions just made may have settled some
            if again or retry:
                return SuiteDecision(undecided=sorted({*again, *retry}), reboot=seq.reboot)
        measured = self._settled(state)
        return SuiteDecision(judgements=self._judge_all(state, measured), measured=measured)

    def _valid(self, state: SuiteState) -> SuiteState:
        """The state with every invalid run set aside (decision.validity), and the reasons kept (`invalid`)."""
        samples: dict[str, list[float]] = {}
        boots: dict[str, list[int]] = {}
        invalid = {cid: list(reasons) for cid, reasons in state.invalid.items()}
        for cid, values in state.samples.items():
            c = state.criteria.get(cid)
            at = state.boots.get(cid, [])
            for i, v in enumerate(values):
                why = validity.failed_run(c, v) if c is not None else None
                if why:
                    invalid.setdefault(cid, []).append(why)
                    continue
                samples.setdefault(cid, []).append(v)
                boots.setdefault(cid, []).append(at[i] if i < len(at) else 0)
        for cid in state.criteria:
            self.invalid.pop(cid, None)
        self.invalid.update({cid: r for cid, r in invalid.items() if r and cid in state.criteria})
        return replace(state, samples=samples, boots=boots, invalid=invalid)

    def _retry(self, state: SuiteState) -> list[str]:
        """Criteria whose invalid runs outnumber their valid ones (none valid yet, or a failed run twice before one
        that decided it) whose commands may run again (within their most runs): a criterion fails as mostly invalid
        only once its command had every run it may, not because two rare failed runs came first."""
        if not state.more_runs or self._lost(state):
            return []
        seconds = {cid: cmd.seconds for cmd in state.commands for cid in cmd.ids}
        return [cid for cid, reasons in state.invalid.items()
                if reasons and cid in state.criteria and len(reasons) > len(state.samples.get(cid, []))
                and (state.samples.get(cid) or cid not in self._finals)
                and len(reasons) + len(state.samples.get(cid, []))
                < self.budget.runs_for(seconds.get(cid, self.budget.default_seconds))]  # fmt: skip

    def allocate(self, suites: dict[str, tuple[list[Criterion], list[Command], int]]) -> None:
        """Before any run, for the whole gate (suite -> its criteria, commands and runs averaged per boot-time value):
        keep at their own tolerance as many criteria as the gate's beta_gate allows, the likeliest to pass first,
        so that a healthy board's gate fails for want of a pass at most beta_gate of the time; the rest are LIMITED
        (held to the tolerance their runs can decide)."""
        assert self.noise is not None
        misses: list[tuple[float, str]] = []
        for crits, cmds, averaged in suites.values():
            by_id = {c.id: c for c in crits}
            priors = {c.id: self.prior(c, averaged if c.suite == "boot_time" else 1) for c in crits}
            seq = SuiteSequence(by_id, priors, {c.id: self.policy.for_criterion(c) for c in crits}, self.noise,
                                self.judged, cmds or [Command("", self.budget.default_seconds, tuple(by_id))],
                                self.budget)  # fmt: skip
            misses += [(seq.miss(cid), cid) for cid in by_id]
        own: set[str] = set()
        spent = 0.0
        for p, cid in sorted(misses):
            if spent + p > self.noise.beta_gate:
                break
            spent += p
            own.add(cid)
        self.own = frozenset(own)
        self.allocated = {"kept": len(own), "of": len(misses), "beta_spent": spent}

    def begin(self, criteria: dict[str, Criterion]) -> None:
        """A suite is measured afresh: nothing decided for its criteria before (an earlier `Measure Suite` of the same
        suite in this run) carries over."""
        self._sequences.pop(tuple(sorted(criteria)), None)
        for cid in criteria:
            self._finals.pop(cid, None)

    def prior(self, c: Criterion, averaged: int = 1) -> Prior:
        """The criterion's prior noise per value (guide, history or class; over sqrt(runs averaged))."""
        assert self.noise is not None
        return self.noise.prior(c, self.history.get(c.id), self.artefacts.get(c.id, ""), averaged)

    def final(self, cid: str) -> Final | None:
        """The criterion's final sequential decision, once its suite is judged."""
        return self._finals.get(cid)

    def undecidable(self, c: Criterion, runs: int, averaged: int = 1) -> bool:
        """True when `runs` runs cannot decide the criterion even on a board exactly at its published value, with
        the noise it has before this run shows any (its class, or history): it will be judged against the guide's
        worst value (or read inconclusive where the guide prints none)."""
        assert self.noise is not None
        if self.own is not None:
            return c.id not in self.own
        seq = SuiteSequence({c.id: c}, {c.id: self.prior(c, averaged)}, {c.id: self.policy.for_criterion(c)},
                            self.noise, self.judged, [Command(c.id, 1.0, (c.id,))], self.budget)  # fmt: skip
        return c.id in seq.limits or not seq.could_pass(c.id, seq.posterior(c.id), runs, self.budget.max_boots)

    def noise_entry(self, cid: str) -> dict:
        """metrics.json's noise and limits of a judged criterion: the noise its decision used (relative sd per value,
        degrees of freedom, where it came from), the artefact that kept the guide's spread out, and how it was judged
        when the budget could not decide it at its tolerance."""
        f = self._finals.get(cid)
        out: dict = {}
        if f is not None and f.decision.noise is not None:
            n = f.decision.noise
            out["noise"] = {"sd": round(n.sd, 6), "df": round(n.df, 1), "sd_fail": round(n.sd_fail, 6),
                            "source": n.source, "runs": f.decision.runs}  # fmt: skip
        if cid in self.artefacts:
            out.setdefault("noise", {})["guide_spread_not_used"] = self.artefacts[cid]
        if f is not None and f.limited is not None:
            out["limited"] = f.limited.to_json()
        return out

    @staticmethod
    def _lost(state: SuiteState) -> bool:
        """A run lost the board or its tool: running again measures nothing better."""
        return any(state.measured.missing.get(cid) for cid in state.criteria)

    def _short_and_passing(self, state: SuiteState) -> set[str]:
        """Tail-latency criteria measured over a shorter run than the guide's whose value passes: another short run
        decides nothing (it can only see a smaller maximum); only a longer one would."""
        out = set()
        for cid, run in state.measured.lengths.items():
            values = state.samples.get(cid)
            if run.short and values and cid in state.criteria:
                c = state.criteria[cid]
                if sequential.margin(c, statistics.median(values), self.policy.for_criterion(c)) >= 0:
                    out.add(cid)
        return out

    def _sequence(self, state: SuiteState) -> SuiteSequence:
        key = tuple(sorted(state.criteria))
        seq = self._sequences.get(key)
        if seq is None:
            assert self.noise is not None
            commands = state.commands or [Command("", self.budget.default_seconds, tuple(state.criteria))]
            seq = SuiteSequence(
                dict(state.criteria),
                {cid: self.prior(c, state.measured.averaged.get(cid, 1)) for cid, c in state.criteria.items()},
                {cid: self.policy.for_criterion(c) for cid, c in state.criteria.items()},
                self.noise, self.judged, commands, self.budget, own=self.own,
            )  # fmt: skip
            self._sequences[key] = seq
        seq.samples = {cid: v for cid, v in state.samples.items() if cid in state.criteria}
        # the boot each sample came from, where the runner boots again between rounds (else one boot for all)
        boots = getattr(state, "boots", None) or {}
        seq.boots_of = {cid: list(boots.get(cid, [])) for cid in seq.samples if boots.get(cid)}
        return seq

    def _settled(self, state: SuiteState) -> Measurements:
        """The suite's Measurements with each sampled criterion's value (its samples aggregated) and no longer
        missing or unavailable. A copy: the state's stays as the runs left it."""
        m = state.measured
        out = replace(m, values=dict(m.values), missing=dict(m.missing), unavailable=dict(m.unavailable))
        for cid, values in state.samples.items():
            if cid not in state.criteria:
                continue
            out.values[cid] = self._aggregate(state.criteria[cid], values)
            out.missing.pop(cid, None)
            out.unavailable.pop(cid, None)
        return out

    def _aggregate(self, c: Criterion, values: list[float]) -> float:
        if len(values) == 1:
            return values[0]
        if self.aggregate == "median" or c.direction == "match":
            return statistics.median(values)
        return max(values) if c.direction == "higher" else min(values)

    def _judge_all(self, state: SuiteState, measured: Measurements) -> dict[str, Judgement]:
        out: dict[str, Judgement] = {}
        for cid, c in state.criteria.items():
            value = measured.values.get(cid)
            reason = measured.missing.get(cid) or measured.unavailable.get(cid, "")
            if value is None and not reason:
                reason = "the workload produced no value for it"
            tol = self.policy.for_criterion(c)
            f = self._finals.get(cid) if state.samples.get(cid) else None
            bad = state.invalid.get(cid, [])
            if bad and len(bad) > len(state.samples.get(cid, [])):  # mostly invalid: no release rests on the rest
                said = invalid_reason(bad, len(state.samples.get(cid, [])))
                j = judge(c, None, tol, said)
                out[cid] = replace(j, verdict=FAIL, message=f"{c.name}: FAIL: not measured: {said}")
                continue
            j = judge(c, value, tol, reason) if f is None or f.limited is None else self._limited(c, value, tol, f)
            if f is not None:
                j = _with_decision(j, f)
            if bad:
                j = replace(j, message=f"{j.message} ({invalid_reason(bad, len(state.samples.get(cid, [])))})")
            # a tail-latency criterion: its run length beside the guide's; shorter and not failing is inconclusive
            out[cid] = sequential.with_run_length(j, c, tol, measured.lengths.get(cid))
        return out

    @staticmethod
    def _limited(c: Criterion, value: float | None, tol: Tolerance, f: Final) -> Judgement:
        """Judged at the tolerance its runs can decide, and said so."""
        assert f.limited is not None
        j = judge(c, value, replace(tol, relative=f.limited.tolerance), "")
        what = "fails it" if j.verdict == FAIL else "holds"
        pct = f.limited.detectable_pct
        detect = "" if math.isnan(pct) else f"; the smallest regression from published its runs could fail: {pct:.0f}%"
        return replace(j, message=f"{c.name}: measured {value:.6g} {c.unit}, published {c.value:.6g} {c.unit}: "
                                  f"LIMITED: {f.limited.reason}: {what}{detect}")  # fmt: skip


def invalid_reason(reasons: list[str], valid: int) -> str:
    """`2 of 5 runs INVALID, set aside: 2 × <reason>`: never averaged, counted per reason."""
    counts = ", ".join(f"{n} × {r}" for r, n in Counter(reasons).most_common())
    return f"{len(reasons)} of {len(reasons) + valid} runs INVALID, set aside: {counts}"


def _with_decision(j: Judgement, f: Final) -> Judgement:
    """The point judgement of the aggregated value, held to the sequential decision: undecided is inconclusive, and a
    median on the other side of the threshold from the geometric mean the decision rests on is inconclusive too."""
    d = f.decision
    if d.verdict == sequential.INCONCLUSIVE:
        return replace(j, verdict=sequential.INCONCLUSIVE, message=f"{j.message}; INCONCLUSIVE: {d.reason}")
    if (d.verdict == PASS and j.verdict == FAIL) or (d.verdict == FAIL and j.verdict in (PASS, WARN)):
        why = (f"the median and the geometric mean of its {d.runs} runs ({d.mean:.6g}) fall on either side of its "
               f"threshold")  # fmt: skip
        return replace(j, verdict=sequential.INCONCLUSIVE, message=f"{j.message}; INCONCLUSIVE: {why}")
    if d.verdict == FAIL and j.verdict == FAIL and d.noise is not None:
        return replace(j, message=f"{j.message} ({d.runs} run{'s' if d.runs > 1 else ''}, {abs(d.z):.1f} standard "
                                  f"errors past its threshold; noise {d.noise.describe()})")  # fmt: skip
    return j
