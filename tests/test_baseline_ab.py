"""Two builds side by side (perfgate.baseline.ab): boots of build A and build B interleaved, drawn as the simulated
board draws its runs (perfgate.sim.values.draw around the published values, each boot with its own offset), each
criterion decided by the two-sample rule within a budget of boots."""

from __future__ import annotations

import math
import random

from perfgate import criteria
from perfgate.baseline import ab, config, rule
from perfgate.model import Criterion
from perfgate.sim import values

CFG = config.load()


def _board() -> tuple[dict[str, Criterion], dict[str, config.ClassNoise]]:
    crits = {c.id: c for c in criteria.select("am62xx_sk", None).criteria if c.suite in ("nbench", "coremark_pro")}
    return crits, {cid: config.ClassNoise("cpu", 0.02, 0.005, 0.005) for cid in crits}


def _boots(crits: dict[str, Criterion], slower: dict[str, float], rng: random.Random, order: list[str]) -> ab.Boot:
    def boot(build: str, ids: list[str]) -> dict[str, list[float]]:
        order.append(build)
        offset = rng.gauss(0.0, 0.005)  # this boot's own: every value of the boot moves with it
        out = {}
        for cid in ids:
            c = crits[cid]
            value = c.value * (1 - slower.get(cid, 0.0) / 100 if build == "B" else 1)
            out[cid] = [values.draw(value, c.direction, rng, 0.004) * math.exp(offset) for _ in range(3)]
        return out

    return boot


def test_build_b_with_one_5_percent_regression_names_that_criterion_and_no_other() -> None:
    crits, noise = _board()
    target = next(cid for cid in crits if cid.endswith("cjpeg-rose7-preset-workloads.perf"))
    rng = random.Random(9)
    for _ in range(5):
        order: list[str] = []
        run = ab.ABRun(crits, noise, CFG, max_boots=10)
        final = run.run(_boots(crits, {target: 5.0}, rng, order))
        worse = [cid for cid, o in final.items() if o.change.verdict == rule.WORSE]
        assert worse == [target]
        change = final[target].change
        assert change.low_pct < change.change_pct < change.high_pct < 0 and -7 < change.change_pct < -3
        assert order[:4] == ["A", "B", "A", "B"] and len(order) == 2 * max(o.boots for o in final.values())
        assert set(final) == set(crits)  # every criterion decided, or undecided at the end of the budget


def test_two_identical_builds_read_the_same_and_stop_early() -> None:
    crits, noise = _board()
    order: list[str] = []
    final = ab.ABRun(crits, noise, CFG, max_boots=10).run(_boots(crits, {}, random.Random(4), order))
    verdicts = [o.change.verdict for o in final.values()]
    assert rule.WORSE not in verdicts and rule.BETTER not in verdicts
    assert verdicts.count(rule.SAME) > len(verdicts) * 0.8 and len(order) < 20
