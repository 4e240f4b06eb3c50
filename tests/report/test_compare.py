"""`perfgate compare`: regressions and improvements beyond tolerance between two runs (releases or boards)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfgate import cli
from perfgate.errors import PerfgateError
from perfgate.report import compare, rundir
from perfgate.report.recorder import RunRecorder


def _run(root: Path, board: str, name: str, values: dict[str, float | None], tol: float = 0.05,
         virtual: bool = True) -> Path:  # fmt: skip
    d = root / ("virtual" if virtual else "") / board / name  # runs are filed by kind
    rec = RunRecorder(d, {"board": board, "lab": "sim" if virtual else "bench", "virtual": virtual, "guide": "g.rst"})
    directions = {"copy": "higher", "lat": "lower", "clock": "match", "extra": "higher"}
    for metric, v in values.items():
        rec.record({
            "id": f"{board}.stream.t.{metric}.m", "name": metric, "board": board, "suite": "stream",
            "chapter": "system", "unit": "x", "measured": v, "published": 100.0,
            "direction": directions.get(metric.rstrip("0123456789"), "higher"), "tolerance": tol,
            "verdict": "pass" if v is not None else "not-measured",
        })  # fmt: skip
    return d


def test_classification(tmp_path: Path) -> None:
    a = _run(
        tmp_path,
        "am62xx_sk",
        "20260101-000000",
        {"copy1": 100, "copy2": 100, "copy3": 100, "lat1": 10, "lat2": 10, "clock": 1400, "gone": 5, "only_a": 1},
    )
    b = _run(
        tmp_path,
        "am62xx_sk",
        "20260102-000000",
        {"copy1": 94, "copy2": 106, "copy3": 96, "lat1": 11, "lat2": 9, "clock": 1200, "gone": None, "only_b": 1},
    )
    r = compare.compare(rundir.load(a), rundir.load(b))
    kinds = {c.name: c.kind for c in r.changes}
    assert kinds == {"copy1": "regressed", "copy2": "improved", "copy3": "unchanged", "lat1": "regressed",
                     "lat2": "improved", "clock": "regressed", "gone": "lost"}  # fmt: skip
    assert r.only_a == ["stream.t.only_a.m"] and r.only_b == ["stream.t.only_b.m"]
    assert r.regressed
    c1 = next(c for c in r.changes if c.name == "copy1")
    assert c1.change_pct == pytest.approx(-6.0) and c1.tolerance == 0.05
    wide = compare.compare(rundir.load(a), rundir.load(b), tolerance=0.5)
    assert {c.name for c in wide.of("regressed", "lost")} == {"gone"}


def test_two_boards_of_one_soc_match_row_by_row(tmp_path: Path) -> None:
    a = _run(tmp_path, "am62xx_sk", "20260101-000000", {"copy1": 100, "lat1": 10})
    b = _run(tmp_path, "am62xx_lp_sk", "20260101-000000", {"copy1": 80, "lat1": 10})
    r = compare.compare(rundir.load(a), rundir.load(b))
    assert not r.only_a and not r.only_b
    assert [(c.key, c.kind) for c in r.changes] == [("stream.t.copy1.m", "regressed"), ("stream.t.lat1.m", "unchanged")]


def test_command_exit_status_and_output(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _run(tmp_path, "am62xx_sk", "20260101-000000", {"copy1": 100, "lat1": 10})
    _run(tmp_path, "am62xx_sk", "20260102-000000", {"copy1": 100, "lat1": 10.1})
    _run(tmp_path, "am62xx_sk", "20260103-000000", {"copy1": 50, "lat1": 10})
    assert cli.main(["compare", "am62xx_sk/20260101-000000", "am62xx_sk/20260102-000000"]) == 0
    out = capsys.readouterr().out
    assert "Regressed beyond tolerance: 0" in out and "0 regressed" in out
    assert cli.main(["compare", "am62xx_sk/previous", "am62xx_sk/latest"]) == 1
    out = capsys.readouterr().out
    assert "A: virtual/am62xx_sk/20260102-000000" in out and "B: virtual/am62xx_sk/20260103-000000" in out
    assert "Regressed beyond tolerance: 1" in out and "copy1" in out and "-50.0 %" in out
    assert cli.main(["compare", str(tmp_path / "virtual/am62xx_sk/20260101-000000"), "am62xx_sk", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in data["regressed"]] == ["copy1"]


def test_command_names_an_unknown_run(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _run(tmp_path, "am62xx_sk", "20260101-000000", {"copy1": 100})
    assert cli.main(["compare", "am62xx_sk/20990101-000000", "am62xx_sk"]) == 2
    assert "no run '20990101-000000' of am62xx_sk; runs: 20260101-000000" in capsys.readouterr().err
    assert cli.main(["compare", "am62xx_sk/previous", "am62xx_sk"]) == 2
    assert "only one run" in capsys.readouterr().err


def test_virtual_and_hardware_runs_are_compared_only_when_forced(tmp_path: Path, monkeypatch, capsys) -> None:
    """<board>/latest and /previous name the board's hardware runs and never cross into its virtual runs; comparing
    a virtual run with a hardware run is refused, and with --mix it is done and said."""
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path))
    _run(tmp_path, "am62xx_sk", "20260101-000000", {"copy1": 100}, virtual=False)
    _run(tmp_path, "am62xx_sk", "20260102-000000", {"copy1": 50})  # a later sim run: not the board's latest
    _run(tmp_path, "am62xx_sk", "20260103-000000", {"copy1": 101}, virtual=False)
    assert cli.main(["compare", "am62xx_sk/previous", "am62xx_sk/latest"]) == 0
    out = capsys.readouterr().out
    assert "A: am62xx_sk/20260101-000000 (bench, g.rst)" in out and "B: am62xx_sk/20260103-000000" in out
    assert cli.main(["compare", "am62xx_sk/latest", "virtual/am62xx_sk/latest"]) == 2
    err = capsys.readouterr().err
    assert "will not compare a virtual run with a hardware run" in err and "--mix" in err
    assert cli.main(["compare", "am62xx_sk/latest", "virtual/am62xx_sk/latest", "--mix", "--json"]) == 1
    out, err = capsys.readouterr()
    assert "MIXED KINDS (--mix): am62xx_sk/20260103-000000 is a hardware run (lab bench)" in err
    assert json.loads(out)["mixed"].startswith("am62xx_sk/20260103-000000 is a hardware run")
    with pytest.raises(PerfgateError, match="a virtual board says nothing about hardware"):
        compare.compare(rundir.load(rundir.resolve("am62xx_sk")), rundir.load(rundir.resolve("virtual/am62xx_sk")))
