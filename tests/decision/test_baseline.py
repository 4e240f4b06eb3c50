"""The board against its own baseline (perfgate.baseline): the two-sample rule on values drawn as the simulated board
draws them, variables/baseline.yaml's errors, which run is the baseline, the board's own noise from its history,
comparison.html's section, and the whole thing through robot on the simulated board (a run accepted, then a run
with one criterion 5 % worse: reported, and with BASELINE_GATES:true failing its test)."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import criteria, paths
from perfgate.baseline import config, noise, rule, select
from perfgate.errors import DataError, PerfgateError
from perfgate.report import html, rundir
from perfgate.report.recorder import RunRecorder
from perfgate.sim import values

CFG = config.load()
CPU = config.ClassNoise("cpu", 0.02, 0.005, 0.003)


def _draws(rng: random.Random, value: float, n: int, sd: float, offset_sd: float = 0.0) -> list[float]:
    offset = rng.gauss(0.0, offset_sd)
    return [values.draw(value, "higher", rng, sd) * math.exp(offset) for _ in range(n)]


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_a_healthy_board_against_itself_raises_no_worse_and_a_regression_reads_worse() -> None:
    """600 criteria compared at once (the family): a healthy run raises no `worse` in 19 of 20 runs, most read the
    same; a 5 % regression with 5 values a run is found worse every time, and a 1 % one never."""
    rng = random.Random(7)
    clean = 0
    for _ in range(20):
        verdicts = [rule.compare(_draws(rng, 100, 5, 0.005, 0.003), _draws(rng, 100, 5, 0.005, 0.003), "higher", CPU,
                                 CFG, 600).verdict for _ in range(600)]  # fmt: skip
        clean += rule.WORSE not in verdicts
        assert verdicts.count(rule.SAME) > 500
    assert clean >= 19
    worse = [rule.compare(_draws(rng, 100, 5, 0.005, 0.003), _draws(rng, 95, 5, 0.005, 0.003), "higher", CPU, CFG,
                          600) for _ in range(20)]  # fmt: skip
    assert all(c.verdict == rule.WORSE for c in worse)
    assert all(-6.5 < c.change_pct < -3.5 and c.low_pct < c.change_pct < c.high_pct for c in worse)
    small = [rule.compare(_draws(rng, 100, 5, 0.005), _draws(rng, 99, 5, 0.005), "higher", CPU, CFG, 600).verdict
             for _ in range(20)]  # fmt: skip
    assert rule.WORSE not in small  # inside the tolerance: never worse, however sure


def test_directions_one_value_runs_and_values_without_a_log_scale() -> None:
    lower = rule.compare([10.0, 10.1], [11.0, 11.1], "lower", CPU, CFG, 10)
    assert lower.verdict == rule.WORSE and lower.change_pct > 0  # a latency that rose
    assert rule.compare([10.0, 10.1], [9.0, 9.1], "lower", CPU, CFG, 10).verdict == rule.BETTER
    assert rule.compare([1400.0], [1200.0], "match", CPU, CFG, 10).verdict == rule.WORSE  # a clock off either way
    one = rule.compare([100.0], [100.2], "higher", CPU, CFG, 10)  # one value a run: the class noise stands in
    assert one.verdict == rule.SAME and one.n_a == one.n_b == 1 and one.detectable_pct is not None
    wide = rule.compare([100.0], [100.2], "higher", config.ClassNoise("wide", 0.02, 0.05, 0.05), CFG, 600)
    assert wide.verdict == rule.UNDECIDED and wide.detectable_pct > 20  # says how little it could see
    assert rule.compare([0.0], [0.0], "lower", CPU, CFG).verdict == rule.SAME
    zero = rule.compare([0.0, 0.1], [0.2], "lower", CPU, CFG)
    assert zero.verdict == rule.UNDECIDED and "log" in zero.reason
    assert rule.compare([], [1.0], "higher", CPU, CFG).reason == "no value in the baseline"


def test_a_suite_averages_its_rows_but_not_the_boot_offset() -> None:
    """Twenty rows each 2 % worse, each too noisy alone: the suite is worse. The boot offset is one draw shared by the
    rows, so a suite whose class puts most noise between boots cannot be sure of the same."""
    rng = random.Random(3)
    noisy = config.ClassNoise("noisy", 0.01, 0.02, 0.001)
    rows = [(_draws(rng, 100, 3, 0.02), _draws(rng, 98, 3, 0.02), "higher", noisy) for _ in range(20)]
    assert all(rule.compare(a, b, d, n, CFG, 40).verdict != rule.WORSE for a, b, d, n in rows)
    suite = rule.combine(rows, CFG, 40)
    assert suite is not None and suite.verdict == rule.WORSE and -3 < suite.change_pct < -1
    shared = [(a, b, d, config.ClassNoise("boots", 0.01, 0.02, 0.03)) for a, b, d, _ in rows]
    assert rule.combine(shared, CFG, 40).verdict == rule.UNDECIDED
    assert rule.combine([([1.0], [1.0], "match", noisy)], CFG) is None


def test_the_board_history_replaces_the_class_noise(tmp_path: Path) -> None:
    """Three accepted runs or more: the board's own spread within and between runs (shrunk towards the class);
    fewer: the class, widened to the guide's spread; a two-mode row keeps its guide's range."""
    rng = random.Random(5)
    cls = config.ClassNoise("c", 0.02, 0.01, 0.03)
    steady = [_draws(rng, 100, 5, 0.002) for _ in range(20)]
    own = noise.of_history(steady, cls, CFG)
    assert own.sd < 0.005 and own.between < 0.01 and own.between_df == 19 + CFG.between_df
    assert noise.of_history(steady[:2], cls, CFG) is cls
    (c,) = [c for c in criteria.select("am62xx_sk", None).criteria if c.id.endswith("stream-benchmarks.add-mb-s.perf")]
    wide = noise.of_criterion(c, CFG, False, [])
    assert math.hypot(wide.sd, wide.between) == pytest.approx((c.max - c.min) / (2 * c.value))  # type: ignore[operator]
    assert noise.of_criterion(c, CFG, True, []) == CFG.of(c)  # an artefact's min/max is no spread
    assert noise.of_criterion(c, CFG, False, steady).name.endswith("board history of 20 runs")


def test_bad_baseline_yaml_names_file_key_and_line(tmp_path: Path) -> None:
    good = (paths.variables() / "baseline.yaml").read_text()
    for bad, needle in [
        (good.replace("alpha_worse: 0.05", "alpha_worse: lots"), r"baseline.yaml:\d+: alpha_worse: 'lots' is not"),
        (good.replace("alpha_same: 0.05", "alpha_same: 0.05\nalpha: 1"), r"unknown key 'alpha'"),
        (good.replace("    tolerance: 0.25\n    sd: 0.125", "    tolerance: 0.25\n    sd: -1", 1),
         r"baseline.yaml:\d+: classes\[0\] \(rt-latency-max\).sd: -1 is out of range"),
        (good.replace("match: {chapter: '^boot$'}", "match: {chip: 'x'}"), r"cannot match on 'chip'"),
    ]:  # fmt: skip
        f = tmp_path / "baseline.yaml"
        f.write_text(bad)
        with pytest.raises(DataError, match=needle):
            config.load(f)


def _run(results: Path, name: str, verdict_of: dict[str, float], *, lab: str = "sim", release: str = "12.00.00",
         virtual: bool = True, faults: str | None = None, failed: bool = False, suite: str = "stream",
         unit: str = "MB/s") -> Path:  # fmt: skip
    board = "am62xx_sk"
    d = results / ("virtual" if virtual else "") / board / name
    rec = RunRecorder(d, {"board": board, "lab": lab, "virtual": virtual, "release": release, "faults": faults,
                          "started": f"2026-01-0{name[-1]}T00:00:00+00:00"})  # fmt: skip
    for metric, v in verdict_of.items():
        rec.record({"id": f"{board}.{suite}.t.{metric}.m", "name": metric, "board": board, "suite": suite,
                    "chapter": "system", "unit": unit, "measured": v, "published": 100.0, "direction": "higher",
                    "tolerance": 0.1, "verdict": "fail" if failed else "pass", "samples": [v, v * 1.001]})  # fmt: skip
    rec.finish()
    return d


def test_the_last_accepted_run_of_the_same_release_lab_and_kind_is_the_baseline(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _run(tmp_path, "20260101-000001", {"copy": 100})
    _run(tmp_path, "20260101-000002", {"copy": 101})  # the one
    _run(tmp_path, "20260101-000003", {"copy": 50}, failed=True)
    _run(tmp_path, "20260101-000004", {"copy": 90}, faults="degrade:*:10")
    _run(tmp_path, "20260101-000005", {"copy": 80}, lab="bench2")
    _run(tmp_path, "20260101-000006", {"copy": 70}, release="11.02")
    _run(tmp_path, "20260101-000007", {"copy": 60}, virtual=False, lab="sim")
    b, why = select.choose(None, "am62xx_sk", True, "sim", "12.00.00", exclude="20260101-000009")
    assert b is not None and b.run == "20260101-000002" and not why
    assert b.values == {"stream.t.copy.m": [101.0, pytest.approx(101.101)]}
    assert select.choose("none", "am62xx_sk", True, "sim", "12.00.00")[0] is None
    none, why = select.choose(None, "am62xx_sk", True, "lab9", "12.00.00")
    assert none is None and "no accepted virtual run of am62xx_sk judged against 12.00.00 in lab lab9" in why
    named, _ = select.choose("20260101-000005", "am62xx_sk", True, "sim", "12.00.00")
    assert named is not None and named.how == "named" and named.lab == "bench2"
    with pytest.raises(PerfgateError, match="hardware and virtual runs are never compared"):
        select.choose("am62xx_sk/20260101-000007", "am62xx_sk", True, "sim", "12.00.00")
    runs = select.board_runs("am62xx_sk", True, "sim")
    assert len(runs["stream.t.copy.m"]) == 3  # accepted runs in the lab, any release


def test_comparison_html_has_the_section_and_a_second_verdict_column(tmp_path: Path) -> None:
    d = tmp_path / "virtual" / "am62xx_sk" / "20260102-000000"
    base = {"run": "20260101-000000", "label": "virtual/am62xx_sk/20260101-000000", "release": "12.00.00",
            "lab": "sim", "how": "last-accepted", "compared": 3, "gates": False,
            "suites": {"stream": {"verdict": "worse", "change_pct": -4.9, "low_pct": -5.5, "high_pct": -4.3,
                                  "detectable_pct": 2.1, "rows": 2}}}  # fmt: skip
    rec = RunRecorder(d, {"board": "am62xx_sk", "lab": "sim", "virtual": True, "baseline": base})
    for metric, verdict, change in (("copy", "worse", -5.0), ("add", "same", 0.1)):
        ch = rule.compare([100.0, 100.1], [100 * (1 + change / 100)] * 2, "higher", CPU, CFG, 3)
        assert ch.verdict == verdict
        rec.record({"id": f"am62xx_sk.stream.t.{metric}.m", "name": metric, "suite": "stream", "chapter": "system",
                    "measured": 95.0, "published": 100.0, "direction": "higher", "tolerance": 0.1, "verdict": "pass",
                    "baseline": {"run": "20260101-000000", **ch.to_json()}})  # fmt: skip
    rec.finish()
    page = (d / "comparison.html").read_text()
    assert 'id="baseline"' in page and "Against the last accepted run: virtual/am62xx_sk/20260101-000000" in page
    assert 'data-baseline-id="am62xx_sk.stream.t.copy.m" data-baseline="worse"' in page
    assert 'data-baseline-id="am62xx_sk.stream.t.add.m"' not in page  # the same: in its suite's table only
    assert page.count('data-against="worse"') == 1 and page.count('data-against="same"') == 1
    assert 'data-baseline-suite="stream"' in page and 'data-filter="worse"' in page
    table = html.suite_table_html(rundir.load(d).entries)
    assert "Against baseline" in table and ">worse</b> -5.0 %" in table


def _robot(tmp: Path, out: str, *args: str, suite_file: str = "system/nbench.robot") -> subprocess.CompletedProcess:
    suite = paths.root() / "suites" / suite_file
    cmd = [sys.executable, "-m", "robot", "--outputdir", str(tmp / out), "--console", "dotted", "-v",
           "BOARD:am62xx_sk", "-v", "SIM_SPEED:20", *args, str(suite)]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PERFGATE_NO_COLLECT": "1"}
    return subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True, timeout=300)  # fmt: skip


@pytest.mark.slow
def test_through_robot_a_regression_against_the_last_accepted_run_is_reported_then_gated(tmp_path: Path) -> None:
    """A first run on the simulated board has no baseline and passes (accepted); a second with one nbench row 5 %
    slower (inside the guide's 10 %: the guide's verdict passes) reads `worse` against it and nothing else does;
    with BASELINE_GATES:true that criterion's test fails, and the run with it."""
    first = _robot(tmp_path, "o1", "-v", "SIM_SEED:1")
    assert first.returncode == 0, first.stdout[-2000:]
    assert "against a baseline: none (no accepted virtual run of am62xx_sk" in first.stdout
    fault = "FAULTS:degrade:am62xx_sk.nbench.nbench-benchmarks.idea-*:5"
    for gates, rc in (("false", 0), ("true", 1)):
        run = _robot(tmp_path, f"o-{gates}", "-v", "SIM_SEED:2", "-v", fault, "-v", f"BASELINE_GATES:{gates}")
        assert run.returncode == rc, run.stdout[-2000:]
        latest = sorted((tmp_path / "results" / "virtual" / "am62xx_sk").glob("2*"))[-1]
        meta = json.loads((latest / "run.json").read_text())
        first_run = sorted((tmp_path / "results" / "virtual" / "am62xx_sk").glob("2*"))[0].name
        assert meta["baseline"]["run"] == first_run and meta["baseline"]["how"] == "last-accepted"
        entries = {e["name"]: e for e in json.loads((latest / "metrics.json").read_text())}
        worse = [n for n, e in entries.items() if e["baseline"]["verdict"] == "worse"]
        assert worse == ["idea (iterations)"], {n: e["baseline"] for n, e in entries.items()}
        assert -7 < entries["idea (iterations)"]["baseline"]["change_pct"] < -3
        assert entries["idea (iterations)"]["verdict"] == ("fail" if gates == "true" else "pass")
        assert meta["verdict"] == ("fail" if gates == "true" else "pass")
        assert "worse 1" in run.stdout and 'id="baseline"' in (latest / "comparison.html").read_text()


def test_perfgate_compare_uses_the_same_statistics(tmp_path: Path, monkeypatch, capsys) -> None:
    """`perfgate compare A B`: each criterion's change with its interval and the rule's verdict; a `worse` exits 1
    even inside the old tolerance-only reading; no change reads `same` or no detectable change, with what it could
    have detected."""
    from perfgate import cli

    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    cpu = {"suite": "nbench", "unit": "iterations"}  # class cpu: 0.35 % within a run and between runs
    _run(tmp_path, "20260101-000001", {"copy": 100.0, "add": 100.0}, **cpu)
    _run(tmp_path, "20260101-000002", {"copy": 100.1, "add": 100.0}, **cpu)
    _run(tmp_path, "20260101-000003", {"copy": 96.0, "add": 100.0}, **cpu)  # 4 %: inside the guide's 10 %
    assert cli.main(["compare", "am62xx_sk/20260101-000001", "am62xx_sk/20260101-000002"]) == 0
    out = capsys.readouterr().out
    assert "Worse: 0" in out and "The same within tolerance: 2" in out
    assert cli.main(["compare", "virtual/am62xx_sk/20260101-000002", "virtual/am62xx_sk/latest", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["regressed"] == []  # the tolerance-only reading sees nothing
    (worse,) = data["two_sample"]["worse"]
    assert worse["name"] == "copy" and worse["stat"]["verdict"] == "worse"
    assert worse["stat"]["low_pct"] < worse["stat"]["change_pct"] < worse["stat"]["high_pct"] < 0
    assert data["two_sample"]["suites"]["nbench"]["verdict"] in ("worse", "undecided")


def test_the_baseline_variables_are_checked_before_anything_runs(tmp_path: Path, monkeypatch) -> None:
    from perfgate import runvars

    assert runvars.read(lambda name: {"BASELINE_GATES": "TRUE"}.get(name)).baseline_gates is True
    assert runvars.read(lambda name: None).baseline_gates is False
    with pytest.raises(runvars.VariableError, match=r"variable BASELINE_GATES: must be true or false, not 'maybe'"):
        runvars.read(lambda name: {"BASELINE_GATES": "maybe"}.get(name))
    assert runvars.unknown_names(["BASELINE", "BASELINE_GATES"]) == []
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    with pytest.raises(PerfgateError, match=r"variable BASELINE: no run '20990101-000000' of am62xx_sk in .*: none;"):
        select.choose("20990101-000000", "am62xx_sk", True, "sim", "12.00.00")


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_the_rate_benchmark_measures_or_says_it_measured_nothing() -> None:
    """benchmarks/baseline_rates.py as a user runs it: two trials report both rates; nothing to draw is an error."""
    bench = paths.root() / "benchmarks" / "baseline_rates.py"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, timeout=300,
                              check=False)  # fmt: skip

    ok = run("--trials", "2")
    assert ok.returncode == 0, ok.stderr
    assert "healthy vs healthy: no `worse` (criterion or suite) in 2/2 runs" in ok.stdout
    assert "a 5 % regression in coremark_pro, stream (24 criteria)" in ok.stdout and "suite as a whole" in ok.stdout
    assert run("--trials", "0").returncode == 2
    nothing = run("--trials", "1", "--regressed", "no_such_suite")
    assert nothing.returncode == 1 and "NOTHING MEASURED" in nothing.stderr
    ab_nothing = run("--trials", "1", "--ab", "--ab-target", "nothing.*")
    assert ab_nothing.returncode == 1 and "NOTHING MEASURED" in ab_nothing.stderr
