"""One suite's sequential decision across the runs of its commands (the rule: perfgate.sequential; the noise:
perfgate.pooling; the runs a command may take: perfgate.budget).

After each round of runs the suite's noise is pooled again from every row's runs so far, and each criterion not yet
decided is decided if it can be (a decision once reached is final). Only the commands of criteria still undecided run
again: each within its own most runs (short commands more than long ones), all of them within the suite's rerun budget
(the cheapest first). A criterion still undecided when its command may not run again is judged at the end:

- when even a board exactly at its published value could not have passed it within its runs (its noise is wide
  against its tolerance), it is judged by what the data can support: no worse than the guide's own published worst
  value (its min, or max for a latency) by more than the tolerance, said in its message and listed apart as `limited`
  with the smallest regression it can detect;
- else it is inconclusive: its value sits near its threshold, which is news (a borderline regression).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from perfgate import pooling, sequential
from perfgate.budget import Budget
from perfgate.model import Criterion
from perfgate.pooling import Posterior, Prior
from perfgate.sequential import Decision, NoiseModel
from perfgate.tolerance import Tolerance


@dataclass(frozen=True)
class Command:
    """A command of the suite and the criteria its output measures."""

    key: str  # the command line (or the suite's name, for a workload that builds its commands as it measures)
    seconds: float  # planned hardware seconds of one run
    ids: tuple[str, ...]


@dataclass(frozen=True)
class Limited:
    """A criterion its budget could not decide at its tolerance, judged against the guide's own worst value."""

    threshold: float  # the value it was held to: the guide's worst made worse by the tolerance
    worst: float  # the guide's published worst (its min, or max for lower-is-better)
    detectable_pct: float  # the smallest regression from the published value its runs could fail
    reason: str

    def to_json(self) -> dict:
        return {"threshold": self.threshold, "guide_worst": self.worst,
                "detectable_pct": round(self.detectable_pct, 2), "reason": self.reason}  # fmt: skip


@dataclass(frozen=True)
class Final:
    decision: Decision
    limited: Limited | None = None


@dataclass
class SuiteSequence:
    """The decision state of one suite of one run."""

    criteria: dict[str, Criterion]
    priors: dict[str, Prior]
    tolerances: dict[str, Tolerance]
    model: NoiseModel
    judged: int  # criteria the whole run judges (the Bonferroni count)
    commands: list[Command]
    budget: Budget
    samples: dict[str, list[float]] = field(default_factory=dict)
    final: dict[str, Final] = field(default_factory=dict)
    spent: float = 0.0  # lab seconds of reruns so far
    reruns: int = 0  # command runs after the first pass

    def __post_init__(self) -> None:
        self._command_of = {cid: cmd for cmd in self.commands for cid in cmd.ids}
        self.rerun_budget = self.budget.rerun_seconds(sum(c.seconds for c in self.commands))

    def add(self, values: dict[str, float]) -> None:
        """One run's values (criteria already decided keep their decision: their values still feed the pool)."""
        for cid, v in values.items():
            if cid in self.criteria:
                self.samples.setdefault(cid, []).append(float(v))

    def max_runs(self, cid: str) -> int:
        """The most runs of the criterion's command: its own cap, and what the suite's rerun budget holds."""
        seconds = self._command_of[cid].seconds if cid in self._command_of else self.budget.default_seconds
        return min(self.budget.runs_for(seconds), 1 + math.floor(self.rerun_budget / seconds))

    def posterior(self, cid: str, suite: pooling.SuitePool | None = None) -> Posterior:
        suite = suite or pooling.pool(self.priors, self.samples, self.model.pool)
        return pooling.posterior(self.priors[cid], self.samples.get(cid, []), suite, self.model.pool)

    def step(self, stop: bool = False, final: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """Decide what can be decided; return the criteria whose commands run again (none: the suite is done).
        `stop`: no run may follow (the board was lost, the run is ending); `final`: criteria no run of theirs can
        decide further (judged now on what they have)."""
        suite = pooling.pool(self.priors, self.samples, self.model.pool)
        pending: dict[str, list[str]] = {}
        for cid, values in self.samples.items():
            if cid in self.final or cid not in self.priors:
                continue
            post = self.posterior(cid, suite)
            last = stop or cid in final or len(values) >= self.max_runs(cid)
            d = self._decide(cid, values, post, last)
            if d.decided:
                self.final[cid] = Final(d)
            elif last:
                self.final[cid] = self._at_the_end(cid, d, post)
            else:
                cmd = self._command_of.get(cid)
                pending.setdefault(cmd.key if cmd else "", []).append(cid)
        again: list[str] = []
        for key, ids in sorted(pending.items(), key=lambda kv: self._seconds(kv[0])):
            seconds = self._seconds(key)
            if self.spent + seconds <= self.rerun_budget:
                self.spent += seconds
                self.reruns += 1
                # the command prints all its criteria: the decided ones keep their decision, their values feed the pool
                cmd = next((c for c in self.commands if c.key == key), None)
                again += list(cmd.ids) if cmd else ids
                continue
            for cid in ids:  # over budget: judged now, on the runs it had
                post = self.posterior(cid, suite)
                self.final[cid] = self._at_the_end(cid, self._decide(cid, self.samples[cid], post, True), post)
        return again

    def _seconds(self, key: str) -> float:
        return next((c.seconds for c in self.commands if c.key == key), self.budget.default_seconds)

    def _decide(self, cid: str, values: list[float], post: Posterior, last: bool) -> Decision:
        m = self.model
        return sequential.decide(self.criteria[cid], values, self.tolerances[cid], post, m.q_pass(post.df),
                                 m.q_fail(post.df_fail, self.judged), last)  # fmt: skip

    def could_pass(self, cid: str, post: Posterior, runs: int | None = None) -> bool:
        """Whether a board exactly at the published value passes within the criterion's runs, with this noise."""
        c = self.criteria[cid]
        n = runs or self.max_runs(cid)
        at_value = sequential.decide(c, [c.value] * n, self.tolerances[cid], post, self.model.q_pass(post.df), math.inf,
                                     True)  # fmt: skip
        return at_value.verdict == sequential.PASS

    def _at_the_end(self, cid: str, d: Decision, post: Posterior) -> Final:
        c = self.criteria[cid]
        worst = c.min if c.direction == "higher" else c.max if c.direction == "lower" else None
        if self.could_pass(cid, post) or worst is None or self.priors[cid].artefact or worst <= 0:
            return Final(d)
        tol = self.tolerances[cid]
        relaxed = replace(c, value=worst)
        r = self._decide_relaxed(relaxed, cid, post)
        if not r.decided:
            return Final(d)
        held = sequential.threshold(relaxed, tol)
        why = (f"its noise ({post.describe()}) is too wide against its {tol.relative * 100:g}% tolerance for "
               f"{self.max_runs(cid)} runs to decide it even at its published value: judged instead against the "
               f"guide's own worst published value {worst:g} {c.unit} made worse by the tolerance ({held:.6g} "
               f"{c.unit})")  # fmt: skip
        limited = Limited(held, worst, self.detectable(cid, post), why)
        return Final(replace(r, reason=why), limited)

    def _decide_relaxed(self, relaxed: Criterion, cid: str, post: Posterior) -> Decision:
        m = self.model
        return sequential.decide(relaxed, self.samples[cid], self.tolerances[cid], post, m.q_pass(post.df),
                                 m.q_fail(post.df_fail, self.judged), True)  # fmt: skip

    def detectable(self, cid: str, post: Posterior) -> float:
        """The smallest regression from the published value, in percent, that fails within the criterion's runs."""
        c = self.criteria[cid]
        n = self.max_runs(cid)
        thr = sequential.threshold(c, self.tolerances[cid])
        if c.value <= 0 or thr <= 0 or c.direction == "match":
            return math.nan
        step = self.model.q_fail(post.df_fail, self.judged) * post.sd_fail / math.sqrt(n)
        if c.direction == "higher":
            return (1 - thr / c.value * math.exp(-step)) * 100
        return (thr / c.value * math.exp(step) - 1) * 100
