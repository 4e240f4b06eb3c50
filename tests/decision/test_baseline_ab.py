"""Two builds side by side (perfgate.baseline.ab): boots of build A and build B interleaved, drawn as the simulated
board draws its runs (perfgate.sim.values.draw around the published values, each boot with its own offset), each
criterion decided by the two-sample rule within a budget of boots; and `perfgate ab`, each boot a robot run."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from perfgate import cli, criteria, paths
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


@pytest.mark.slow
def test_perfgate_ab_boots_the_builds_in_turn_through_robot(tmp_path: Path, capsys) -> None:
    """`perfgate ab` on the simulated board: build B is a configuration (one nbench row 5 % slower); each boot is a
    robot run of the gate's nbench suite, A and B in turn; B is worse in that row and no other, exit 1; ab.json and
    every boot's output are kept, and no boot enters the board's own history."""
    fault = "FAULTS:degrade:am62xx_sk.nbench.nbench-benchmarks.idea-*:5"
    rc = cli.main(["ab", str(paths.root() / "suites" / "system" / "nbench.robot"), "--board", "am62xx_sk",
                   "--a", "SIM_SPEED:20", "--b", "SIM_SPEED:20", "--b", fault, "--max-boots", "3",
                   "--out", str(tmp_path / "ab")])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 1, out
    report = json.loads((tmp_path / "ab" / "ab.json").read_text())
    worse = {c["name"] for c in report["criteria"].values() if c["verdict"] == "worse"}
    assert worse == {"idea (iterations)"} and len(report["criteria"]) == 9
    assert report["order"][:4] == ["A", "B", "A", "B"] and (tmp_path / "ab" / "B-2.console.txt").exists()
    assert "worse: 1" in out and "idea (iterations)" in out
    assert list((tmp_path / "ab").glob("results-A/virtual/am62xx_sk/history.jsonl"))  # their own results tree
