"""The verdict, exhaustively: both directions, match, a published 0, quantised metrics, values with min/max."""

from __future__ import annotations

import csv
import io
import json

import pytest

from perfgate.decision.tolerance import Tolerance
from perfgate.decision.verdict import FAIL, NOT_MEASURED, PASS, WARN, RunVerdict, Verdict, judge
from perfgate.model import Criterion


def crit(value: float, direction: str = "higher", unit: str = "MB/s", **kw) -> Criterion:
    return Criterion(
        id="b.s.t.r.m", name="r", board="b", guide="g.rst", release="1", chapter="system", suite="s", table="t",
        row="r", metric="m", unit=unit, value=value, direction=direction, **kw,
    )  # fmt: skip


TEN = Tolerance(0.10)


@pytest.mark.parametrize(
    ("direction", "measured", "verdict"),
    [
        ("higher", 100.0, PASS),
        ("higher", 90.0, PASS),  # exactly at the tolerance
        ("higher", 89.9, FAIL),
        ("higher", 110.0, PASS),
        ("higher", 110.1, WARN),
        ("lower", 100.0, PASS),
        ("lower", 110.0, PASS),
        ("lower", 110.1, FAIL),
        ("lower", 90.0, PASS),
        ("lower", 89.9, WARN),
        ("match", 109.9, PASS),
        ("match", 90.1, PASS),
        ("match", 110.1, FAIL),
        ("match", 89.9, FAIL),
    ],
)
def test_directions(direction: str, measured: float, verdict: str) -> None:
    assert judge(crit(100.0, direction), measured, TEN).verdict == verdict


def test_failure_message_gives_the_numbers() -> None:
    j = judge(crit(855.42), 684.3, TEN)
    assert j.verdict == FAIL and not j.passed
    for part in ("measured 684.3 MB/s", "published 855.42 MB/s", "tolerance 10%", "delta -20.0%"):
        assert part in j.message
    assert j.delta_pct == pytest.approx(-20.0, abs=0.01)


def test_warning_passes_but_says_stale() -> None:
    j = judge(crit(100.0, "lower", "us"), 50.0, TEN)
    assert j.verdict == WARN and j.passed
    assert "better than published" in j.message


def test_not_measured_fails_with_reason() -> None:
    j = judge(crit(100.0), None, TEN, "lmbench printed no 'lat_tcp (us)'")
    assert j.verdict == NOT_MEASURED and not j.passed
    assert "lat_tcp" in j.message and j.measured is None
    assert judge(crit(100.0), float("nan"), TEN).verdict == NOT_MEASURED


def test_published_zero_uses_the_absolute_slack() -> None:
    loss = crit(0.0, "lower", "%")
    assert judge(loss, 0.0, TEN).verdict == PASS
    assert judge(loss, 0.01, TEN).verdict == FAIL  # no absolute slack: any loss is worse than 0
    slack = Tolerance(0.25, 0.5)
    assert judge(loss, 0.4, slack).verdict == PASS
    assert judge(loss, 0.6, slack).verdict == FAIL
    assert judge(loss, 0.0, slack).delta_pct is None


@pytest.mark.parametrize(("published", "measured", "verdict"), [
    (3333.3, 3333.3, PASS), (5000.0, 5000.0, PASS), (10000.0, 10000.0, PASS),
    (5000.0, 3333.3, FAIL),  # one whole-second step slower is a real 33 % loss, not noise
    (5000.0, 10000.0, WARN),  # one step faster: suspicious, flagged
])  # fmt: skip
def test_quantised_whetstone(published: float, measured: float, verdict: str) -> None:
    assert judge(crit(published, unit="MIPS"), measured, TEN).verdict == verdict


def test_min_max_compares_the_mean() -> None:
    c = crit(1175.78, min=685.17, max=1666.39)
    assert judge(c, 1100.0, TEN).verdict == PASS
    assert judge(c, 700.0, TEN).verdict == FAIL  # inside [min, max] but far below the mean


def test_unknown_direction_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown direction"):
        judge(crit(1.0, "sideways"), 1.0, TEN)


def test_the_verdict_types_are_the_words_the_files_have_always_held() -> None:
    """metrics.json, summary.csv, run.json and the reports read these words (DESIGN.md): the enums are those strings,
    written as them by json and csv, and a verdict read back from a file is its member."""
    assert [str(v) for v in Verdict] == ["fail", "not-measured", "inconclusive", "warn", "pass", "skip"]
    assert [str(v) for v in RunVerdict] == ["pass", "fail", "inconclusive", "incomplete"]
    j = judge(crit(100.0), None, TEN)
    assert j.verdict is Verdict.NOT_MEASURED
    assert json.dumps(j.to_json()) == json.dumps({**j.to_json(), "verdict": "not-measured"})
    out = io.StringIO()
    csv.writer(out).writerow([j.verdict, RunVerdict.INCOMPLETE])
    assert out.getvalue() == "not-measured,incomplete\r\n"
    assert Verdict(json.loads(json.dumps(j.verdict))) is Verdict.NOT_MEASURED
    assert {"not-measured": 1}[j.verdict] == 1 and f"{j.verdict}" == "not-measured"
