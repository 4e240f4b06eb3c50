"""The baseline as the board's accepted history (perfgate.baseline): several accepted runs pooled, each one boot, this
run's boots apart; the sequential rule that boots again while a criterion's verdict against it is undecided; a
two-mode row. Constructed samples: a boot offset shared by a boot's values, noise within it."""

from __future__ import annotations

import json
import math
import random
import subprocess
from pathlib import Path

import pytest
from test_baseline import _robot, _run

from perfgate import criteria
from perfgate.baseline import config, noise, record, rule, select
from perfgate.decision import budget

CFG = config.load()
M = 632  # am62xx_sk: 608 criteria and 24 suites compared in one run


def _boot(rng: random.Random, value: float, n: int, within: float, between: float) -> list[float]:
    """One boot's n values: the boot's offset shared, each value its own noise (log-normal)."""
    z = rng.gauss(0.0, between)
    return [value * math.exp(z + rng.gauss(0.0, within)) for _ in range(n)]


def _criterion(suffix: str) -> criteria.Criterion:
    (c,) = [c for c in criteria.select("am62xx_sk", None).criteria if c.id.endswith(suffix)]
    return c


def _against(c: criteria.Criterion, pool: list[list[float]], looks: int) -> record.Against:
    """The run's comparison as the runner opens it: the board's accepted runs `pool` pooled and its noise."""
    k = select.key(c.id, "am62xx_sk")
    base = select.Baseline("r9", "virtual/am62xx_sk/r9", "12.00.00", "sim", True, "", select.LAST_ACCEPTED,
                           {k: pool[-1]}, [{k: g} for g in pool], [f"r{i}" for i in range(len(pool))])  # fmt: skip
    return record.Against(base, CFG, "am62xx_sk", M, True, "", {k: pool}, frozenset(), looks)


CJPEG = "coremarkpro-benchmarks.cjpeg-rose7-preset-workloads.perf"


def _verdicts(drop: float, seed: int, trials: int = 20, looks: int = 3) -> list[str]:
    """CoreMark-Pro's cjpeg row as the simulated board draws it at the realistic regime (0.57 % within a boot, 0.57 %
    between boots): `trials` runs `drop` (fraction) worse against ten accepted runs, each boot 3 values; while its
    verdict is undecided the run boots again (Against.wants_boot, as the runner asks), up to `looks` boots."""
    rng = random.Random(seed)
    c = _criterion(CJPEG)
    out = []
    for _ in range(trials):
        ag = _against(c, [_boot(rng, 41.73, 3, 0.0057, 0.0057) for _ in range(10)], looks)
        values: list[float] = []
        boots: list[int] = []
        while True:
            values += _boot(rng, 41.73 * (1 - drop), 3, 0.0057, 0.0057)
            boots += [boots[-1] + 1 if boots else 0] * 3
            if not ag.wants_boot(c, values, boots, boots[-1] + 1):
                break
        out.append(ag.change(c, values, boots).verdict)  # type: ignore[union-attr]
    return out


CPU_SUITE = config.ClassNoise("cpu-suite", 0.02, 0.0113, 0.0113)  # variables/baseline.yaml's CoreMark-Pro class


def test_a_5_percent_regression_is_found_against_the_pooled_history_and_not_against_one_run() -> None:
    """Against ten accepted runs pooled, booting again while undecided (up to 3 boots), a 5 % regression of cjpeg
    reads worse in at least 18 of 20 runs and a healthy run never does (held to 632 comparisons); against one run,
    with the class figures (no history to learn the board's noise from), the same regression is never found."""
    assert _verdicts(0.05, 1).count(rule.WORSE) >= 18
    assert rule.WORSE not in _verdicts(0.0, 2, trials=200)
    one = [rule.compare(_boot(r, 100, 3, 0.0057, 0.0057), _boot(r, 95, 3, 0.0057, 0.0057), "higher", CPU_SUITE, CFG,
                        M).verdict for r in [random.Random(s) for s in range(20)]]  # fmt: skip
    assert one.count(rule.WORSE) == 0


def test_more_boots_of_this_run_shrink_its_boot_offset() -> None:
    """STREAM-like: nearly all noise between boots (2.85 % of 3 %). The interval of one boot against ten runs is
    about sqrt(1 + 1/10) x between wide; three boots narrow it by their number, as the model says."""
    cls = config.ClassNoise("memory-bandwidth", 0.02, 0.0095, 0.0285)
    rng = random.Random(3)
    history = [_boot(rng, 100.0, 3, 0.0095, 0.0285) for _ in range(10)]
    one = rule.compare_groups(history, [_boot(rng, 100.0, 3, 0.0095, 0.0285)], "higher", cls, CFG, M)
    three = rule.compare_groups(history, [_boot(rng, 100.0, 3, 0.0095, 0.0285) for _ in range(3)], "higher", cls, CFG,
                                M)  # fmt: skip
    assert one.boots_a == three.boots_a == 10 and (one.boots_b, three.boots_b) == (1, 3)
    width = [(c.high_pct - c.low_pct) for c in (one, three)]  # type: ignore[operator]
    se = [math.sqrt(0.0285**2 * (1 / 10 + 1 / b) + 0.0095**2 * (1 / 30 + 1 / (3 * b))) for b in (1, 3)]
    assert width[1] / width[0] == pytest.approx(se[1] / se[0], rel=0.05)
    assert "30 values in 10 runs vs 9 in 3 boots" in three.describe()


def test_a_history_whose_boots_happened_to_agree_lends_no_false_confidence() -> None:
    """The between-boot figure of K runs is held to K - 1 (+ between_df) degrees of freedom, not Satterthwaite's mix
    with the many within-boot values: 400 healthy runs with a noisy within part and few history runs raise no
    worse at 632 comparisons."""
    cls = config.ClassNoise("cpu", 0.02, 0.0035, 0.0035)
    rng = random.Random(7)
    worse = 0
    for _ in range(400):
        history = [_boot(rng, 100.0, 3, 0.033, 0.033) for _ in range(4)]
        n = noise.of_history(history, cls, CFG)
        ch = rule.compare_groups(history, [_boot(rng, 100.0, 3, 0.033, 0.033)], "higher", n, CFG, M)
        worse += ch.verdict == rule.WORSE
        assert ch.df is not None and ch.df <= 4 - 1 + CFG.between_df
    assert worse == 0


def test_a_two_mode_row_in_the_other_mode_is_never_worse() -> None:
    """OSPI raw read (21 and 192 MB/s: one mode per boot): its whole log range lies between boots, so a boot in the
    low mode against a history all in the high one is about two sd, not a regression."""
    (c,) = [c for c in criteria.select("am62xx_sk", None).criteria
            if c.id.endswith("ospi-raw-flash-driver.50.raw-read-throughput-mbytes-sec")]  # fmt: skip
    n = noise.of_criterion(c, CFG, False, [])
    assert n.between == pytest.approx(math.log(c.max / c.min) / 2)  # type: ignore[operator]
    rng = random.Random(4)
    history = [_boot(rng, c.max, 5, 0.03, 0.0) for _ in range(10)]  # type: ignore[arg-type]
    low = rule.compare_groups(history, [_boot(rng, c.min, 5, 0.03, 0.0)], "higher", n, CFG, M)  # type: ignore[arg-type]
    assert low.verdict == rule.UNDECIDED and low.change_pct is not None and low.change_pct < -80


def test_the_last_accepted_baseline_pools_the_accepted_runs_of_the_release_and_lab(tmp_path: Path,
                                                                                   monkeypatch) -> None:  # fmt: skip
    """Accepted runs of the same release, lab and kind are pooled, the last `pool` of them; others never."""
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _run(tmp_path, "20260101-000001", {"copy": 100})
    _run(tmp_path, "20260101-000002", {"copy": 101})
    _run(tmp_path, "20260101-000003", {"copy": 50}, failed=True)
    _run(tmp_path, "20260101-000004", {"copy": 80}, lab="bench2")
    _run(tmp_path, "20260101-000005", {"copy": 102})
    b, _ = select.choose(None, "am62xx_sk", True, "sim", "12.00.00", pool=10)
    assert b is not None and b.run == "20260101-000005" and b.runs == ["20260101-000001", "20260101-000002",
                                                                       "20260101-000005"]  # fmt: skip
    assert [g[0] for g in b.groups("stream.t.copy.m")] == [100.0, 101.0, 102.0]
    assert b.describe()["pooled"] == b.runs
    two, _ = select.choose(None, "am62xx_sk", True, "sim", "12.00.00", pool=2)
    assert two is not None and two.runs == ["20260101-000002", "20260101-000005"]
    named, _ = select.choose("20260101-000001", "am62xx_sk", True, "sim", "12.00.00", pool=10)
    assert named is not None and named.groups("stream.t.copy.m") == [[100.0, pytest.approx(100.1)]]


def test_the_sequential_rule_boots_again_only_while_undecided_and_within_its_looks() -> None:
    """Against.wants_boot (what the runner asks after a suite, BASELINE_GATES:true): an undecided criterion wants
    another boot until it has `looks` boots; a decided one never; a run that only reports (looks 1) never. Look k
    spends alpha / 2^k: the same data has a larger smallest-detectable regression when more looks may follow."""
    rng = random.Random(11)
    c = _criterion("stream-benchmarks.add-mb-s.perf")
    pool = [_boot(rng, c.value, 3, 0.01, 0.03) for _ in range(10)]
    ag = _against(c, pool, 3)
    noisy = _boot(rng, c.value * 0.975, 3, 0.01, 0.0)  # 2.5 % lower: undecided against a 3 % between-boot noise
    assert ag.change(c, noisy, [0, 0, 0]).verdict == rule.UNDECIDED  # type: ignore[union-attr]
    assert ag.wants_boot(c, noisy, [0, 0, 0], 1) and ag.wants_boot(c, noisy * 2, [0, 0, 0, 1, 1, 1], 2)
    assert not ag.wants_boot(c, noisy * 3, [0, 0, 0, 1, 1, 1, 2, 2, 2], 3)
    far = [c.value * 0.6, c.value * 0.601, c.value * 0.599]  # 40 % worse: decided at the first look
    assert not ag.wants_boot(c, far, [0, 0, 0], 1)
    assert not _against(c, pool, 1).wants_boot(c, noisy, [0, 0, 0], 1)  # a run that only reports: never
    edge = [c.value * 0.85] * 3
    one, three = _against(c, pool, 1).change(c, edge), _against(c, pool, 3).change(c, edge)
    assert one is not None and three is not None and three.detectable_pct > one.detectable_pct  # type: ignore[operator]


def _stream(tmp: Path, out: str, *args: str) -> subprocess.CompletedProcess:
    return _robot(tmp, out, *args, suite_file="system/stream.robot")


@pytest.mark.slow
def test_through_robot_the_gate_boots_again_for_what_its_baseline_leaves_undecided(tmp_path: Path) -> None:
    """Three accepted STREAM runs on the simulated board, then one with BASELINE_GATES:true: its baseline is the three
    pooled, and STREAM (nearly all its noise between boots) undecided against them makes the runner boot the board
    again, up to budget.yaml's max_boots; the verdicts are made on every boot's values."""
    for seed in (1, 2, 3):
        assert _stream(tmp_path, f"o{seed}", "-v", f"SIM_SEED:{seed}").returncode == 0
    gated = _stream(tmp_path, "o9", "-v", "SIM_SEED:9", "-v", "BASELINE_GATES:true")
    assert gated.returncode == 0, gated.stdout[-2000:]
    latest = sorted((tmp_path / "results" / "virtual" / "am62xx_sk").glob("2*"))[-1]
    meta = json.loads((latest / "run.json").read_text())
    assert len(meta["baseline"]["pooled"]) == 3 and meta["baseline"]["suites"]["stream"]["boots_a"] == 3
    entries = json.loads((latest / "metrics.json").read_text())
    assert {e["baseline"]["boots_b"] for e in entries} == {budget.load().max_boots}
    log = (tmp_path / "o9" / "output.xml").read_text()
    assert "boot 2: 4 criteria undecided against the baseline run again" in log


def test_ab_names_what_build_b_cannot_run_and_nothing_it_measured_alike() -> None:
    """perfgate.baseline.ab: a criterion build A measured in every boot and build B in none (the QEMU board's SMP
    use case on a kernel booted with maxcpus=1) is `worse` with why, at the first look; one measured alike by both is
    not worse."""
    from perfgate.baseline import ab

    smp, one = _criterion("stream-benchmarks.add-mb-s.perf"), _criterion(CJPEG)
    rng = random.Random(2)

    def boot(build: str, ids: list[str]) -> dict[str, list[float]]:
        out = {one.id: _boot(rng, one.value, 3, 0.0057, 0.0057)}
        if build == "A":
            out[smp.id] = _boot(rng, smp.value, 3, 0.01, 0.0)
        return {k: v for k, v in out.items() if k in ids}

    crits = {c.id: c for c in (smp, one)}
    run = ab.ABRun(crits, {c.id: noise.of_criterion(c, CFG, False, []) for c in crits.values()}, CFG, max_boots=4)
    final = run.run(boot)
    assert final[smp.id].change.verdict == rule.WORSE and final[smp.id].boots == 2
    assert final[smp.id].change.describe() == "worse: build B measured nothing in its 2 boots, build A in each of its 2"
    assert final[one.id].change.verdict != rule.WORSE


def _sim_compare(worse_from: int, dead: set[int], better_at: int, seed: int):
    """A/B of build `good` against `candidate` on the simulated board in process: builds are configurations, the
    cjpeg row 5 % worse from build `worse_from` on, 5 % better at `better_at` (an improvement), `dead` do not boot;
    each step decided by perfgate.baseline.ab's rule."""
    from perfgate.baseline import ab

    c = _criterion(CJPEG)
    rng = random.Random(seed)

    def value(build: str) -> float:
        i = int(build.removeprefix("b"))
        return c.value * (0.95 if i >= worse_from else 1.05 if i == better_at else 1.0)

    def compare(good: str, candidate: str) -> str | None:
        if int(candidate.removeprefix("b")) in dead:
            return None
        run = ab.ABRun({c.id: c}, {c.id: noise.of_criterion(c, CFG, False, [])}, CFG, max_boots=12)

        def boot(build: str, ids: list[str]) -> dict[str, list[float]]:
            return {c.id: _boot(rng, value(good if build == "A" else candidate), 3, 0.0057, 0.0057)}

        return run.run(boot)[c.id].change.verdict

    return compare


def test_bisect_finds_the_first_worse_build_blames_no_improvement_and_says_what_did_not_boot() -> None:
    from perfgate.baseline import bisect

    builds = [f"b{i}" for i in range(10)]
    found = bisect.bisect(builds, _sim_compare(6, set(), better_at=3, seed=1))
    assert found.found and (found.last_good, found.first_bad) == ("b5", "b6"), found.steps
    assert "came in with b6" in found.describe()
    skipped = bisect.bisect(builds, _sim_compare(6, {5, 4}, better_at=3, seed=2))
    assert (skipped.last_good, skipped.first_bad) == ("b3", "b6") and skipped.skipped == ["b4", "b5"]
    assert "did not boot: b4, b5" in skipped.describe() and not skipped.found
    assert any(s.verdict == "did not boot" for s in skipped.steps)
    improved = bisect.bisect(builds[:4], _sim_compare(3, set(), better_at=1, seed=4))  # b1 better, b2 as b0
    assert (improved.last_good, improved.first_bad) == ("b2", "b3") and improved.steps[0].verdict == "better"
    with pytest.raises(ValueError, match="at least two builds"):
        bisect.bisect(["b0"], _sim_compare(1, set(), 0, 3))
