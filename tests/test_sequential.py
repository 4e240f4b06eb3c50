"""The sequential three-way verdict (perfgate.sequential): noise from the guide's min/max, history or class default;
pass / fail / run again / inconclusive; a short tail-latency run; variables/noise.yaml errors named by line."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from perfgate import criteria, sequential
from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.tolerance import Tolerance
from perfgate.verdict import judge

TEN = Tolerance(0.10)
NOISE = sequential.Noise(0.05, "test")


def crit(value: float = 100.0, direction: str = "higher", **kw) -> Criterion:
    return Criterion(
        id="b.s.t.r.m", name="r", board="b", guide="g.rst", release="1", chapter="system", suite="s", table="t",
        row="r", metric="m", unit="MB/s", value=value, direction=direction, **kw,
    )  # fmt: skip


def test_noise_comes_from_the_imported_guides_min_max() -> None:
    """The threshold data the guides importer wrote (min/max columns of the current guides) gives the noise."""
    withrange = [c for c in criteria.select("am62xx_sk", None).criteria if c.min is not None and c.max is not None]
    assert len(withrange) > 100
    c = withrange[0]
    noise = sequential.load().of(c)
    assert noise.source == "guide min/max"
    assert noise.sd == pytest.approx((c.max - c.min) / (4 * abs(c.value)))


def test_noise_without_guide_range_comes_from_history_then_class_then_default() -> None:
    model = sequential.load()
    assert model.of(crit(), [100.0, 104.0, 96.0]).source == "history (3 runs)"
    assert model.of(crit(), [100.0, 104.0]).source == "default"  # two runs are no history
    net = Criterion(**{**crit().__dict__, "chapter": "network"})
    assert model.of(net) == sequential.Noise(0.05, "class network")


@pytest.mark.parametrize(
    ("samples", "last", "verdict"),
    [
        ([100.0], False, sequential.PASS),  # 10 % margin = 2 sd: decided at once
        ([80.0], False, sequential.FAIL),
        ([93.0], False, sequential.MORE),  # inside the band: run again
        ([93.0], True, sequential.INCONCLUSIVE),  # ... but REPEAT is reached
        ([93.0, 95.0, 94.0, 96.0, 95.0, 94.0, 95.0, 96.0], True, sequential.PASS),  # enough runs shrink the band
        ([84.0, 83.0, 85.0, 84.0, 83.0, 84.0, 85.0, 83.0], True, sequential.FAIL),
    ],
)
def test_decide(samples: list[float], last: bool, verdict: str) -> None:
    assert sequential.decide(crit(), samples, TEN, NOISE, 2.0, last).verdict == verdict


def test_decide_uses_the_median_and_says_why_it_is_inconclusive() -> None:
    d = sequential.decide(crit(), [50.0, 93.0, 94.0], TEN, NOISE, 2.0, last=True)
    assert d.value == 93.0 and d.verdict == sequential.INCONCLUSIVE
    assert "undecided after 3 runs" in d.reason and "noise 5.0% from test" in d.reason


def test_lower_is_better_and_no_noise() -> None:
    assert sequential.decide(crit(10, "lower"), [10.5], TEN, NOISE, 2.0, False).verdict == sequential.MORE
    assert sequential.decide(crit(10, "lower"), [10.5], TEN, sequential.Noise(0, "x"), 2.0, False).verdict == "pass"
    assert sequential.decide(crit(10, "lower"), [11.5], TEN, sequential.Noise(0, "x"), 2.0, False).verdict == "fail"
    assert math.isinf(sequential.decide(crit(10, "lower"), [10.5], TEN, sequential.Noise(0, "x"), 2.0, False).z)


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


def test_bad_noise_file_names_file_key_and_line(tmp_path: Path) -> None:
    p = tmp_path / "noise.yaml"
    p.write_text("z: 2\ndefault: 0.02\nclasses:\n  - name: x\n    match: {nope: a}\n    sd: 0.1\n")
    with pytest.raises(DataError, match="cannot match on 'nope'") as e:
        sequential.load(p)
    assert "noise.yaml" in str(e.value) and ":4" in str(e.value)
    p.write_text("z: two\ndefault: 0.02\n")
    with pytest.raises(DataError, match="z: 'two' is not a number"):
        sequential.load(p)


def test_fail_needs_z_fail_standard_errors_pass_needs_z() -> None:
    """One board judges hundreds of numbers: failing one asks for more evidence (z_fail) than passing it (z)."""
    c, quiet = crit(), sequential.Noise(0.02, "x")
    # threshold 90: 87.5 is 1.4 sd of the log below it, 84 is 3.4 sd below
    assert sequential.decide(c, [87.5], TEN, quiet, 2.0, True, 3.0).verdict == sequential.INCONCLUSIVE
    assert sequential.decide(c, [87.5], TEN, quiet, 2.0, True, 1.0).verdict == sequential.FAIL
    assert sequential.decide(c, [84.0], TEN, quiet, 2.0, True, 3.0).verdict == sequential.FAIL
    assert "less than the 3 needed" in sequential.decide(c, [88.5], TEN, quiet, 2.0, True, 3.0).reason
    assert sequential.load().z_fail > sequential.load().z


def test_the_margin_is_a_ratio_for_positive_values() -> None:
    """A latency with a long tail: 3x its threshold is as far out as a third of it would be for a throughput (the
    log of the ratio), not 'only' 2 thresholds away while a third is 0.67 of one."""
    wide = sequential.Noise(0.5, "x")
    lat, bw = crit(10.0, "lower"), crit(10.0, "higher")
    up = sequential.decide(lat, [11.0 * 3], TEN, wide, 2.0, True, 2.0)  # threshold 11
    down = sequential.decide(bw, [9.0 / 3], TEN, wide, 2.0, True, 2.0)  # threshold 9
    assert up.z == pytest.approx(down.z) == pytest.approx(-math.log(3) / 0.5)
    zero = sequential.decide(crit(0.0, "lower"), [0.0], Tolerance(0.1, 0.5), wide, 2.0, True)  # no ratio: plain
    assert zero.verdict == sequential.PASS


def test_history_noise_is_read_from_the_boards_passing_hardware_runs(tmp_path: Path) -> None:
    import json

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
    assert values == {"b.s.t.r.m": [100.0, 104.0, 96.0]}  # failing, faulted and unfinished runs are not noise
    assert sequential.load().of(crit(), values["b.s.t.r.m"]).sd == pytest.approx(0.04)


def test_a_value_averaged_over_runs_has_the_noise_of_their_mean() -> None:
    """Boot time: each value is the mean of BOOT_CYCLES boots, so its noise is one boot's over sqrt(cycles); a
    history's values are such means already and keep theirs."""
    boot = crit(10, "lower")
    one = sequential.Noise(0.04, "class boot-time")
    twenty = sequential.averaged(one, 20)
    assert twenty.sd == pytest.approx(0.04 / math.sqrt(20))
    assert twenty.source == "class boot-time: 4.0% for one run, over the mean of 20"
    assert sequential.averaged(one, 1) is one
    past = sequential.NoiseModel(2.0, 0.02, 3.0).of(boot, [10.0, 10.1, 9.9, 10.05, 9.95])
    assert past.source == "history (5 runs)"
    assert sequential.averaged(past, 20) is past
    # 10.6 s against 10 s published, 10 % tolerance: one boot's noise cannot decide it in one run, the mean of 20 can
    assert sequential.decide(boot, [10.6], TEN, one, 2.0, last=False).verdict == sequential.MORE
    assert sequential.decide(boot, [10.6], TEN, twenty, 2.0, last=False).verdict == sequential.PASS
