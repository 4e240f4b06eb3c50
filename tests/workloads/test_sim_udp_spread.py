"""The simulated board's UDP rows stray as the sim means them to (perfgate.sim.spread), read through the Ethernet
workload's own RFC 2544 searches and unlimited runs on the sim's shell: a plumbing check of the simulator's noise, not
of a parser. Two defects it guards against: a trial of a rate search drew the board's capacity afresh (the search's
answer averaged its trials' draws), and a throughput printed in datagram bytes (not the published frame figure) lost
its criterion and strayed as an unknown metric (2 % where its row says 9-18 %). Each failed here before its fix."""

from __future__ import annotations

import math
import random
import statistics

from test_workloads_system import SimContext

from perfgate import criteria
from perfgate.sim import answers as sim_answers
from perfgate.sim import data as sim_data
from perfgate.sim import faults as sim_faults
from perfgate.sim import shell
from perfgate.sim import spread as sim_spread
from perfgate.workloads import ethernet

BOARD = "am62xx_sk"


def _throughputs(runs: int, reboot: bool, seed: int) -> tuple[dict[str, list[float]], sim_answers.Answers, list]:
    release = criteria.default_release(BOARD)
    crits = [c for c in criteria.load(BOARD, "ethernet", release=release) if "udp" in c.table.lower()]
    ctx = SimContext(BOARD, seed=seed)
    ctx.data = sim_data.load(BOARD, sim_faults.parse(""), release=release)
    ctx.answers = sim_answers.Answers(ctx.data, random.Random(seed), sim_spread.load(regime="realistic"))
    ctx.shell = shell.Board(ctx.data, ctx.answers, speed=10000.0)
    got: dict[str, list[float]] = {}
    ctx.answers.sampler.boot()
    for _ in range(runs):
        if reboot:
            ctx.answers.sampler.boot()
        m = ethernet.WORKLOAD.measure(crits, ctx)
        for c in crits:
            if c.metric.lower().startswith("throughput") and m.values.get(c.id):
                got.setdefault(c.id, []).append(m.values[c.id])
    return got, ctx.answers, crits


def _ratios(got: dict[str, list[float]], answers: sim_answers.Answers, crits: list, within: bool,
            kind: str) -> list[float]:  # fmt: skip
    out = []
    for c in crits:
        v = got.get(c.id, [])
        if kind not in c.table.lower() or len(v) < 6:
            continue
        row = answers.spread.row(c)
        meant = row.sd * math.sqrt(1 - row.between) if within else row.sd
        out.append(statistics.stdev(math.log(x) for x in v) / meant)
    return out


def test_udp_throughputs_stray_across_boots_as_the_sim_sets_them() -> None:
    got, answers, crits = _throughputs(12, reboot=True, seed=5)
    for kind in ("0 loss", "possible loss"):  # the RFC 2544 search's answer; the unlimited run's datagram bytes
        ratios = _ratios(got, answers, crits, within=False, kind=kind)
        assert len(ratios) >= 4, (kind, ratios)
        assert 0.6 <= statistics.median(ratios) <= 1.5, (kind, sorted(ratios))


def test_the_trials_of_one_rate_search_share_one_draw_of_the_board() -> None:
    """Within one boot the searches' answers stray by the within-boot part of the row's noise, not a fraction of it."""
    got, answers, crits = _throughputs(12, reboot=False, seed=7)
    ratios = _ratios(got, answers, crits, within=True, kind="0 loss")
    assert len(ratios) >= 4 and 0.6 <= statistics.median(ratios) <= 1.5, sorted(ratios)
