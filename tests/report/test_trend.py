"""The board history and `perfgate trend`: a metric or a suite across runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from perfgate import cli, paths
from perfgate.report import history, trend
from perfgate.report.recorder import RunRecorder


def _finished_run(root: Path, name: str, copy: float, lat: float, virtual: bool = True) -> Path:
    d = paths.board_results("am62xx_sk", virtual) / name
    rec = RunRecorder(d, {"board": "am62xx_sk", "lab": "sim", "virtual": virtual, "started": name})
    for metric, v, direction in (("copy (MB/s)", copy, "higher"), ("lat_tcp (us)", lat, "lower")):
        suite = "stream" if metric.startswith("copy") else "lmbench"
        rec.record({"id": f"am62xx_sk.{suite}.t.{metric[:4]}.m", "name": metric, "suite": suite, "chapter": "system",
                    "measured": v, "published": 100.0, "direction": direction, "tolerance": 0.1,
                    "verdict": "pass" if abs(v - 100) <= 10 else "fail", "unit": "MB/s"})  # fmt: skip
    rec.finish({})
    return d


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _finished_run(tmp_path, "20260101-000000", 100, 100)
    _finished_run(tmp_path, "20260102-000000", 80, 125)
    _finished_run(tmp_path, "20260103-000000", 104, 100, virtual=False)
    return tmp_path


def test_history_has_one_line_per_run_and_the_last_wins(results: Path) -> None:
    path = results / "virtual" / "am62xx_sk" / "history.jsonl"  # virtual runs are filed apart from hardware runs
    assert len(path.read_text().splitlines()) == 2
    assert [r["run"] for r in history.read(results / "am62xx_sk" / "history.jsonl").runs] == ["20260103-000000"]
    history.append(results / "virtual" / "am62xx_sk" / "20260101-000000")  # re-appended (perfgate report --history)
    with path.open("a") as f:
        f.write('{"run": "broken"\n')  # a run killed in the middle of its append
    h = history.read(path)
    assert [r["run"] for r in h.runs] == ["20260101-000000", "20260102-000000"]
    assert h.problems == [f"{path}:4: skipped, not valid JSON (Expecting ',' delimiter)"]
    assert h.runs[1]["metrics"]["am62xx_sk.stream.t.copy.m"]["measured"] == 80
    assert [(r["virtual"], r["status"], r["verdict"]) for r in h.runs] == [(True, "finished", "pass"),
                                                                           (True, "finished", "fail")]  # fmt: skip


def test_metric_and_suite_series(results: Path) -> None:
    runs = [*history.read(history.path_for("am62xx_sk", True)).runs, *history.read(history.path_for("am62xx_sk")).runs]
    assert [i for i, _ in trend.find_metrics(runs, "copy (MB/s)")] == ["am62xx_sk.stream.t.copy.m"]
    assert [i for i, _ in trend.find_metrics(runs, "*.t.*")] == [
        "am62xx_sk.stream.t.copy.m",
        "am62xx_sk.lmbench.t.lat_.m",
    ]
    assert [i for i, _ in trend.find_metrics(runs, "LAT_TCP")] == ["am62xx_sk.lmbench.t.lat_.m"]
    assert trend.find_metrics(runs, "nothing") == []
    s = trend.metric_series(runs, "am62xx_sk.stream.t.copy.m")
    assert [p.value for p in s.points] == [100, 80, 104]
    assert [p.verdict for p in s.points] == ["pass", "fail", "pass"]
    lm = trend.suite_series(runs, "lmbench")  # lower is better: goodness = published / measured
    assert [p.value for p in lm.points] == pytest.approx([1.0, 0.8, 1.0])
    assert trend.goodness({"measured": 50, "published": 100, "direction": "higher"}) == 0.5
    both = [m for m in runs[1]["metrics"].values()]
    geo = math.exp(sum(math.log(trend.goodness(m)) for m in both) / 2)
    assert geo == pytest.approx(0.8)


def test_trend_command_prints_and_plots(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_png = results / "copy.png"
    assert cli.main(["trend", "am62xx-sk", "--metric", "copy", "--out", str(out_png), "--mix"]) == 0
    out, err = capsys.readouterr()
    assert "20260102-000000" in out and "published 100" in out and "fail  (virtual)" in out
    assert "MIXED (--mix): virtual and hardware runs of am62xx_sk" in err
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out_png.stat().st_size > 5000
    assert cli.main(["trend", "am62xx_sk", "--suite", "lmbench", "--last", "2", "--json", "--no-plot", "--mix"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["run"] for p in data[0]["points"]] == ["20260102-000000", "20260103-000000"]
    assert cli.main(["trend", "am62xx_sk"]) == 0
    assert (results / "am62xx_sk" / "trend-suites.png").exists()


def test_trend_keeps_virtual_and_hardware_apart(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A board's trend is its hardware runs; --virtual its virtual ones; the two share a plot only with --mix."""
    assert cli.main(["trend", "am62xx_sk", "--metric", "copy", "--json", "--no-plot"]) == 0
    (hw,) = json.loads(capsys.readouterr().out)
    assert [(p["run"], p["virtual"]) for p in hw["points"]] == [("20260103-000000", False)]
    assert cli.main(["trend", "am62xx_sk", "--metric", "copy", "--json", "--no-plot", "--virtual"]) == 0
    (virtual,) = json.loads(capsys.readouterr().out)
    assert [(p["run"], p["virtual"]) for p in virtual["points"]] == [
        ("20260101-000000", True),
        ("20260102-000000", True),
    ]
    assert cli.main(["trend", "am62xx_sk", "--suite", "stream", "--virtual"]) == 0
    assert (results / "virtual" / "am62xx_sk" / "trend-stream.png").exists()


def test_trend_of_a_board_with_only_virtual_runs_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _finished_run(tmp_path, "20260101-000000", 100, 100)
    assert cli.main(["trend", "am62xx_sk", "--metric", "copy", "--no-plot"]) == 0
    out, err = capsys.readouterr()
    assert "am62xx_sk has no hardware run: showing its VIRTUAL runs" in err and "(virtual)" in out


def test_trend_command_errors(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["trend", "am62xx_sk", "--suite", "nope", "--no-plot"]) == 2
    assert "no suite 'nope'" in capsys.readouterr().err and True
    assert cli.main(["trend", "am62xx_sk", "--metric", "nothing", "--no-plot"]) == 2
    assert cli.main(["trend", "no_such_board"]) == 2
    assert "unknown board" in capsys.readouterr().err


def _with_samples(name: str, samples: list[float] | None) -> None:
    """A virtual run of am62xx_sk; `samples` None: a run that did not run the stream suite (another suite only)."""
    d = paths.board_results("am62xx_sk", True) / name
    rec = RunRecorder(d, {"board": "am62xx_sk", "lab": "sim", "virtual": True, "started": name})
    if samples is None:
        rec.record({"id": "am62xx_sk.lmbench.t.lat_.m", "name": "lat_tcp (us)", "suite": "lmbench", "unit": "us",
                    "measured": 9.0, "published": 10.0, "direction": "lower", "tolerance": 0.1,
                    "verdict": "pass"})  # fmt: skip
    else:
        median = sorted(samples)[len(samples) // 2]
        rec.record({"id": "am62xx_sk.stream.t.copy.m", "name": "copy (MB/s)", "suite": "stream", "unit": "MB/s",
                    "measured": median, "published": 100.0, "direction": "higher", "tolerance": 0.1,
                    "verdict": "pass", "samples": samples})  # fmt: skip
    rec.finish({})


def test_trend_names_virtual_runs_as_compare_does_and_counts_the_runs_it_plots(tmp_path: Path, monkeypatch,
                                                                                capsys) -> None:  # fmt: skip
    """`trend virtual/<board>` is the board's virtual runs (as `compare virtual/<board>/latest` names them), and the
    title counts the runs that have a value, not every run of the history."""
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _finished_run(tmp_path, "20260103-000000", 104, 100, virtual=False)  # a hardware run: not in the virtual plot
    for day, samples in ((1, [99.0, 101.0, 100.0]), (2, None), (3, [97.0, 103.0, 98.0, 102.0]), (4, None)):
        _with_samples(f"2026020{day}-000000", samples)
    assert cli.main(["trend", "virtual/am62xx_sk", "--metric", "copy", "--out", str(tmp_path / "c.svg")]) == 0
    out, err = capsys.readouterr()
    assert "20260201-000000" in out and "20260103-000000" not in out, out + err
    svg = (tmp_path / "c.svg").read_text()
    assert "across 2 virtual runs (of 4; the others have no value for it)" in svg.replace("&#x27;", "'")


def test_trend_samples_plots_a_criterions_distribution_per_run(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    for day, samples in ((1, [99.0, 101.0, 100.0]), (2, [97.0, 103.0, 98.0, 102.0, 100.5])):
        _with_samples(f"2026020{day}-000000", samples)
    out_svg = tmp_path / "samples.svg"
    assert cli.main(["trend", "virtual/am62xx_sk", "--samples", "copy", "--out", str(out_svg)]) == 0
    out = capsys.readouterr().out
    assert "3 samples 99 .. 101" in out and "5 samples 97 .. 103" in out, out
    svg = out_svg.read_text()
    assert "copy (MB/s) samples across 2 virtual runs" in svg and "n=5" in svg
    runs = history.read(history.path_for("am62xx_sk", True)).runs
    fig = trend.samples_figure(trend.metric_series(runs, "am62xx_sk.stream.t.copy.m"), "t")
    dots = [c for c in fig.axes[0].collections if len(c.get_offsets()) in (3, 5)]
    assert sorted(len(c.get_offsets()) for c in dots) == [3, 5]  # every sample is a dot
    assert cli.main(["trend", "virtual/am62xx_sk", "--samples", "nothing", "--no-plot"]) == 2
    assert "--samples needs one criterion: 0 match 'nothing'" in capsys.readouterr().err


def test_the_trend_plots_y_label_fits_in_the_figure(results: Path) -> None:
    runs = [*history.read(history.path_for("am62xx_sk", True)).runs, *history.read(history.path_for("am62xx_sk")).runs]
    series = [trend.suite_series(runs, s) for s in trend.suites_in(runs)]
    fig = trend.figure(series, "am62xx_sk: suites")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    label = fig.axes[0].yaxis.label.get_window_extent(renderer)
    assert label.y0 >= 0 and label.y1 <= fig.bbox.height and label.x0 >= 0, (label, fig.bbox)
