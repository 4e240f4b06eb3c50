"""comparison.html puts failures first (issue 23 item 6, issue 20 item 4): rows and suites by severity, failed and
inconclusive apart in filters and colour, `limited` criteria listed apart with the value they were held to and the
smallest regression they can detect, the noise each verdict used, a trend per suite from the board's history.

The run is constructed (perfgate.report.sample.record_every_verdict_run): the AM62x guide's numbers with drawn
measurements and every verdict kind of the decisive verdict, in metrics.json's shape (perfgate.run.recording.entry()
and perfgate.decision.judge.noise_entry()), and five earlier passing runs in the board's history beside it.
"""

from __future__ import annotations

import base64
import colorsys
import io
import json
import re
from pathlib import Path

import pytest
from markupsafe import escape

from perfgate.report import charts, html, metrics, sample
from perfgate.report.recorder import RunRecorder
from testpaths import FIXTURES

CRITERIA = FIXTURES / "report" / "am62xx_sk-criteria.json"
META = {"board": "am62xx_sk", "lab": "sim", "virtual": True, "guide": "linux-10.00-am62x.rst", "release": "10.00"}
RANK = {v: i for i, v in enumerate(metrics.VERDICTS)}
ROW = re.compile(r'<tr class="row-[\w-]+" data-verdict="([\w-]+)" data-id="([^"]+)"( data-limited="1")?>')


def _criteria() -> list[dict]:
    return json.loads(CRITERIA.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("results") / "am62xx_sk" / "20261122-080000"
    sample.record_every_verdict_run(d, _criteria(), META)
    return d


@pytest.fixture(scope="module")
def page(run_dir: Path) -> str:
    return (run_dir / "comparison.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def entries(run_dir: Path) -> list[dict]:
    return json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))


def _sections(page: str) -> list[tuple[str, str]]:
    """[(suite, its section's html)] in page order."""
    parts = re.split(r'(?=<section class="suite" id="suite-)', page)[1:]
    return [(re.match(r'<section class="suite" id="suite-([\w-]+)"', p).group(1), p.split("</section>")[0])
            for p in parts]  # fmt: skip


def test_the_constructed_run_has_every_verdict(entries: list[dict]) -> None:
    c = metrics.counts(entries)
    assert all(c[v] for v in metrics.VERDICTS), c
    limited = [e for e in entries if e.get("limited")]
    assert {e["verdict"] for e in limited} == {"pass", "fail"}
    assert all("LIMITED:" in e["message"] for e in limited)
    assert all(e.get("noise", {}).get("source") for e in entries if e["measured"] is not None)


def test_each_suites_rows_are_worst_first(page: str, entries: list[dict]) -> None:
    recorded = {}
    for e in entries:
        recorded.setdefault(e["suite"], []).append(e["verdict"])
    reordered = 0
    for suite, section in _sections(page):
        shown = [v for v, _, _ in ROW.findall(section)]
        assert sorted(shown) == sorted(recorded[suite])
        assert shown == sorted(shown, key=RANK.__getitem__), (suite, shown)
        reordered += shown != recorded[suite]
    assert reordered >= 3  # the run's order is not the page's: the sort is what puts them first


def test_suites_are_worst_first(page: str, entries: list[dict]) -> None:
    worst = {}
    for e in entries:
        worst[e["suite"]] = min(worst.get(e["suite"], 99), RANK[e["verdict"]])
    order = [s for s, _ in _sections(page)]
    assert [worst[s] for s in order] == sorted(worst[s] for s in order), order
    assert worst[order[0]] == RANK["fail"] and worst[order[-1]] >= RANK["warn"]
    recorded = list(dict.fromkeys(e["suite"] for e in entries))
    first_clean = next(s for s in recorded if worst[s] > RANK["inconclusive"])
    assert order.index(first_clean) > order.index(next(s for s in recorded if worst[s] == RANK["fail"]))


def test_the_failing_criteria_open_the_page(page: str, entries: list[dict]) -> None:
    attention = re.search(r'<section class="attention" id="attention">(.*?)</section>', page, re.S)
    assert attention, "no list of the criteria failing the gate"
    assert page.index('id="attention"') < page.index('id="limited"') < page.index('<section class="suite"')
    rows = re.findall(r'<tr class="attention-[\w-]+" data-verdict="([\w-]+)" data-attention="([^"]+)">',
                      attention.group(1))  # fmt: skip
    failing = [e for e in entries if e["verdict"] in ("fail", "not-measured", "inconclusive")]
    assert sorted(i for _, i in rows) == sorted(e["id"] for e in failing)
    verdicts = [v for v, _ in rows]
    assert verdicts == sorted(verdicts, key=RANK.__getitem__) and verdicts[0] == "fail"
    assert verdicts[-1] == "inconclusive"


def test_failed_and_inconclusive_are_apart_in_the_filters(page: str, entries: list[dict]) -> None:
    c = metrics.counts(entries)
    assert f'data-filter="fail" class="f-fail">failed ({c["fail"] + c["not-measured"]})</button>' in page
    assert f'data-filter="inconclusive" class="f-inconclusive">inconclusive ({c["inconclusive"]})</button>' in page
    groups = re.search(r"var groups = (\{.*?\});", page, re.S).group(1)
    fail = json.loads(re.search(r"\bfail: (\[[^\]]*\])", groups).group(1))
    assert set(fail) == {"fail", "not-measured"}
    assert json.loads(re.search(r"\binconclusive: (\[[^\]]*\])", groups).group(1)) == ["inconclusive"]


def _css_colour(page: str, selector: str) -> str:
    m = re.search(re.escape(selector) + r"[^{]*\{[^}]*background: (#[0-9a-f]{6})", page)
    assert m, selector
    return m.group(1)


def _hue(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hsv(r, g, b)[0] * 360


def test_inconclusive_does_not_look_like_a_fail(page: str) -> None:
    for fail, undecided in (
        (_css_colour(page, ".v-fail"), _css_colour(page, ".v-inconclusive")),
        (_css_colour(page, "tr.row-fail td"), _css_colour(page, "tr.row-inconclusive td")),
        (charts.COLOURS["fail"], charts.COLOURS["inconclusive"]),
    ):
        assert fail != undecided
        distance = abs(_hue(fail) - _hue(undecided))
        assert min(distance, 360 - distance) > 90, (fail, undecided)  # not a shade of red
    assert _css_colour(page, ".gate.inconclusive") == charts.COLOURS["inconclusive"]


def test_limited_criteria_are_listed_apart(page: str, entries: list[dict]) -> None:
    section = re.search(r'<section class="limited" id="limited">(.*?)</section>', page, re.S)
    assert section, "no list of the limited criteria"
    limited = {e["id"]: e for e in entries if e.get("limited")}
    rows = re.findall(r'<tr data-verdict="([\w-]+)" data-limited-id="([^"]+)">(.*?)</tr>', section.group(1), re.S)
    assert sorted(i for _, i, _ in rows) == sorted(limited)
    for verdict, cid, row in rows:
        e = limited[cid]
        assert verdict == e["verdict"]
        assert f'class="num held-to">{html.fmt(e["limited"]["threshold"])}<' in row
        assert f'class="num tolerance-used">{html.fmt(e["limited"]["tolerance_pct"])} %' in row
        assert f'class="num detectable">{e["limited"]["detectable_pct"]:.0f} %<' in row
        assert e["limited"]["reason"] in row
    marked = [i for _, i, lim in ROW.findall(page) if lim]
    assert sorted(marked) == sorted(limited)  # and the suite's own row says so (the `limited` filter shows them)


def test_the_noise_each_verdict_used_is_shown(page: str, entries: list[dict]) -> None:
    shown = 0
    for e in entries:
        n = e.get("noise")
        if not n or "sd" not in n:
            continue
        row = re.search(r'data-id="' + re.escape(e["id"]) + r'"[^>]*>(.*?)</tr>', page, re.S).group(1)
        cell = re.search(r'<td class="noise" title="([^"]*)">([^<]*)', row)
        assert cell, e["id"]
        assert cell.group(2).startswith(f"±{n['sd'] * 100:.1f} % · {n['runs']} run")
        assert str(escape(n["source"])) in cell.group(1) and f"{n['df']:g} df" in cell.group(1)
        if n.get("guide_spread_not_used"):
            assert "the guide&#39;s min/max not used" in cell.group(1)
        shown += 1
    assert shown > 200


def test_a_trend_per_suite_from_the_boards_history(page: str, entries: list[dict]) -> None:
    from matplotlib.image import imread

    suites = {e["suite"] for e in entries}
    trends = re.findall(r'<figure class="trend" id="trend-([\w-]+)"><img class="trend" alt="([^"]*)" '
                        r'src="data:image/png;base64,([^"]+)">', page)  # fmt: skip
    assert {s for s, _, _ in trends} == suites
    for suite, alt, data in trends[:2]:
        assert alt == f"trend of {suite} over 6 runs"  # five in the history, and this one
        img = imread(io.BytesIO(base64.b64decode(data)), format="png")
        assert img.shape[0] > 200 and img.shape[1] > 600
    for _, section in _sections(page):
        assert section.index('class="trend"') > section.index("</table>")  # the table first, then the pictures


def test_no_trend_without_history(tmp_path: Path) -> None:
    run = tmp_path / "am62xx_sk" / "20261122-080000"
    rec = RunRecorder(run, META)
    for e in sample.every_verdict_entries(_criteria())[:20]:
        rec.record(e)
    text = rec.finish().read_text()
    assert 'class="trend"' not in text and '<figure class="chart"' in text


def test_a_suite_undecided_only_is_not_a_failed_suite() -> None:
    assert metrics.suite_verdict([{"verdict": "inconclusive"}, {"verdict": "pass"}]) == "inconclusive"
    assert metrics.suite_verdict([{"verdict": "inconclusive"}, {"verdict": "not-measured"}]) == "fail"


def test_the_gate_verdict_test_is_no_setup_error(tmp_path: Path) -> None:
    """Robot failed 3 tests: the failed criterion, the `Gate Verdict` test (2 criteria inconclusive, SKIP in Robot),
    and one setup error: the page names one test that judged nothing."""

    def page(robot_failed: int) -> str:
        rec = RunRecorder(tmp_path, META)
        for i, v in enumerate(("fail", "inconclusive", "inconclusive", "pass")):
            rec.record({"id": f"am62xx_sk.x.r{i}", "name": f"r{i}", "suite": "x", "verdict": v})
        return rec.finish({"robot": {"tests": 5, "passed": 1, "failed": robot_failed, "skipped": 2}}).read_text()

    assert re.search(r'id="unjudged">Robot failed 1 test\(s\) that judged no criterion', page(3))
    assert 'id="unjudged"' not in page(2)


def test_the_robot_log_table_is_worst_first_with_the_noise() -> None:
    es = sample.every_verdict_entries(_criteria())[:60]
    table = html.suite_table_html(es)
    verdicts = re.findall(r"font-weight:bold\">([\w-]+)", table)
    assert sorted(verdicts) == sorted(e["verdict"] for e in es)
    assert verdicts == sorted(verdicts, key=RANK.__getitem__) and verdicts != [e["verdict"] for e in es]
    assert "±" in table and charts.COLOURS["inconclusive"] in table and ">limited<" in table
