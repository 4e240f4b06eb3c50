"""comparison.html and the suite table logged into Robot's log, built from a synthetic-but-realistic run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from perfgate import cli
from perfgate.report import charts, html, sample
from perfgate.report.recorder import RunRecorder
from testpaths import FIXTURES

CRITERIA = FIXTURES / "report" / "am62xx_sk-criteria.json"
META = {"board": "am62xx_sk", "lab": "sim", "virtual": True, "guide": "linux-10.00-am62x.rst", "release": "10.00"}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("results") / "am62xx_sk" / "20261122-080000"
    sample.record_run(d, json.loads(CRITERIA.read_text(encoding="utf-8")), META)
    return d


@pytest.fixture(scope="module")
def page(run_dir: Path) -> str:
    return (run_dir / "comparison.html").read_text(encoding="utf-8")


def _entries(run_dir: Path) -> list[dict]:
    return json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))


def test_virtual_run_says_so_in_title_and_banner(page: str) -> None:
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title and title.group(1).startswith(html.VIRTUAL_BANNER)
    assert 'id="virtual-banner"' in page and page.index("virtual-banner") < page.index("<h1>")


def test_hardware_run_has_no_banner(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, {**META, "lab": "rack3", "virtual": False})
    rec.record({**sample.entries(json.loads(CRITERIA.read_text()))[0]})
    text = html.build(tmp_path, charts=False).read_text()
    assert html.VIRTUAL_BANNER not in text and 'id="virtual-banner"' not in text
    assert "rack3 (hardware)" in text


def test_one_section_table_and_chart_per_suite(page: str, run_dir: Path) -> None:
    suites = [s for _, suites in html.group(_entries(run_dir)) for s, _ in suites]  # chapters in guide order
    assert set(suites) == {e["suite"] for e in _entries(run_dir)}
    assert suites.index("lmbench") < suites.index("boot_time") < suites.index("ethernet") < suites.index("glmark2")
    shown = re.findall(r'<section class="suite" id="suite-([\w-]+)"', page)
    assert sorted(shown) == sorted(suites)  # the worst first: see test_report_severity.py
    assert len(re.findall(r'<figure class="chart" id="chart-[\w-]+"><svg', page)) == len(suites)
    assert page.count('<table class="metrics">') == len(suites)


def test_every_criterion_is_a_row_with_its_verdict_and_log_link(page: str, run_dir: Path) -> None:
    entries = {e["id"]: e for e in _entries(run_dir)}
    rows = re.findall(r'<tr class="row-([\w-]+)" data-verdict="[\w-]+" data-id="([^"]+)">', page)
    assert sorted(i for _, i in rows) == sorted(entries)
    assert all(v == entries[i]["verdict"] for v, i in rows)
    entries = list(entries.values())
    for e in entries[:5]:
        assert f'href="log.html#{e["test"]}"' in page
    assert 'href="raw/lmbench/lmbench-1.txt"' in page


def test_counts_and_gate_verdict(page: str, run_dir: Path) -> None:
    entries = _entries(run_dir)
    fails = sum(e["verdict"] in ("fail", "not-measured") for e in entries)
    assert f"failed ({fails})" in page
    assert re.search(r'id="gate-verdict">(FAIL|PASS)<', page).group(1) == ("FAIL" if fails else "PASS")
    n_pass = sum(e["verdict"] == "pass" for e in entries)
    assert f'data-verdict="pass">pass {n_pass}</span>' in page


def test_filters_are_present(page: str) -> None:
    for f in ("all", "fail", "inconclusive", "limited", "warn", "problems"):
        assert f'data-filter="{f}"' in page


def test_names_are_escaped(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    e = sample.entries(json.loads(CRITERIA.read_text()))[0]
    rec.record({**e, "name": "<script>alert(1)</script>", "message": "a & b"})
    text = html.build(tmp_path, charts=False).read_text()
    assert "<script>alert(1)" not in text and "&lt;script&gt;alert(1)" in text and "a &amp; b" in text


def test_an_unfinished_run_is_marked(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    rec.record(sample.entries(json.loads(CRITERIA.read_text()))[0])
    text = html.build(tmp_path, charts=False).read_text()
    assert 'id="incomplete"' in text


def test_empty_run_renders(tmp_path: Path) -> None:
    rec = RunRecorder(tmp_path, META)
    text = html.build(tmp_path).read_text()  # still running: not a verdict yet
    assert 'id="no-criteria"' in text and 'id="gate-verdict">INCOMPLETE' in text and 'id="incomplete"' in text
    text = rec.finish().read_text()  # finished having judged nothing: never a pass
    assert 'id="gate-verdict">FAIL' in text and "nothing was measured: no criterion was recorded" in text
    assert 'id="incomplete"' not in text


def test_suite_table_for_the_robot_log() -> None:
    entries = sample.entries(json.loads(CRITERIA.read_text()))[:10]
    table = html.suite_table_html(entries)
    assert table.count('<tr style="border-top') == 10
    assert f'href="#{entries[0]["test"]}"' in table
    assert "<style" not in table and "<script" not in table  # inline styles only: Robot's log embeds it


def test_chart_ratio_and_band() -> None:
    assert charts.ratio({"measured": 5.0, "published": 10.0}) == 0.5
    assert charts.ratio({"measured": None, "published": 10.0}) is None
    assert charts.ratio({"measured": 1.0, "published": 0}) is None
    assert charts.band({"tolerance": 0.1, "absolute": 0.5, "published": 1.0}) == 0.5
    assert charts.band({"tolerance": 0.1, "absolute": 0.0, "published": 1.0}) == 0.1
    svg = charts.suite_chart([{"name": "x", "measured": 40.0, "published": 10.0, "verdict": "warn", "tolerance": 0.1}])
    assert svg.startswith("<svg") and "×4" in svg  # off-scale ratios are written out


def test_a_limited_band_thousands_of_percent_wide_stays_one_chart() -> None:
    """`-v REPEAT:1` holds some criteria to what one run decides: LIMITED tolerances of thousands of percent and more.
    The chart drew a grid line every 0.5 across the band: on the sim's whole gate at REPEAT:1, 13 GB and minutes of
    CPU in the gate's last keyword, before any report was written. The axis now stops where the ratios' does, the
    band drawn to its edge."""
    svg = charts.suite_chart(
        [
            {"name": "x", "measured": 2.0, "published": 10.0, "verdict": "pass", "tolerance": 1e4},
            {"name": "y", "measured": 9.0, "published": 10.0, "verdict": "pass", "tolerance": 0.1},
        ]
    )
    assert svg.count("<line") < 50
    assert charts._ticks(0.0, 1e9)[-1] >= 1e8 and len(charts._ticks(0.0, 1e9)) <= 41


def test_report_command_rebuilds_page_and_summary(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run_dir / "comparison.html").unlink()
    (run_dir / "summary.csv").unlink()
    assert cli.main(["report", str(run_dir), "--no-charts"]) == 0
    assert (run_dir / "comparison.html").exists() and (run_dir / "summary.csv").exists()
    assert capsys.readouterr().out.strip() == str(run_dir / "comparison.html")


def test_report_command_names_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    RunRecorder(tmp_path, META)
    (tmp_path / "metrics.json").write_text('[{"id": "x",\n oops]\n')
    assert cli.main(["report", str(tmp_path)]) == 2
    assert f"{tmp_path / 'metrics.json'}:2: not valid JSON" in capsys.readouterr().err


def test_each_criterions_samples_are_a_strip_in_its_row(tmp_path: Path) -> None:
    """A criterion measured several times shows its samples as a distribution beside its value: a dot per sample,
    the published value and the threshold on the same axis; one measured once shows no strip."""
    rec = RunRecorder(tmp_path, META)
    e = sample.entries(json.loads(CRITERIA.read_text()))[0]
    published = e["published"]
    many = [published * f for f in (0.97, 1.0, 1.02, 0.99, 1.01)]
    rec.record({**e, "measured": many[1], "samples": many, "tolerance": 0.1, "direction": "higher"})
    second = sample.entries(json.loads(CRITERIA.read_text()))[1]
    rec.record({**second, "samples": [second["published"]]})
    text = html.build(tmp_path, charts=False).read_text()
    strips = re.findall(r'<svg class="samples".*?</svg>', text, re.S)
    assert len(strips) == 1, strips
    assert strips[0].count("<circle") == 5 and 'class="published"' in strips[0] and 'class="threshold"' in strips[0]
    assert f"5 samples {min(many):g} .. {max(many):g}" in strips[0]
    row = text[text.index(f'data-id="{e["id"]}"') :]
    assert row.index('<svg class="samples"') < row.index("</tr>")  # in the criterion's own row


def test_the_strips_threshold_is_on_the_worse_side_of_the_published_value() -> None:
    from perfgate.report.strip import strip_svg

    def x_of(svg: str, cls: str) -> float:
        return float(re.search(rf'class="{cls}" x1="([\d.]+)"', svg).group(1))

    lower = strip_svg([9.0, 10.5, 11.5], 10.0, 0.1, "lower")  # latency: worse is higher
    higher = strip_svg([9.0, 10.5, 11.5], 10.0, 0.1, "higher")
    assert x_of(lower, "threshold") > x_of(lower, "published") and x_of(higher, "threshold") < x_of(higher, "published")
    assert "threshold 11" in lower and "threshold 9" in higher
    assert strip_svg([10.0], 10.0, 0.1, "higher") == ""  # one value: the row's measured value says it
    assert 'class="threshold"' not in strip_svg([1, 2], 3, 0.1, "match")
