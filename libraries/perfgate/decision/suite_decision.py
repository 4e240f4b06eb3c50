"""One suite's sequential decision across the runs of its commands (the rule: decision.sequential; the noise:
decision.pooling; the runs a command may take: decision.budget).

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

from perfgate.decision import pooling, sequential
from perfgate.decision.budget import Budget
from perfgate.decision.pooling import Posterior, Prior
from perfgate.decision.sequential import Decision, NoiseModel
from perfgate.decision.tolerance import Tolerance
from perfgate.model import Criterion


@dataclass(frozen=True)
class Command:
    """A command of the suite and the criteria its output measures."""

    key: str  # the command line (or the suite's name, for a workload that builds its commands as it measures)
    seconds: float  # planned hardware seconds of one run
    ids: tuple[str, ...]


@dataclass(frozen=True)
class Limited:
    """A criterion whose noise its budget cannot hold to its tolerance: held to the tolerance its runs can decide
    (a healthy board still passes it), and listed apart with the smallest regression it can fail."""

    threshold: float  # the value it was held to: the published value made worse by `tolerance`
    tolerance: float  # the relative tolerance its runs can decide, in place of its own
    own: float  # its own relative tolerance
    detectable_pct: float  # the smallest regression from the published value its runs fail (90 % of the time)
    reason: str

    def to_json(self) -> dict:
        return {"threshold": self.threshold, "tolerance_pct": round(self.tolerance * 100, 2),
                "own_tolerance_pct": round(self.own * 100, 2), "detectable_pct": round(self.detectable_pct, 2),
                "reason": self.reason}  # fmt: skip


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
    spent: float = 0.0  # lab seconds of reruns so far (boots apart: at most budget.max_boots)
    reruns: int = 0  # command runs after the first pass
    boot: int = 0  # the boot the next runs come from (0: the gate's own bring-up)
    boots_of: dict[str, list[int]] = field(default_factory=dict)  # criterion id -> the boot of each of its samples
    reboot: bool = False  # the last step asks for a fresh boot before the next runs
    # the criteria the whole gate's allocation (decision.judge.Judge.allocate) keeps at their own tolerance; None:
    # each criterion on its own, at the power beta_gate / (criteria judged) gives
    own: frozenset[str] | None = None

    def __post_init__(self) -> None:
        self._command_of = {cid: cmd for cmd in self.commands for cid in cmd.ids}
        self.rerun_budget = self.budget.rerun_seconds(sum(c.seconds for c in self.commands))
        # criteria whose noise (before this run shows any) the budget cannot hold to their tolerance: held from the
        # start to the tolerance their runs can decide, said as LIMITED
        self.limits: dict[str, Limited] = {}
        self.own_tolerances = dict(self.tolerances)  # before any is relaxed
        self._prior_cache: dict[str, tuple[Posterior, int]] = {}
        self._looked: dict[str, float] = {}  # criterion id -> the information fraction its last look had spent to
        for cid in self.criteria:
            lim = self.limit(cid, force=self.own is not None and cid not in self.own)
            if lim is not None:
                self.limits[cid] = lim
                self.tolerances[cid] = replace(self.tolerances[cid], relative=lim.tolerance)

    def _margin_needed(self, cid: str, post: Posterior, boots: int) -> float:
        """The log margin a healthy board needs over its threshold to pass within its runs with the power the model
        asks (decision.sequential.NoiseModel.z_power), at the best look."""
        z = self.model.z_power(self.judged)
        return min((self.q_pass(cid, post.df_of(k, self._planned(k, boots)), k, self._planned(k, boots),
                                self._planned(k - 1, boots)) + z) * post.se(k, self._planned(k, boots))
                   for k in range(1, self.max_runs(cid) + 1))  # fmt: skip

    def _prior_posterior(self, cid: str) -> tuple[Posterior, int]:
        """The criterion's noise before this run shows any, and the most boots its runs may come from."""
        if cid not in self._prior_cache:
            post = self.posterior(cid, pooling.SuitePool(None, self.model.pool.prior_df, 0, 0.0))
            self._prior_cache[cid] = (post, self.budget.max_boots if post.between > 0 else 1)
        return self._prior_cache[cid]

    @staticmethod
    def _planned(runs: int, boots: int) -> int:
        """The boots `runs` runs come from as the runner takes them: each rerun round after a fresh boot while
        boots help, up to `boots`."""
        return max(min(runs, boots), 1)

    def fraction(self, cid: str, runs: int, boots: int) -> float:
        """The information (1 / se^2, under the noise before this run shows any) that `runs` runs in `boots` boots
        give, as a fraction of what the criterion's most runs and boots would: what a look may spend by
        (decision.sequential.spend_info). A maximum's median counts as a mean here: its efficiency is a constant."""
        if runs <= 0:
            return 0.0
        post, most = self._prior_posterior(cid)
        post = replace(post, tail=False)
        full, se = post.se(self.max_runs(cid), most), post.se(runs, boots)
        return 1.0 if se <= 0 else min((full / se) ** 2, 1.0)

    def q_pass(self, cid: str, df: float, runs: int, boots: int, before: int) -> float:
        """The pass quantile of the look after `runs` runs in `boots` boots, the runs before it in `before` boots,
        as the plan sees it (a look after every run): the error rate it spends is that of the information it adds."""
        return self.model.q_pass_at(df, self.fraction(cid, runs - 1, before), self.fraction(cid, runs, boots))

    def _own_margin(self, cid: str) -> float:
        """The log margin between the published value and the threshold at its own tolerance."""
        c, tol = self.criteria[cid], self.own_tolerances[cid]
        own = max(tol.relative, tol.absolute / abs(c.value))
        return -math.log(1 - own) if c.direction == "higher" and own < 1 else math.log(1 + own)

    def miss(self, cid: str) -> float:
        """The chance that a healthy board (at its published value) does not pass the criterion at its own tolerance
        within its runs and boots: at the best look, the normal chance its statistic falls short of the quantile."""
        from scipy.stats import norm

        c = self.criteria[cid]
        if c.direction == "match" or c.value <= 0:
            return 0.0
        post, boots = self._prior_posterior(cid)
        have = self._own_margin(cid)

        def short(k: int) -> float:
            # the run's pooled noise may rest on as few degrees of freedom as a pool needs (a suite whose rows fit
            # their shapes badly), and on the row's own runs: its quantiles are that wide
            at = replace(post, df=min(post.df, self.model.pool.min_df) + k - 1)
            b = self._planned(k, boots)
            se = at.se(k, b)  # 0: a row whose history never moved (a printed clock): nothing to miss
            q = self.q_pass(cid, at.df_of(k, b), k, b, self._planned(k - 1, boots))
            return q - (have / se if se > 0 else math.inf)

        return float(norm.cdf(min(short(k) for k in range(1, self.max_runs(cid) + 1))))

    def limit(self, cid: str, force: bool = False) -> Limited | None:
        """The criterion's Limited, when its prior noise, over its most runs and boots, cannot give a healthy board at
        its published value a pass at its own tolerance with the power asked (or `force`: the gate's allocation did
        not keep it at its own): the tolerance it can (None: its own is decidable)."""
        c, tol = self.criteria[cid], self.tolerances[cid]
        if c.direction == "match" or c.value <= 0:
            return None
        post, boots = self._prior_posterior(cid)
        own = max(tol.relative, tol.absolute / abs(c.value))
        have = self._own_margin(cid)
        need = self._margin_needed(cid, post, boots)
        if self.own is not None and not force:
            return None
        if have >= need and not force:
            return None
        need = max(need, have)
        relative = 1 - math.exp(-need) if c.direction == "higher" else math.exp(need) - 1
        held = sequential.threshold(c, replace(tol, relative=relative))
        detect = self._detectable(c, relative, post, boots, self.max_runs(cid))
        why = (f"its noise ({post.describe()}) over {self.max_runs(cid)} runs in {boots} boot(s) cannot hold a healthy "
               f"board to its {own * 100:g}% tolerance: held instead to the {relative * 100:.1f}% its runs can decide "
               f"({held:.6g} {c.unit})")  # fmt: skip
        return Limited(held, relative, own, detect, why)

    def _detectable(self, c: Criterion, relative: float, post: Posterior, boots: int, runs: int) -> float:
        """The smallest regression from the published value (%) that fails at `relative` tolerance 90 % of the time
        within `runs` runs in `boots` boots, at the best look."""
        z90 = 1.2816
        step = min((self.model.q_fail(post.df_of(k, boots, fail=True), self.judged, k) + z90)
                   * post.se(k, boots, fail=True) for k in range(1, runs + 1))  # fmt: skip
        if c.direction == "higher":
            return (1 - (1 - min(relative, 0.999999)) * math.exp(-step)) * 100
        return ((1 + relative) * math.exp(step) - 1) * 100

    def detectable_pct(self, cid: str) -> float:
        """The criterion's smallest regression (%) its budget fails 90 % of the time, before any run (its prior)."""
        c = self.criteria[cid]
        if c.direction == "match" or c.value <= 0:
            return math.nan
        post = self.posterior(cid, pooling.SuitePool(None, self.model.pool.prior_df, 0, 0.0))
        boots = self.budget.max_boots if post.between > 0 else 1
        tol = self.tolerances[cid]
        relative = max(tol.relative, tol.absolute / abs(c.value))
        return self._detectable(c, relative, post, boots, self.max_runs(cid))

    def add(self, values: dict[str, float]) -> None:
        """One run's values (criteria already decided keep their decision: their values still feed the pool)."""
        for cid, v in values.items():
            if cid in self.criteria:
                self.samples.setdefault(cid, []).append(float(v))
                self.boots_of.setdefault(cid, []).append(self.boot)

    def boots(self, cid: str) -> int:
        """How many boots the criterion's samples came from."""
        return max(len(set(self.boots_of.get(cid, []))), 1)

    def max_runs(self, cid: str) -> int:
        """The most runs of the criterion's command: its own cap, and what the suite's rerun budget holds."""
        seconds = self._command_of[cid].seconds if cid in self._command_of else self.budget.default_seconds
        return min(self.budget.runs_for(seconds), 1 + math.floor(self.rerun_budget / seconds))

    def posterior(self, cid: str, suite: pooling.SuitePool | None = None) -> Posterior:
        suite = suite or pooling.pool(self.priors, self.samples, self.model.pool, self.boots_of)
        return pooling.posterior(self.priors[cid], self.samples.get(cid, []), suite, self.model.pool,
                                 self.boots_of.get(cid))  # fmt: skip

    def step(self, stop: bool = False, final: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """Decide what can be decided; return the criteria whose commands run again (none: the suite is done), and set
        `reboot` when they should run after a fresh boot. `stop`: no run may follow (the board was lost, the run is
        ending); `final`: criteria no run of theirs can decide further (judged now on what they have)."""
        suite = pooling.pool(self.priors, self.samples, self.model.pool, self.boots_of)
        pending: dict[str, list[str]] = {}
        wants_boot: set[str] = set()
        looked: dict[str, float] = {}
        for cid, values in self.samples.items():
            if cid in self.final or cid not in self.priors:
                continue
            post = self.posterior(cid, suite)
            last = stop or cid in final or len(values) >= self.max_runs(cid)
            d = self._decide(cid, values, post, last)
            looked[cid] = self.fraction(cid, len(values), self.boots(cid))
            if d.decided:
                self.final[cid] = Final(d, self.limits.get(cid))
            elif last:
                self.final[cid] = self._at_the_end(cid, d, post)
            else:
                cmd = self._command_of.get(cid)
                pending.setdefault(cmd.key if cmd else "", []).append(cid)
                if self._boot_helps(cid, post):
                    wants_boot.add(cid)
        again: list[str] = []
        boot = bool(wants_boot) and self.boot + 1 < self.budget.max_boots
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
        self._looked.update({cid: f for cid, f in looked.items() if cid not in self.final})
        self.reboot = boot and bool(again)
        if self.reboot:  # its lab time is the boot's (budget.yaml boot_seconds), beside the reruns' budget
            self.boot += 1
        return again

    def _seconds(self, key: str) -> float:
        return next((c.seconds for c in self.commands if c.key == key), self.budget.default_seconds)

    def _decide(self, cid: str, values: list[float], post: Posterior, last: bool) -> Decision:
        """The criterion at this look: its pass quantile spends the information added since its last look (the
        runs it had then; a first look at several runs at once spends what they all add), or, at its last, all
        that is left."""
        m = self.model
        n, boots = len(values), self.boots(cid)
        after = 1.0 if last else self.fraction(cid, n, boots)
        return sequential.decide(self.criteria[cid], values, self.tolerances[cid], post,
                                 m.q_pass_at(post.df_of(n, boots), self._looked.get(cid, 0.0), after),
                                 m.q_fail(post.df_of(n, boots, fail=True), self.judged, n), last, boots)  # fmt: skip

    def _passes_at_value(self, cid: str, post: Posterior, runs: int, boots: int) -> bool:
        """Whether a board exactly at the published value passes at `runs` runs in `boots` boots."""
        c = self.criteria[cid]
        q = self.q_pass(cid, post.df_of(runs, boots), runs, boots, self._planned(runs - 1, boots))
        d = sequential.decide(c, [c.value] * runs, self.tolerances[cid], post, q, math.inf, True, boots)
        return d.verdict == sequential.PASS

    def _boot_helps(self, cid: str, post: Posterior) -> bool:
        """Part of its noise lies between boots: its next runs, after a fresh boot, shrink its standard error more than
        in this boot (never less), as its decidability was planned (decision.suite_decision.SuiteSequence.limit)."""
        n = len(self.samples.get(cid, []))
        return post.between > 0 and n < self.max_runs(cid)

    def could_pass(self, cid: str, post: Posterior, runs: int | None = None, boots: int | None = None) -> bool:
        """Whether a board exactly at the published value passes within the criterion's runs (at any look up to
        them), with this noise, over the boots it had (or `boots`)."""
        n = runs or self.max_runs(cid)
        b = boots or self.boots(cid)
        return any(self._passes_at_value(cid, post, k, b) for k in range(1, n + 1))

    def _at_the_end(self, cid: str, d: Decision, post: Posterior) -> Final:
        """A criterion still undecided when its command may not run again: inconclusive, unless it is LIMITED and its
        median holds the tolerance its runs can decide (what the data supports: listed apart, never a FAIL on it)."""
        lim = self.limits.get(cid)
        if d.verdict != sequential.INCONCLUSIVE:
            return Final(d, lim)
        if post.tail and lim is None:
            # a maximum its runs did not decide at its tolerance: the median of its runs, held to its own tolerance
            # (one run's rare long latency does not move it; a median past it stays inconclusive: news)
            if d.margin >= 0:
                why = (f"undecided after {d.runs} runs, as a maximum with its noise must be: the median of its runs "
                       f"holds its own {self.own_tolerances[cid].relative * 100:g}% tolerance")  # fmt: skip
                return Final(replace(d, verdict=sequential.PASS, reason=why), lim)
            return Final(replace(d, reason=f"{d.reason}; the median of its maxima is past its tolerance"), lim)
        if lim is None:
            return Final(d, lim)
        if d.margin >= 0:
            why = f"LIMITED, undecided after {d.runs} runs: its median holds the {lim.tolerance * 100:.1f}% tolerance"
            return Final(replace(d, verdict=sequential.PASS, reason=why), lim)
        return Final(d, lim)
