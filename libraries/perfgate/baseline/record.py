"""What a run records of its baseline: run.json's `baseline` (which run, or why none), each criterion's `baseline`
object in metrics.json (its verdict, change, interval and the smallest change it could detect), and whether a `worse`
fails its test (`-v BASELINE_GATES:true`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from perfgate.baseline import config, rule, select
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
    _done: dict[str, rule.Change] = field(default_factory=dict)

    @classmethod
    def open(cls, spec: str | None, board: str, virtual: bool, lab: str, release: str, run: str,
             criteria: list[Criterion], gates: bool = False) -> Against:  # fmt: skip
        """The run's baseline (PerfgateError for a named run that cannot be one) and the family it is held to."""
        baseline, reason = select.choose(spec, board, virtual, lab, release, exclude=run)
        cfg = config.load()
        m = sum(1 for c in criteria if baseline and select.key(c.id, board) in baseline.values)
        return cls(baseline, cfg, board, max(m, 1), gates, reason)

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
            self._done[c.id] = rule.compare(before, values, c.direction, self.cfg.of(c), self.cfg, self.compared)
        return self._done[c.id]

    def entry(self, c: Criterion, values: list[float]) -> dict:
        """metrics.json's `baseline` of a measured criterion ({} without a baseline run)."""
        ch = self.change(c, values)
        if ch is None or self.baseline is None:
            return {}
        return {"baseline": {"run": self.baseline.run, **ch.to_json()}}

    def fails(self, c: Criterion, values: list[float]) -> str | None:
        """Why the criterion's test fails on its baseline (BASELINE_GATES:true and `worse`), None when it does not."""
        ch = self.change(c, values)
        if not self.gates or ch is None or ch.verdict != rule.WORSE or self.baseline is None:
            return None
        return f"worse than the baseline run {self.baseline.label} (BASELINE_GATES:true): {ch.describe()}"
