"""What a run records of its baseline: run.json's `baseline` (which run, or why none), each criterion's `baseline`
object in metrics.json (its verdict, change, interval and the smallest change it could detect), and whether a `worse`
fails its test (`-v BASELINE_GATES:true`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from perfgate.baseline import config, noise, rule, select
from perfgate.decision import artefacts
from perfgate.model import Criterion


def by_boot(values: list[float], boots: list[int] | None) -> list[list[float]]:
    """A run's values of a criterion split by the boot each was measured in (in order of the boots)."""
    if not values:
        return []
    if not boots or len(boots) != len(values):
        return [list(values)]
    out: dict[int, list[float]] = {}
    for v, b in zip(values, boots, strict=True):
        out.setdefault(b, []).append(v)
    return list(out.values())


@dataclass
class Against:
    """The run's comparison with its baseline (None: there is none, `reason` says why)."""

    baseline: select.Baseline | None
    cfg: config.Config
    board: str
    compared: int = 1  # m: the criteria of the run the baseline has values for
    gates: bool = False
    reason: str = ""
    history: dict[str, list[list[float]]] = field(default_factory=dict)  # key -> values of each accepted run
    artefacts: frozenset[str] = frozenset()  # criteria whose published min/max is not a spread
    looks: int = 1  # the boots a criterion may have (budget.yaml max_boots): a look at each spends part of alpha
    _done: dict[str, rule.Change] = field(default_factory=dict)

    @classmethod
    def open(cls, spec: str | None, board: str, virtual: bool, lab: str, release: str, run: str,
             criteria: list[Criterion], gates: bool = False, looks: int = 1) -> Against:  # fmt: skip
        """The run's baseline (PerfgateError for a named run that cannot be one) and the family it is held to."""
        cfg = config.load()
        baseline, reason = select.choose(spec, board, virtual, lab, release, exclude=run, pool=cfg.baseline_runs)
        have = [c for c in criteria if baseline and select.key(c.id, board) in baseline.values]
        m = len(have) + len({c.suite for c in have})  # the family: every criterion and every suite compared
        runs = select.board_runs(board, virtual, lab, exclude=run) if baseline else {}
        return cls(baseline, cfg, board, max(m, 1), gates, reason, runs, frozenset(artefacts.find(criteria)), looks)

    def noise_of(self, c: Criterion) -> config.ClassNoise:
        """The criterion's noise: its class's, or the board's own once its history has enough accepted runs."""
        runs = self.history.get(select.key(c.id, self.board), [])
        return noise.of_criterion(c, self.cfg, c.id in self.artefacts, runs)

    def meta(self) -> dict:
        """run.json's `baseline`: the run compared with (and how it was chosen), or why there is none."""
        if self.baseline is None:
            return {"run": None, "reason": self.reason, "gates": self.gates}
        return {**self.baseline.describe(), "compared": self.compared, "gates": self.gates,
                "rule": self.cfg.source}  # fmt: skip

    def console(self) -> str:
        if self.baseline is None:
            return f"perfgate: against a baseline: none ({self.reason})"
        b = self.baseline
        pooled = f", {len(b.runs)} accepted runs pooled" if len(b.runs) > 1 else ""
        return (f"perfgate: against the baseline run {b.label} ({b.how}{pooled}, SDK {b.release}, lab {b.lab}): "
                f"{self.compared} criteria compared; a worse one {'FAILS' if self.gates else 'is reported'} "
                f"(BASELINE_GATES:{'true' if self.gates else 'false'})")  # fmt: skip

    def change(self, c: Criterion, values: list[float], boots: list[int] | None = None) -> rule.Change | None:
        """The criterion's comparison with the baseline (None without a baseline run); `boots`: the boot of each value
        (the gate boots again while a criterion is undecided), one boot when not given. Look k (k boots) of at most
        `looks` spends alpha / 2^k (the last, alpha / 2^(looks - 1)), so the looks together spend alpha."""
        if self.baseline is None:
            return None
        if c.id not in self._done:
            before = self.baseline.groups(select.key(c.id, self.board))
            now = by_boot(values, boots)
            look = min(max(len(now), 1), self.looks)
            spend = 1 if self.looks <= 1 else 2 ** min(look, self.looks - 1)
            self._done[c.id] = rule.compare_groups(before, now, c.direction, self.noise_of(c), self.cfg,
                                                   self.compared * spend)  # fmt: skip
        return self._done[c.id]

    def wants_boot(self, c: Criterion, values: list[float], boots: list[int] | None, booted: int) -> bool:
        """Whether the criterion's baseline verdict is undecided after `booted` boots of its suite while another may
        follow (the sequential rule: the runner boots again for it, within budget.yaml's max_boots)."""
        if self.baseline is None or booted >= self.looks or not values:
            return False
        self._done.pop(c.id, None)
        ch = self.change(c, values, boots)
        self._done.pop(c.id, None)  # the run goes on: its verdict is made again on what it ends with
        return ch is not None and ch.verdict == rule.UNDECIDED and ch.change_pct is not None

    def forget(self) -> None:
        """Drop the comparisons made so far (the run has more values now)."""
        self._done.clear()

    def entry(self, c: Criterion, values: list[float], boots: list[int] | None = None) -> dict:
        """metrics.json's `baseline` of a measured criterion ({} without a baseline run)."""
        ch = self.change(c, values, boots)
        if ch is None or self.baseline is None:
            return {}
        return {"baseline": {"run": self.baseline.run, **ch.to_json()}}

    def suites(self, criteria: list[Criterion], samples: dict[str, list[float]],
               boots: dict[str, list[int]] | None = None) -> dict[str, dict]:  # fmt: skip
        """run.json's `baseline.suites`: each suite's change against the baseline, its rows averaged
        (perfgate.baseline.rule.combine_groups: + is better)."""
        if self.baseline is None:
            return {}
        rows: dict[str, list] = {}
        for c in criteria:
            before = self.baseline.groups(select.key(c.id, self.board))
            if before and samples.get(c.id):
                now = by_boot(samples[c.id], (boots or {}).get(c.id))
                rows.setdefault(c.suite, []).append((before, now, c.direction, self.noise_of(c)))
        out = {}
        for suite, parts in rows.items():
            look = min(max(len(now) for _, now, _, _ in parts), self.looks)
            spend = 1 if self.looks <= 1 else 2 ** min(look, self.looks - 1)
            ch = rule.combine_groups(parts, self.cfg, self.compared * spend)
            if ch is not None:
                out[suite] = {**ch.to_json(), "rows": len(parts), "text": ch.describe()}
        return out

    def summary(self, entries: list[dict], suites: dict[str, dict]) -> str:
        """The console's line: how the run's criteria and suites compare with the baseline run."""
        assert self.baseline is not None
        by: dict[str, list[str]] = {v: [] for v in rule.VERDICTS}
        for e in entries:
            b = e.get("baseline")
            if isinstance(b, dict) and b.get("verdict") in by:
                by[b["verdict"]].append(str(e.get("name") or e.get("id")))
        worse = by[rule.WORSE][:5] + (["..."] if len(by[rule.WORSE]) > 5 else [])
        bad_suites = [s for s, v in suites.items() if v.get("verdict") == rule.WORSE]
        return (f"perfgate: against the baseline run {self.baseline.label}: "
                + ", ".join(f"{v} {len(by[v])}" for v in rule.VERDICTS)
                + (f"; worse: {', '.join(worse)}" if worse else "")
                + (f"; suites worse: {', '.join(bad_suites)}" if bad_suites else ""))  # fmt: skip

    def fails(self, c: Criterion, values: list[float], boots: list[int] | None = None) -> str | None:
        """Why the criterion's test fails on its baseline (BASELINE_GATES:true and `worse`), None when it does not."""
        ch = self.change(c, values, boots)
        if not self.gates or ch is None or ch.verdict != rule.WORSE or self.baseline is None:
            return None
        return f"worse than the baseline run {self.baseline.label} (BASELINE_GATES:true): {ch.describe()}"
