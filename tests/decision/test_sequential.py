"""The three-way, sequential verdict (perfgate.decision: sequential, pooling, suite_decision): the board's
own noise pooled across a suite with the guide as a prior, Student t with honest degrees of freedom, FAIL held to the
whole gate's error rate and to the guide's own spread, artefact spreads never used, reruns by command within a
budget, criteria the budget cannot hold to their tolerance held to a wider one; variables/noise.yaml and budget.yaml
errors named by line. Where the behaviour changed, each test says what the previous rule (each criterion alone, its
noise the guide's min/max, z = 2 to pass and 3 to fail, whole suites rerun up to REPEAT 3) did with the same data."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from perfgate import criteria
from perfgate.decision import artefacts, budget, noiseclass, pooling, sequential
from perfgate.decision.noiseclass import NoiseClass
from perfgate.decision.suite_decision import Command, SuiteSequence
from perfgate.decision.tolerance import Tolerance
from perfgate.decision.verdict import judge
from perfgate.errors import DataError
from perfgate.model import Criterion

TEN = Tolerance(0.10)
REAL = sequential.load()  # variables/noise.yaml as committed
# The pooling and sequencing machinery on its own: one class for everything, no between-boot part, a row's own
# published spread believed whatever its width (the committed classes and boots: tests/decision/test_noise_realistic.py)
MODEL = replace(REAL, classes=[], default=NoiseClass("default", 0.02, 1.0, between=0.0))


def crit(value: float = 100.0, direction: str = "higher", cid: str = "b.s.t.r.m", **kw) -> Criterion:
    fields = dict(id=cid, name=cid, board="b", guide="g.rst", release="1", chapter="system", suite="s", table="t",
                  row=cid, metric="m", unit="MB/s", value=value, direction=direction)  # fmt: skip
    fields.update(kw)
    return Criterion(**fields)  # type: ignore[arg-type]


def prior(c: Criterion, history: list[float] | None = None) -> pooling.Prior:
    return MODEL.prior(c, history, artefacts.find([c]).get(c.id, ""))


def sequence(crits: list[Criterion], commands: list[Command] | None = None, judged: int = 600,
             repeat: int | None = None) -> SuiteSequence:  # fmt: skip
    commands = commands or [Command("cmd", 10.0, tuple(c.id for c in crits))]
    return SuiteSequence({c.id: c for c in crits}, {c.id: prior(c) for c in crits}, {c.id: TEN for c in crits},
                         MODEL, judged, commands, budget.load(repeat=repeat))  # fmt: skip


def old_rule(c: Criterion, samples: list[float]) -> str:
    """The previous rule on the same data: the median against the threshold in standard errors of the guide's own
    spread (range / 4), 2 to pass, 3 to fail, the median's efficiency for 3 runs or more."""
    sd = (c.max - c.min) / (4 * c.value) if c.min is not None and c.max is not None else 0.02
    n = len(samples)
    med = sorted(samples)[n // 2] if n % 2 else sum(sorted(samples)[n // 2 - 1 : n // 2 + 1]) / 2
    thr = c.value * 0.9 if c.direction == "higher" else c.value * 1.1
    m = math.log(med / thr) if c.direction == "higher" else math.log(thr / med)
    z = m / (sd * (math.sqrt(math.pi / 2) if n > 2 else 1.0) / math.sqrt(n))
    return sequential.PASS if z >= 2 else sequential.FAIL if z <= -3 else sequential.INCONCLUSIVE


# -- the guide's spread: a prior, or nothing when it is an artefact ----------------------------------------------


def test_the_guides_spread_is_the_prior_shape_and_the_class_where_a_suite_cannot_pool() -> None:
    """A row's published spread is read as the range of its few runs (range / d2(N), N from its cells' arithmetic or
    4 assumed), believed within its class's [sd / 2, p90], and is its prior's shape and fallback; a row with none
    takes its class; history (3 runs or more) replaces the fallback."""
    withrange = [c for c in criteria.select("am62xx_sk", None).criteria if c.min is not None and c.max is not None]
    c = next(c for c in withrange if not artefacts.find(withrange).get(c.id) and REAL.class_of(c).name == "cpu-suite")
    p = REAL.prior(c)
    k = REAL.class_of(c)
    raw = noiseclass.guide_sd(c)
    assert raw is not None and p.source.startswith("guide min/max (")
    assert p.shape == pytest.approx(min(max(raw[0], k.sd / 2), k.p90)) and p.fallback == p.shape
    net = crit(chapter="network")
    assert REAL.prior(net).source == "class network" and REAL.prior(net).shape == 0.07
    assert REAL.prior(net).between == 0.5
    assert REAL.prior(crit(), [100.0, 104.0, 96.0]).fallback_source == "history (3 runs)"
    assert REAL.prior(crit(), [100.0, 104.0]).fallback_source == "class cpu"  # two runs are no history


def test_a_cells_arithmetic_tells_its_run_count() -> None:
    """12.33 (min 12, max 13): 3 runs (37 / 3); 12.5 (min 12, max 13): 2 runs; a mean with no decimals tells
    nothing (4 runs assumed); the range over d2(N), not over 4."""
    assert noiseclass.runs_of(crit(value=12.33, min=12.0, max=13.0)) == 3
    assert noiseclass.runs_of(crit(value=12.5, min=12.0, max=13.0)) == 2
    assert noiseclass.runs_of(crit(value=12.0, min=11.0, max=13.0)) is None
    sd, how = noiseclass.guide_sd(crit(value=12.5, min=12.0, max=13.0))  # type: ignore[misc]
    assert sd == pytest.approx(1 / (1.128 * 12.5)) and how == "2 runs by its cells' arithmetic"


def test_artefact_spreads_are_found_and_never_used_as_noise() -> None:
    """am62xx_sk 12.00.00: TI's paired bw_mem rows, the 1.00 MB latency's min 0.00, a min copied from another row.
    The previous rule took bzero-1mb's noise from its min/max (789.89..2127.28 around 1427.89: 23 %)."""
    crits = criteria.select("am62xx_sk", "12.00.00").criteria
    found = artefacts.find(crits)
    by_row = {c.row: c for c in crits}
    bzero = by_row["bw_mem-bzero-1mb (mb/s)"]
    assert "mean of two operations (bzero and bcopy)" in found[bzero.id]
    assert by_row["bw_mem-bcopy-1mb (mb/s)"].id not in found  # its min is its own; bzero-1mb copied it
    zero = next(c for c in crits if "1.00" in c.row and c.min == 0)
    assert "min is 0" in found[zero.id]
    assert sum("two operations" in why for why in found.values()) == 32
    p = REAL.prior(bzero, None, found[bzero.id])
    assert p.source == "class memory-bandwidth" and p.artefact  # its class, not 23 %


def test_a_shared_extreme_needs_four_digits() -> None:
    a = crit(cid="a", min=1234.5, max=2000.0, table="T")
    b = crit(cid="b", min=1000.0, max=1234.5, table="T")
    small = [crit(cid="c", min=1.5, max=2.0, table="T"), crit(cid="d", min=1.0, max=1.5, table="T")]
    found = artefacts.find([a, b, *small])
    assert set(found) == {"a", "b"} and "verbatim the max of 'b'" in found["a"]


# -- the board's own noise, pooled across its suite ---------------------------------------------------------------


def suite_rows(n: int, sd: float, runs: int, guide: float = 0.10) -> tuple[list[Criterion], dict[str, list[float]]]:
    """n rows published at 100 with a guide spread of `guide`, each measured `runs` times with relative noise sd
    (deterministic: +sd, -sd, 0, ...)."""
    crits = [crit(cid=f"r{i}", min=100 * (1 - 2 * guide), max=100 * (1 + 2 * guide)) for i in range(n)]
    pattern = [1.0, -1.0, 0.0, 0.5, -0.5]
    samples = {c.id: [100 * math.exp(sd * pattern[k % 5]) for k in range(runs)] for c in crits}
    return crits, samples


def test_a_board_quieter_than_the_guide_passes_on_its_own_noise() -> None:
    """Ten rows 4 % better than their threshold, the board's noise about 1 % in three runs each, the guide's spread
    10 %: the previous rule reads inconclusive (4 % is 0.4 guide sd); pooled, the board's own noise decides pass."""
    crits, samples = suite_rows(10, 0.01, 3)
    for c in crits:
        samples[c.id] = [x * 0.94 for x in samples[c.id]]  # 94 against a threshold of 90
    seq = sequence(crits)
    seq.samples = {k: list(v) for k, v in samples.items()}
    assert seq.step() == []
    assert {f.decision.verdict for f in seq.final.values()} == {sequential.PASS}
    assert old_rule(crits[0], samples[crits[0].id]) == sequential.INCONCLUSIVE
    post = seq.final[crits[0].id].decision.noise
    assert post is not None and post.sd < 0.02 and "pooled over 10 rows" in post.source


def test_a_row_with_one_run_borrows_its_suites_noise() -> None:
    """One row measured once at 95 (threshold 90), its nine neighbours three times at about 1 %: alone, one run and
    the guide's 10 % cannot decide it (the previous rule: inconclusive); with its suite's noise it passes."""
    crits, samples = suite_rows(10, 0.01, 3)
    samples["r0"] = [95.0]
    seq = sequence(crits)
    seq.samples = samples
    seq.step()
    assert seq.final["r0"].decision.verdict == sequential.PASS
    assert seq.final["r0"].decision.runs == 1
    assert old_rule(crits[0], [95.0]) == sequential.INCONCLUSIVE


def test_fail_holds_the_whole_gate_to_its_error_rate() -> None:
    """The same evidence that fails one criterion judged alone does not fail one of 600: the t quantile grows with
    the number of criteria judged (Bonferroni over the gate), and with fewer degrees of freedom."""
    assert MODEL.q_fail(30, 600) > MODEL.q_fail(30, 1) >= MODEL.q_pass(30)
    assert MODEL.q_fail(5, 600) > MODEL.q_fail(30, 600)
    c = crit()
    post = pooling.Posterior(0.02, 30, 0.02, 31, "test")
    samples = [86.0, 86.5, 85.5]  # 4.4 % under the threshold, 3 runs at 2 %: 3.8 standard errors
    alone = sequential.decide(c, samples, TEN, post, MODEL.q_pass(30), MODEL.q_fail(31, 1), True)
    gate = sequential.decide(c, samples, TEN, post, MODEL.q_pass(30), MODEL.q_fail(31, 600), True)
    assert alone.verdict == sequential.FAIL and gate.verdict == sequential.INCONCLUSIVE
    assert "needed" in gate.reason and "30 df" in gate.reason


def test_a_lucky_narrow_sample_does_not_fail_a_row_the_guide_says_is_noisy() -> None:
    """Two identical runs 8 % under the threshold of a row whose guide spread is 30 %: its own variance is 0, but
    the guide's spread as a weak prior keeps a FAIL from resting on it."""
    wild = crit(min=40.0, max=160.0)  # a 30 % spread
    quiet = crit(cid="q", min=98.0, max=102.0)  # 1 %
    for c, verdict in ((wild, sequential.INCONCLUSIVE), (quiet, sequential.FAIL)):
        p = prior(c)
        post = pooling.posterior(p, [82.0, 82.0, 82.0], pooling.SuitePool(0.01, 30, 20, 40, 0.0), MODEL.pool)
        assert post.sd_fail > post.sd if c is wild else True
        d = sequential.decide(c, [82.0, 82.0, 82.0], TEN, post, MODEL.q_pass(post.df),
                              MODEL.q_fail(post.df_fail, 600), True)  # fmt: skip
        assert d.verdict == verdict, (c.id, d)


def test_the_pooled_prior_follows_the_shapes_as_far_as_the_rows_do() -> None:
    """Rows whose noise follows the guide's spreads get a prior that follows them; rows alike whatever the guide
    says (a capped simulated spread) get a flat one; the degrees of freedom say how well it fits."""
    crits = [crit(cid=f"r{i}", min=100 - 40 * g, max=100 + 40 * g) for i, g in enumerate([0.01, 0.02, 0.05, 0.1] * 3)]
    priors = {c.id: prior(c) for c in crits}
    pattern = [1.0, -1.0, 0.0, 0.7, -0.7]

    def draws(sd: float) -> list[float]:
        return [100 * math.exp(sd * p) for p in pattern]

    following = pooling.pool(priors, {c.id: draws(priors[c.id].shape / 4) for c in crits}, MODEL.pool)
    flat = pooling.pool(priors, {c.id: draws(0.01) for c in crits}, MODEL.pool)
    assert following.follow == 1.0 and following.k == pytest.approx(0.25, rel=0.2)
    assert flat.follow == 0.0 and flat.nu0 == MODEL.pool.max_prior_df
    # rows the guide prints in two modes (lat_ctx 7-195 us): a boot keeps one mode, so their runs agree to 1 % though
    # their shape (the distance between the modes) is 260 %; fitted with the rest they pulled the suite's prior off
    # the shapes (lmbench's bandwidth rows were held to lat_ctx-like noise); they now follow it without fitting it
    modes = [crit(cid=f"ctx{i}", value=60.0, min=10.0, max=200.0) for i in range(3)]
    priors.update({c.id: prior(c) for c in modes})
    assert all(priors[c.id].two_modes for c in modes) and not any(priors[c.id].two_modes for c in crits)
    runs = {c.id: draws(priors[c.id].shape / 4) for c in crits} | {c.id: draws(0.01) for c in modes}
    mixed = pooling.pool(priors, runs, MODEL.pool)
    assert mixed.follow == 1.0 and mixed.k == pytest.approx(0.25, rel=0.2) and mixed.rows == len(crits)


def test_the_shapes_are_left_only_for_a_fit_better_by_more_than_chance() -> None:
    """Rows of a suite that mixes classes (eMMC reads at 3.5 %, writes at 15 %), each straying as its shape says,
    four runs each: their log variances scatter by chance (three degrees of freedom), and the previous rule took
    whichever prior they scattered least around, so a draw like this one (reads a little noisier, writes a little
    quieter) took a prior that follows the shapes only part way, holding the quiet reads to more noise than they
    have (undecided healthy gates); the shapes now stand unless another fit is better by more than the scatter's
    sampling error."""
    shapes = [0.035, 0.15] * 4
    crits = [crit(cid=f"r{i}", min=100 * (1 - 1.03 * g), max=100 * (1 + 1.03 * g)) for i, g in enumerate(shapes)]
    priors = {c.id: prior(c) for c in crits}
    luck = [[1.2, -1.2, 0.4, -0.4], [0.7, -0.7, 0.7 / 3, -0.7 / 3]] * 4
    runs = {c.id: [100 * math.exp(priors[c.id].shape * z) for z in luck[i]] for i, c in enumerate(crits)}
    got = pooling.pool(priors, runs, MODEL.pool)
    assert got.follow == 1.0


# -- reruns by command, within a budget -------------------------------------------------------------------------


def test_only_the_command_of_an_undecided_criterion_runs_again() -> None:
    """Two commands: one's rows are decided in the first run, the other's sits at its threshold. The previous rule
    reran the whole suite; now only the undecided command runs again (with all its rows: their values feed the
    pool, their decisions are final)."""
    fast = [crit(cid=f"f{i}") for i in range(4)]
    slow = [crit(cid="s0"), crit(cid="s1")]
    seq = sequence(fast + slow, [Command("a", 10.0, ("f0", "f1", "f2", "f3")), Command("b", 10.0, ("s0", "s1"))])
    seq.add({"f0": 100.0, "f1": 101.0, "f2": 99.0, "f3": 100.0, "s0": 91.0, "s1": 100.0})
    again = seq.step()
    assert sorted(again) == ["s0", "s1"]
    assert seq.final["s1"].decision.verdict == sequential.PASS  # decided: final, though its command runs again
    assert "s0" not in seq.final


def test_short_commands_get_more_runs_than_long_ones_and_repeat_caps_them() -> None:
    b = budget.load()
    assert b.runs_for(3) == b.max_runs == 20 and b.runs_for(600) == b.min_runs == 4
    assert b.runs_for(20) == 9
    assert budget.load(repeat=2).runs_for(3) == 2  # REPEAT: the user's cap
    assert b.rerun_seconds(10) == b.rerun_floor and b.rerun_seconds(3600) == 3600 * b.rerun_share


def until_final(seq: SuiteSequence, draw: Callable[[str, int], float]) -> None:
    ids = list(seq.criteria)
    while ids:
        seq.add({cid: draw(cid, len(seq.samples.get(cid, []))) for cid in ids})
        ids = seq.step()


def test_a_criterion_the_budget_cannot_decide_is_held_to_what_its_runs_can_decide() -> None:
    """Twelve rows whose run-to-run noise follows the guide's spreads at half their width; one row's guide spread is
    60 % against a 10 % tolerance: no run the budget allows could give a healthy board a pass at 10 % (the previous
    rule: judged against the guide's worst, 40). It is LIMITED from the start: held to the tolerance its
    runs can decide, said with the smallest regression it fails; its runs
    (around its published value) pass that."""
    spreads = [0.002, 0.005, 0.01] * 4
    rows = [crit(cid=f"r{i}", min=100 - 200 * g, max=100 + 200 * g) for i, g in enumerate(spreads)]
    wide = crit(cid="wide", min=40.0, max=280.0)
    seq = sequence([*rows, wide], [Command("c", 300.0, tuple(c.id for c in [*rows, wide]))])
    assert set(seq.limits) == {"wide"}
    lim = seq.limits["wide"]
    assert lim.tolerance > 0.10 and lim.detectable_pct > lim.tolerance * 100
    assert lim.threshold == pytest.approx(100 * (1 - lim.tolerance)) and "held instead to the" in lim.reason
    pattern = [1.0, -1.0, 0.0, 0.7, -0.7]
    shape = {c.id: seq.priors[c.id].shape / 2 for c in [*rows, wide]}
    wild = [92.0, 130.0, 78.0, 110.0, 95.0]
    until_final(seq, lambda cid, k: wild[k % 5] if cid == "wide" else 100 * math.exp(shape[cid] * pattern[k % 5]))
    final = seq.final["wide"]
    assert final.decision.verdict == sequential.PASS and final.limited is lim, final
    assert all(seq.final[c.id].limited is None for c in rows)


def test_a_borderline_value_that_could_have_been_decided_stays_inconclusive() -> None:
    """90.5 against a threshold of 90, run after run at 2 %: it could have been decided at its published value (its
    guide spread is narrow), so it is not held to anything looser; it is inconclusive (news: a borderline
    regression)."""
    c = crit(min=99.0, max=101.0)
    seq = sequence([c], [Command("x", 600.0, (c.id,))])
    assert not seq.limits
    until_final(seq, lambda cid, k: 90.5 * math.exp(0.02 * [-1.0, 1.0, 0.0][k % 3]))
    assert seq.final[c.id].decision.verdict == sequential.INCONCLUSIVE and seq.final[c.id].limited is None
    assert seq.final[c.id].decision.runs == seq.max_runs(c.id) == 3  # 4 runs of 600 s: over its rerun budget


def test_the_margin_is_a_ratio_for_positive_values() -> None:
    """A latency with a long tail: 3x its threshold is as far out as a third of it would be for a throughput."""
    wide = pooling.Posterior(0.5, 10, 0.5, 11, "x")
    lat, bw = crit(10.0, "lower"), crit(10.0, "higher")
    up = sequential.decide(lat, [11.0 * 3], TEN, wide, 2.0, 3.0, True)  # threshold 11
    down = sequential.decide(bw, [9.0 / 3], TEN, wide, 2.0, 3.0, True)  # threshold 9
    assert up.z == pytest.approx(down.z) == pytest.approx(-math.log(3) / 0.5)
    zero = sequential.decide(crit(0.0, "lower"), [0.0], Tolerance(0.1, 0.5), wide, 2.0, 3.0, True)  # plain margin
    assert zero.verdict == sequential.PASS


def test_a_short_tail_latency_run_is_inconclusive_unless_it_already_fails() -> None:
    rt, short, full = crit(100, "lower"), sequential.RunLength(60, 3600), sequential.RunLength(3600, 3600)
    assert "ran 60 s of the guide's 3600 s" in (sequential.short_run(short, fails=False) or "")
    assert sequential.short_run(full, fails=False) is None
    assert sequential.short_run(short, fails=True) is None
    assert sequential.short_run(None, fails=False) is None
    ok, bad = judge(rt, 60.0, TEN), judge(rt, 150.0, TEN)
    assert sequential.with_run_length(ok, rt, TEN, short).verdict == sequential.INCONCLUSIVE
    assert sequential.with_run_length(ok, rt, TEN, full).verdict == ok.verdict == "warn"  # 40 % better than published
    assert "ran 3600 s (1 h) of the guide's" in sequential.with_run_length(ok, rt, TEN, full).message
    assert sequential.with_run_length(bad, rt, TEN, short).verdict == sequential.FAIL


def test_a_value_averaged_over_runs_has_the_noise_of_their_mean() -> None:
    """Boot time: each value is the mean of BOOT_CYCLES boots, so its prior is one boot's over sqrt(cycles); a
    history's values are such means already and keep theirs."""
    boot = crit(10, "lower", chapter="boot")
    one, twenty = MODEL.prior(boot), MODEL.prior(boot, averaged=20)
    assert twenty.fallback == pytest.approx(one.fallback / math.sqrt(20))
    assert "over the mean of 20" in twenty.source
    past = MODEL.prior(boot, [10.0, 10.1, 9.9, 10.05, 9.95], averaged=20)
    assert past.fallback_source == "history (5 runs)" and past == MODEL.prior(boot, [10.0, 10.1, 9.9, 10.05, 9.95])


def test_history_noise_is_read_from_the_boards_passing_hardware_runs(tmp_path: Path) -> None:
    from perfgate.report import history

    def line(run: str, value: float, **kw: object) -> str:
        rec = {"run": run, "started": run, "status": "finished", "verdict": "pass", "faults": None,
               "metrics": {"b.s.t.r.m": {"measured": value}}, **kw}  # fmt: skip
        return json.dumps(rec)

    path = tmp_path / "history.jsonl"
    lines = [line("1", 100.0), line("2", 104.0), line("3", 96.0), line("4", 50.0, verdict="fail"),
             line("5", 10.0, faults="degrade:x:10"), line("6", 1.0, status="interrupted", verdict="incomplete"),
             "not json"]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    values = history.measured_values(path)
    assert values == {"b.s.t.r.m": [[100.0], [104.0], [96.0]]}  # failing, faulted and unfinished runs are no noise
    assert MODEL.prior(crit(), values["b.s.t.r.m"]).fallback == pytest.approx(0.04, rel=0.05)
    # a run recorded with its samples (every run of its command in that boot) gives each of them, as one boot
    sampled = json.dumps({"run": "7", "started": "7", "status": "finished", "verdict": "pass", "faults": None,
                          "metrics": {"b.s.t.r.m": {"measured": 101.0, "samples": [99.0, 101.0, 103.0]}}})  # fmt: skip
    path.write_text("\n".join([*lines, sampled]) + "\n")
    assert history.measured_values(path)["b.s.t.r.m"] == [[100.0], [104.0], [96.0], [99.0, 101.0, 103.0]]
    assert "samples" in history.KEPT


def test_an_aa_campaign_tells_within_from_between_boot_noise() -> None:
    """Four boots of a known-good board, three runs each: runs inside a boot agree within 0.5 %, boots differ by
    about 4 %: the prior takes the history's total noise and its between-boot share in place of the class's."""
    boots = [[100.0 * f * (1 + e) for e in (-0.005, 0.0, 0.005)] for f in (1.0, 1.05, 0.97, 1.02)]
    h = pooling.history_noise(boots)
    assert h is not None and h.runs == 4 and h.samples == 12 and h.between is not None and h.between > 0.95
    p = REAL.prior(crit(), boots)
    assert p.source.startswith("history (12 runs in 4 boots") and p.between == pytest.approx(h.between)
    assert p.between_df == 3.0 and p.fallback == pytest.approx(h.sd) and p.within_df == 8
    flat = pooling.history_noise([[100.0], [104.0], [96.0]])
    assert flat is not None and flat.between is None  # one sample a boot: cannot tell within from between


def test_bad_noise_and_budget_files_name_file_key_and_line(tmp_path: Path) -> None:
    p = tmp_path / "noise.yaml"
    p.write_text("alpha_pass: 0.05\ndefault: 0.02\nclasses:\n  - name: x\n    match: {nope: a}\n    sd: 0.1\n")
    with pytest.raises(DataError, match="cannot match on 'nope'") as e:
        sequential.load(p)
    assert "noise.yaml" in str(e.value) and ":4" in str(e.value)
    p.write_text("alpha_gate: two\ndefault: 0.02\n")
    with pytest.raises(DataError, match="alpha_gate: 'two' is not a number"):
        sequential.load(p)
    p.write_text("z: 2\ndefault: 0.02\n")
    with pytest.raises(DataError, match="unknown key 'z'") as e:
        sequential.load(p)
    assert ":1" in str(e.value)
    b = tmp_path / "budget.yaml"
    b.write_text("short_seconds: 120\nmin_runs: 5\nmax_runs: 3\n")
    with pytest.raises(DataError, match="min_runs 5 is more than max_runs 3") as e:
        budget.load(path=b)
    assert "budget.yaml:2" in str(e.value)
    b.write_text("short_seconds: 120\nseconds: {lmbench: -1}\n")
    with pytest.raises(DataError, match=r"seconds\.lmbench: -1 must be positive"):
        budget.load(path=b)
