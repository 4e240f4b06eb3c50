"""The judge: the decision over one suite's runs, for all its criteria at once.

The runner (perfgate.run.runner) runs a suite's commands, collects each criterion's value per run and asks the judge
after every round, with the whole suite's state (`SuiteState`): its criteria, the samples per criterion so far, what
the runs measured or missed (Measurements), its commands (which criteria each one measures, how long it takes) and
whether another round may follow. The judge answers (`SuiteDecision`) with the criteria whose commands run again, or,
when none is left, the final Judgement of each criterion and the Measurements those were read from.

The rule (perfgate.sequential, perfgate.pooling, perfgate.suite_decision): each criterion's noise is the board's own in
this run, pooled across its suite's rows with the guide's spread as a prior, a Student t with honest degrees of
freedom; a FAIL is held to the whole gate's error rate and to the guide's own spread; a decision once reached is final;
only the commands of criteria still undecided run again, within their most runs and the suite's rerun budget; a
criterion the budget cannot decide at its tolerance is judged against the guide's own worst value (`limited`); a
tail-latency run shorter than the guide's cannot pass. AGGREGATE:best has no noise model: every command runs REPEAT
times (or the budget's fewest runs) and the best of each criterion's values is judged as it is.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace

from perfgate import sequential
from perfgate.budget import Budget
from perfgate.model import Criterion
from perfgate.pooling import Prior
from perfgate.suite_decision import Command, Final, SuiteSequence
from perfgate.tolerance import Policy
from perfgate.verdict import FAIL, PASS, WARN, Judgement, judge
from perfgate.workloads.base import Measurements


@dataclass
class SuiteState:
    """A suite after the runs so far."""

    criteria: dict[str, Criterion]  # criterion id -> criterion: every criterion the suite judges
    samples: dict[str, list[float]]  # criterion id -> its value of each run so far
    measured: Measurements  # what the runs missed, skipped, which tool, run lengths, values averaged over
    more_runs: bool  # whether another round may follow at all (False: the board was lost, the suite cannot run)
    commands: list[Command] = field(default_factory=list)  # the suite's commands (none: one command for all)
    # criterion id -> the reason of each INVALID run so far (a failed run, a throttled board: never a sample)
    invalid: dict[str, list[str]] = field(default_factory=dict)
    boots: dict[str, list[int]] = field(default_factory=dict)  # criterion id -> the boot of each sample, in step


@dataclass
class SuiteDecision:
    """The judge's answer: run the commands of `undecided` again, else the final `judgements`."""

    undecided: list[str] = field(default_factory=list)  # criteria whose commands run again
    judgements: dict[str, Judgement] = field(default_factory=dict)  # final, once nothing is undecided
    measured: Measurements | None = None  # the Measurements judged: each criterion's samples aggregated
    reboot: bool = False  # bring the board up afresh (power-cycle or reboot, log in) before the next round

    @property
    def final(self) -> bool:
        return not self.undecided


@dataclass
class Judge:
    """Judges the suites of one run: its tolerances, its noise model, its run budget and the board's history."""

    policy: Policy
    noise: sequential.NoiseModel | None
    history: dict[str, list[float]] = field(default_factory=dict)  # criterion id -> the board's judged values
    aggregate: str = "median"  # AGGREGATE: median, or best (lenient)
    budget: Budget = field(default_factory=Budget)
    judged: int = 1  # the criteria the whole run judges: a FAIL is held to the gate's error rate over them
    artefacts: dict[str, str] = field(default_factory=dict)  # criterion id -> why its min/max is not a spread
    _sequences: dict[tuple[str, ...], SuiteSequence] = field(default_factory=dict)  # by the suite's criteria
    _finals: dict[str, Final] = field(default_factory=dict)  # criterion id -> its final decision

    def decide(self, state: SuiteState) -> SuiteDecision:
        """The suite after its runs so far: the criteria whose commands run again (only while another round may
        follow), else the final judgement of every criterion."""
        if self.aggregate == "best" and state.samples and state.more_runs and not self._lost(state):
            runs = self.budget.repeat or self.budget.min_runs  # best of N: every command runs N times, no rule
            if min(len(v) for v in state.samples.values()) < runs:
                return SuiteDecision(undecided=sorted(state.samples))
        if self.noise is not None and self.aggregate == "median" and state.samples:
            seq = self._sequence(state)
            again = seq.step(stop=self._lost(state) or not state.more_runs, final=self._short_and_passing(state))
            self._finals.update(seq.final)
            if again:
                return self._with_invalid(state, SuiteDecision(undecided=again))
        measured = self._settled(state)
        return self._with_invalid(state, SuiteDecision(judgements=self._judge_all(state, measured), measured=measured))

    # -- INVALID runs (issue 28): set aside by the runner, never samples ------------------------------------------
    def _with_invalid(self, state: SuiteState, d: SuiteDecision) -> SuiteDecision:
        """A criterion with INVALID runs and no valid sample yet runs again while its command may (its most runs, no
        board lost); at the end one whose runs are mostly INVALID fails naming their reasons, and every judgement
        of a criterion with INVALID runs says how many were set aside and why."""
        seq = self._sequences.get(tuple(sorted(state.criteria)))
        again = [cid for cid, bad in state.invalid.items() if cid in state.criteria and not state.samples.get(cid)
                 and state.more_runs and not self._lost(state)
                 and len(bad) < (seq.max_runs(cid) if seq is not None else self.budget.runs_for(0) or 1)]  # fmt: skip
        if again:
            return replace(d, undecided=sorted(set(d.undecided) | set(again)), judgements={}, measured=None)
        for cid, bad in state.invalid.items():
            j = d.judgements.get(cid)
            if j is None or not bad:
                continue
            valid = len(state.samples.get(cid, []))
            counts = ", ".join(f"{n} × {r}" for r, n in Counter(bad).most_common())
            said = f"{len(bad)} of {len(bad) + valid} runs INVALID, set aside: {counts}"
            if len(bad) > valid:
                c = state.criteria[cid]
                j = replace(j, verdict=FAIL, message=f"{c.name}: FAIL: not measured: {said}")
            else:
                j = replace(j, message=f"{j.message} ({said})")
            d.judgements[cid] = j
        return d

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
        seq = SuiteSequence({c.id: c}, {c.id: self.prior(c, averaged)}, {c.id: self.policy.for_criterion(c)},
                            self.noise, self.judged, [Command(c.id, 1.0, (c.id,))], self.budget)  # fmt: skip
        return not seq.could_pass(c.id, seq.posterior(c.id), runs)

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
                self.noise, self.judged, commands, self.budget,
            )  # fmt: skip
            self._sequences[key] = seq
        seq.samples = {cid: v for cid, v in state.samples.items() if cid in state.criteria}
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
            j = judge(c, value, tol, reason) if f is None or f.limited is None else self._limited(c, value, tol, f)
            if f is not None:
                j = _with_decision(j, f)
            # a tail-latency criterion: its run length beside the guide's; shorter and not failing is inconclusive
            out[cid] = sequential.with_run_length(j, c, tol, measured.lengths.get(cid))
        return out

    @staticmethod
    def _limited(c: Criterion, value: float | None, tol: object, f: Final) -> Judgement:
        """Judged against the guide's own worst value made worse by the tolerance, and said so."""
        assert f.limited is not None
        j = judge(replace(c, value=f.limited.worst), value, tol, "")  # type: ignore[arg-type]
        j = replace(j, published=c.value, delta_pct=(value - c.value) / c.value * 100 if value and c.value else None)
        what = "fails it" if j.verdict == FAIL else "holds"
        pct = f.limited.detectable_pct
        detect = "" if math.isnan(pct) else f"; the smallest regression from published its runs could fail: {pct:.0f}%"
        return replace(j, message=f"{c.name}: measured {value:.6g} {c.unit}, published {c.value:.6g} {c.unit}: "
                                  f"LIMITED: {f.limited.reason}: {what}{detect}")  # fmt: skip


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
