"""What a run records of its baseline: run.json's `baseline` (which run, or why none), each criterion's `baseline`
object in metrics.json (its verdict, change, interval and the smallest change it could detect), and whether a `worse`
fails its test (`-v BASELINE_GATES:true`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from perfgate.baseline import config, noise, rule, select
from perfgate.decision import artefacts
from perfgate.model import Criterion


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
    _done: dict[str, rule.Change] = field(default_factory=dict)

    @classmethod
    def open(cls, spec: str | None, board: str, virtual: bool, lab: str, release: str, run: str,
             criteria: list[Criterion], gates: bool = False) -> Against:  # fmt: skip
        """The run's baseline (PerfgateError for a named run that cannot be one) and the family it is held to."""
        baseline, reason = select.choose(spec, board, virtual, lab, release, exclude=run)
        cfg = config.load()
        have = [c for c in criteria if baseline and select.key(c.id, board) in baseline.values]
        m = len(have) + len({c.suite for c in have})  # the family: every criterion and every suite compared
        runs = select.board_runs(board, virtual, lab, exclude=run) if baseline else {}
        return cls(baseline, cfg, board, max(m, 1), gates, reason, runs, frozenset(artefacts.find(criteria)))

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
        return (f"perfgate: against the baseline run {b.label} ({b.how}, SDK {b.release}, lab {b.lab}): "
                f"{self.compared} criteria compared; a worse one {'FAILS' if self.gates else 'is reported'} "
                f"(BASELINE_GATES:{'true' if self.gates else 'false'})")  # fmt: skip

    def change(self, c: Criterion, values: list[float]) -> rule.Change | None:
        """The criterion's comparison with the baseline (None without a baseline run)."""
        if self.baseline is None:
            return None
        if c.id not in self._done:
            before = self.baseline.values.get(select.key(c.id, self.board), [])
            self._done[c.id] = rule.compare(before, values, c.direction, self.noise_of(c), self.cfg, self.compared)
        return self._done[c.id]

    def entry(self, c: Criterion, values: list[float]) -> dict:
        """metrics.json's `baseline` of a measured criterion ({} without a baseline run)."""
        ch = self.change(c, values)
        if ch is None or self.baseline is None:
            return {}
        return {"baseline": {"run": self.baseline.run, **ch.to_json()}}

    def suites(self, criteria: list[Criterion], samples: dict[str, list[float]]) -> dict[str, dict]:
        """run.json's `baseline.suites`: each suite's change against the baseline run, its rows averaged
        (perfgate.baseline.rule.combine: + is better)."""
        if self.baseline is None:
            return {}
        rows: dict[str, list] = {}
        for c in criteria:
            before = self.baseline.values.get(select.key(c.id, self.board))
            if before and samples.get(c.id):
                rows.setdefault(c.suite, []).append((before, samples[c.id], c.direction, self.noise_of(c)))
        out = {}
        for suite, parts in rows.items():
            ch = rule.combine(parts, self.cfg, self.compared)
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

    def fails(self, c: Criterion, values: list[float]) -> str | None:
        """Why the criterion's test fails on its baseline (BASELINE_GATES:true and `worse`), None when it does not."""
        ch = self.change(c, values)
        if not self.gates or ch is None or ch.verdict != rule.WORSE or self.baseline is None:
            return None
        return f"worse than the baseline run {self.baseline.label} (BASELINE_GATES:true): {ch.describe()}"
