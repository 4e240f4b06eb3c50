"""Two builds side by side on one board: build B gated against build A, their runs interleaved (A, B, A, B: each a
fresh boot brought up by the lab), so that drift and temperature fall on both, each criterion decided by the
two-sample rule (perfgate.baseline.rule) sequentially within a budget of boots.

Each boot's values of a criterion are reduced to their geometric mean: a build's boots are then independent draws
(the boot's own offset included), and the rule compares the two builds' boot means, their noise the boots' own
spread shrunk towards the class figure for one boot mean (sd^2 + between^2: as if a boot gave one value, the
cautious side). After every pair of boots each
undecided criterion is looked at again, look k held to alpha_worse / (m x 2^k) and alpha_same / 2^k, so that all
the looks together spend no more than one (a criterion's decision once reached is final). What is still undecided
when the budget of boots is spent is `undecided`, with the smallest regression those boots could have found. A
criterion build A measured in every boot and build B in none of its (at least min_boots) is `worse`: B cannot run it.

What is here is the rule and its loop over a `boot(build, ids)` callable: `perfgate ab` (perfgate.commands.ab) boots
each build as a robot run of the gate's suites in the lab; benchmarks/baseline_rates.py --ab draws boots in process
as the simulated board draws its runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from perfgate.baseline import rule
from perfgate.baseline.config import ClassNoise, Config
from perfgate.model import Criterion

Boot = Callable[[str, list[str]], dict[str, list[float]]]  # (build "A" or "B", criterion ids) -> values of one boot


def geomean(values: list[float]) -> float:
    """The geometric mean of positive values."""
    return math.exp(sum(math.log(v) for v in values) / len(values))


@dataclass
class Outcome:
    change: rule.Change
    boots: int  # boots of each build it was decided on
    look: int


@dataclass
class ABRun:
    criteria: dict[str, Criterion]
    noise: dict[str, ClassNoise]
    cfg: Config
    min_boots: int = 2
    max_boots: int = 10
    means: dict[str, dict[str, list[float]]] = field(default_factory=lambda: {"A": {}, "B": {}})
    final: dict[str, Outcome] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the builds in the order they were booted

    @property
    def m(self) -> int:
        return max(len(self.criteria), 1)

    def run(self, boot: Boot, first_a: dict[str, list[float]] | None = None) -> dict[str, Outcome]:
        """Boot A then B, again and again, while any criterion is undecided and the budget allows (`first_a`: the
        values of A's first boot, when it was booted already)."""
        look = 0
        for pair in range(1, self.max_boots + 1):
            ids = [cid for cid in self.criteria if cid not in self.final]
            if not ids:
                break
            for build in ("A", "B"):
                self.order.append(build)
                given = build == "A" and pair == 1 and first_a is not None
                for cid, vals in (first_a if given else boot(build, ids)).items():  # type: ignore[union-attr]
                    positive = [v for v in vals if v > 0]
                    if cid in self.criteria and positive:
                        self.means[build].setdefault(cid, []).append(geomean(positive))
            if pair < self.min_boots and pair < self.max_boots:
                continue
            look += 1
            last = pair == self.max_boots
            for cid in ids:
                ch = self.judge(cid, look)
                if ch.verdict != rule.UNDECIDED or last:
                    self.final[cid] = Outcome(ch, pair, look)
        return self.final

    def judge(self, cid: str, look: int) -> rule.Change:
        """The criterion's change at look `look`, its boots' means compared (spending alpha / 2^look)."""
        n = self.noise[cid]
        one_boot = replace(n, sd=math.hypot(n.sd, n.between), between=0.0, between_df=None)
        cfg = replace(self.cfg, alpha_same=self.cfg.alpha_same / 2**look)
        a, b = self.means["A"].get(cid, []), self.means["B"].get(cid, [])
        booted = self.order.count("B")
        if not b and a and len(a) == self.order.count("A") and booted >= self.min_boots:
            # what build A measured in every boot and build B in none of its boots: B cannot run it (a gate fails a
            # criterion it did not measure)
            return rule.Change(rule.WORSE, None, None, None, 1 - 2 * cfg.alpha_same, n.tolerance, None, 0, 0, None,
                               n.between, None, n.name, f"build B measured nothing in its {booted} boots, build A in "
                               f"each of its {len(a)}")  # fmt: skip
        return rule.compare(a, b, self.criteria[cid].direction, one_boot, cfg, self.m * 2**look)
