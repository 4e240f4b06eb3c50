"""The judge: the decision over one suite's runs, for all its criteria at once.

The runner (perfgate.run.runner) runs a suite's workload, collects each criterion's value per run and asks the judge
after every run, with the whole suite's state (`SuiteState`): its criteria, the samples per criterion so far, what the
runs measured or missed (Measurements) and whether another run is allowed. The judge answers (`SuiteDecision`) with
the criteria another run could still decide, or, when none is left (or no run may follow), the final Judgement of each
criterion and the Measurements those were read from (each criterion's samples aggregated into one value).

Today's rule inside it: each criterion alone, the sequential verdict of perfgate.sequential (the median of its runs
against the threshold in standard errors of its noise); a tail-latency run shorter than the guide's cannot pass.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field, replace

from perfgate import sequential
from perfgate.model import Criterion
from perfgate.tolerance import Policy
from perfgate.verdict import FAIL, PASS, Judgement, judge
from perfgate.workloads.base import Measurements


@dataclass
class SuiteState:
    """A suite after the runs so far."""

    criteria: dict[str, Criterion]  # criterion id -> criterion: every criterion the suite judges
    samples: dict[str, list[float]]  # criterion id -> its value of each run so far
    measured: Measurements  # what the runs missed, skipped, which tool, run lengths, values averaged over
    more_runs: bool  # whether another run of the suite may follow (REPEAT not reached)


@dataclass
class SuiteDecision:
    """The judge's answer: run again for `undecided`, else the final `judgements`."""

    undecided: list[str] = field(default_factory=list)  # criteria another run could still decide
    judgements: dict[str, Judgement] = field(default_factory=dict)  # final, once nothing is undecided
    measured: Measurements | None = None  # the Measurements judged: each criterion's samples aggregated

    @property
    def final(self) -> bool:
        return not self.undecided


@dataclass
class Judge:
    """Judges the suites of one run: its tolerances, its noise model and the board's history, how runs aggregate."""

    policy: Policy
    noise: sequential.NoiseModel | None
    history: dict[str, list[float]] = field(default_factory=dict)  # criterion id -> the board's judged values
    aggregate: str = "median"  # AGGREGATE: median, or best (lenient)

    def decide(self, state: SuiteState) -> SuiteDecision:
        """The suite after its runs so far: the criteria still undecided (only while another run may follow), else
        the final judgement of every criterion."""
        undecided = self._undecided(state) if state.more_runs else []
        if undecided:
            return SuiteDecision(undecided=undecided)
        measured = self._settled(state)
        return SuiteDecision(judgements=self._judge_all(state, measured), measured=measured)

    def noise_of(self, c: Criterion, averaged: int = 1) -> sequential.Noise:
        """The criterion's noise per value: the guide's, its history's or its class's, over sqrt(runs averaged)."""
        assert self.noise is not None
        return sequential.averaged(self.noise.of(c, self.history.get(c.id)), averaged)

    def undecidable(self, c: Criterion, runs: int, averaged: int = 1) -> bool:
        """True when `runs` runs cannot decide the criterion even on a board exactly at its published value (its
        noise is wide against its tolerance): it will read inconclusive whatever the board does."""
        return self._decision(c, [c.value] * runs, True, averaged).verdict == sequential.INCONCLUSIVE

    def _decision(self, c: Criterion, samples: list[float], last: bool, averaged: int = 1) -> sequential.Decision:
        assert self.noise is not None
        noise = self.noise_of(c, averaged)
        return sequential.decide(c, samples, self.policy.for_criterion(c), noise, self.noise.z, last, self.noise.z_fail)

    def _undecided(self, state: SuiteState) -> list[str]:
        """The criteria of the suite still inside the noise band around their threshold after the runs so far."""
        if any(state.measured.missing.get(cid) for cid in state.criteria):
            return []  # a run that lost the board or its tool: running it again measures nothing better
        out = []
        for cid, samples in state.samples.items():
            if cid not in state.criteria:
                continue
            d = self._decision(state.criteria[cid], samples, False, state.measured.averaged.get(cid, 1))
            run = state.measured.lengths.get(cid)
            if d.verdict == sequential.MORE and not (run is not None and run.short and d.margin >= 0):
                out.append(cid)  # (a tail-latency run shorter than the guide's cannot pass: another short run on
                # the passing side decides nothing; only a longer one would)
        return out

    def _settled(self, state: SuiteState) -> Measurements:
        """The suite's Measurements with each sampled criterion's value (its samples aggregated) and no longer
        missing or unavailable. A copy: the state's stays as the runs left it."""
        m = state.measured
        out = replace(m, values=dict(m.values), missing=dict(m.missing), unavailable=dict(m.unavailable))
        for cid, values in state.samples.items():
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
            j = judge(c, value, tol, reason)
            samples = state.samples.get(cid, [])
            if samples and j.verdict in (PASS, FAIL) and self.aggregate == "median" and self.noise is not None:
                d = self._decision(c, samples, True, measured.averaged.get(cid, 1))
                if d.verdict == sequential.INCONCLUSIVE:
                    j = replace(j, verdict=sequential.INCONCLUSIVE, message=f"{j.message}; INCONCLUSIVE: {d.reason}")
            # a tail-latency criterion: its run length beside the guide's; shorter and not failing is inconclusive
            out[cid] = sequential.with_run_length(j, c, tol, measured.lengths.get(cid))
        return out
