"""What a run publishes to SQUAD, and where, without a server (the server tests: tests/squad/test_squad_publish.py).

The run directories here are constructed (run.json and metrics.json written the way perfgate.report.metrics writes
them, with the fields the payload reads), one entry per verdict the gate gives, so that each verdict's mapping is
checked; the lab files are sim.yaml with a squad section added.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from perfgate import paths
from perfgate.board import lab as labs
from perfgate.errors import DataError, PerfgateError
from perfgate.report import rundir
from perfgate.squad import client, payload, target

BOARD = "am62xx_sk"
SIM_LAB = (paths.labs() / "sim.yaml").read_text(encoding="utf-8")


def _lab(tmp: Path, section: str) -> Path:
    path = tmp / "mylab.yaml"
    path.write_text(SIM_LAB + "\n" + section, encoding="utf-8")
    return path


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_lab_squad_section_is_checked_with_file_key_and_line(tmp_path: Path) -> None:
    good = _lab(tmp_path, "squad:\n  url: https://squad.example.org/\n  group: lkft\n  project: ti-perf\n")
    section = labs.load(str(good), BOARD).data["squad"]
    where = target.from_section(section, "mylab")
    assert (where.url, where.group, where.project, where.token_env) == (
        "https://squad.example.org", "lkft", "ti-perf", "SQUAD_TOKEN")  # fmt: skip
    bad = _lab(tmp_path, "squad:\n  url: ftp://squad.example.org\n  group: lkft\n  project: ti-perf\n")
    with pytest.raises(DataError, match=rf"mylab.yaml:{_line(bad, 'ftp://')}: squad.url: must be an http"):
        labs.load(str(bad), BOARD)
    token = _lab(tmp_path, "squad:\n  url: https://s.example.org\n  group: g\n  project: p\n  token: abc\n")
    with pytest.raises(DataError, match=rf"mylab.yaml:{_line(token, 'token:')}: squad.token: the token never goes"):
        labs.load(str(token), BOARD)
    env = _lab(tmp_path, "squad:\n  url: https://s.example.org\n  group: g\n  project: p\n  token_env: 'a b'\n")
    with pytest.raises(DataError, match=r"squad.token_env: must name an environment variable"):
        labs.load(str(env), BOARD)
    slug = _lab(tmp_path, "squad:\n  url: https://s.example.org\n  group: g\n  project: ti perf\n")
    with pytest.raises(DataError, match=rf"mylab.yaml:{_line(slug, 'ti perf')}: squad.project: must be a SQUAD"):
        labs.load(str(slug), BOARD)


def test_the_run_option_picks_the_target() -> None:
    section = {"url": "https://squad.example.org", "group": "lkft", "project": "ti", "token_env": "LKFT_TOKEN"}
    lab = {"name": "farm", "squad": section}
    assert target.for_run(None, {"name": "sim"}) is None  # nothing asked, nothing published
    assert target.for_run(None, lab).project_url == "https://squad.example.org/lkft/ti/"  # the lab's policy
    assert target.for_run("off", lab) is None
    assert target.for_run("lab", lab).token_env == "LKFT_TOKEN"
    with pytest.raises(DataError, match=r"variable SQUAD: `lab` .* lab sim has no squad section"):
        target.for_run("lab", {"name": "sim"})
    url = target.for_run("https://h.example.org/squad/other/proj/", lab)
    assert (url.url, url.group, url.project, url.token_env) == ("https://h.example.org/squad", "other", "proj",
                                                                "LKFT_TOKEN")  # fmt: skip
    assert target.for_run("http://127.0.0.1:8000/g/p", {}).token_env == "SQUAD_TOKEN"
    with pytest.raises(DataError, match=r"variable SQUAD: must be `lab`, `off` or a SQUAD project's URL"):
        target.for_run("squad.example.org", lab)
    with pytest.raises(DataError, match=r"variable SQUAD: the project in .* must be a SQUAD project slug"):
        target.for_run("https://h.example.org/g/p%20q/", lab)


def test_the_token_comes_from_the_environment_only(monkeypatch: pytest.MonkeyPatch) -> None:
    where = target.make("https://s.example.org", "g", "p", "MY_TOKEN", origin="the squad section of lab x")
    monkeypatch.delenv("MY_TOKEN", raising=False)
    with pytest.raises(PerfgateError, match=r"variable MY_TOKEN is not set .* target from the squad section of lab x"):
        where.token()
    monkeypatch.setenv("MY_TOKEN", " abc \n")
    assert where.token() == "abc"


ENTRIES = [  # (verdict, measured, message)
    ("pass", 100.0, "within tolerance"),
    ("warn", 130.0, "better than published beyond tolerance"),
    ("fail", 50.0, "worse than published beyond tolerance"),
    ("not-measured", None, "the tool printed no number"),
    ("inconclusive", 95.0, "still inside the noise band after 3 runs"),
    ("skip", None, "no NAND on this board"),
]


def _run(tmp: Path, **meta: object) -> Path:
    run = tmp / "20261126-080000"
    run.mkdir(parents=True)
    entries = [{"id": f"{BOARD}.stream.stream.row-{i}.{v}", "name": f"row {i} / {v}", "board": BOARD,
                "suite": "stream", "unit": "MB/s" if m is not None else "", "measured": m, "verdict": v,
                "message": msg} for i, (v, m, msg) in enumerate(ENTRIES)]  # fmt: skip
    base = {"board": BOARD, "lab": "sim", "virtual": True, "release": "11.02,12.00.00", "guide": "g.rst",
            "run": run.name, "started": "2026-11-26T08:00:00+00:00", "finished": "2026-11-26T08:01:00+00:00",
            "status": "finished", "verdict": "fail", "verdict_reason": "1 failed", "inconclusive": "fail",
            "pid": 123, "output": "/tmp/out/output.xml", "link_base": "/tmp/out", "suites": ["stream"]}  # fmt: skip
    base.update(meta)
    (run / "run.json").write_text(json.dumps({k: v for k, v in base.items() if v is not None}))
    (run / "metrics.json").write_text(json.dumps(entries))
    (run / "comparison.html").write_text("<html>the comparison</html>")
    return run


def test_each_verdict_maps_to_a_squad_result_with_its_reason(tmp_path: Path) -> None:
    sub = payload.build(rundir.load(_run(tmp_path)))
    results = {name: t["result"] for name, t in sub.tests.items()}
    assert results == {"stream/stream.row-0.pass": "pass", "stream/stream.row-1.warn": "pass",
                       "stream/stream.row-2.fail": "fail", "stream/stream.row-3.not-measured": "fail",
                       "stream/stream.row-4.inconclusive": "skip", "stream/stream.row-5.skip": "skip",
                       "gate/verdict": "fail"}  # fmt: skip
    logs = {name: t["log"] for name, t in sub.tests.items()}
    assert logs["stream/stream.row-4.inconclusive"] == (
        "inconclusive (counted by the gate as a fail): still inside the noise band after 3 runs"
    )
    assert logs["stream/stream.row-5.skip"] == "skipped: no NAND on this board"
    assert logs["gate/verdict"] == "fail: 1 failed"
    assert sub.metrics == {f"stream/stream.row-{i}.{v}": {"value": m, "unit": "MB/s"}
                           for i, (v, m, _) in enumerate(ENTRIES) if m is not None}  # fmt: skip
    assert (sub.build, sub.environment) == ("11.02_12.00.00", f"{BOARD}-virtual")  # a mixed release as a slug
    assert sub.metadata["job_id"] == f"{BOARD}-20261126-080000" and sub.metadata["release"] == "11.02,12.00.00"
    assert sub.metadata["datetime"] == "2026-11-26T08:00:00+00:00"
    assert not {"pid", "output", "link_base"} & set(sub.metadata)
    assert [p.name for p in sub.attachments] == ["comparison.html", "metrics.json"]
    hardware = payload.build(rundir.load(_run(tmp_path / "hw", virtual=False, release="12.00.00")))
    assert (hardware.build, hardware.environment) == ("12.00.00", BOARD)


def test_a_run_that_judged_nothing_never_reads_as_a_pass(tmp_path: Path) -> None:
    run = _run(tmp_path, verdict="fail", verdict_reason="nothing was measured: 6 of 6 criteria skipped")
    entries = json.loads((run / "metrics.json").read_text())
    (run / "metrics.json").write_text(json.dumps([{**e, "verdict": "skip"} for e in entries]))
    sub = payload.build(rundir.load(run))
    assert {t["result"] for n, t in sub.tests.items() if n != "gate/verdict"} == {"skip"}
    assert sub.tests["gate/verdict"]["result"] == "fail"


@pytest.mark.parametrize(
    ("meta", "why"),
    [
        ({"status": "interrupted", "verdict": "incomplete", "signal": "SIGTERM", "never_ran": ["a", "b"]},
         r"it did not finish \(state interrupted by SIGTERM; 2 criteria never ran\)"),
        ({"status": "running", "pid": 2**22 + 12345, "verdict": None}, r"it did not finish \(state killed\)"),
        ({"verdict": None}, "its run.json has no verdict, so nothing says it finished"),
        ({"verdict": "incomplete"}, "its verdict is incomplete"),
    ],
)  # fmt: skip
def test_an_unfinished_run_is_refused(tmp_path: Path, meta: dict, why: str) -> None:
    run = _run(tmp_path, **meta)
    with pytest.raises(PerfgateError, match=rf"not published: {why}\. SQUAD cannot mark a test run incomplete"):
        payload.build(rundir.load(run))


def test_a_run_without_run_json_is_refused(tmp_path: Path) -> None:
    run = _run(tmp_path)
    (run / "run.json").unlink()
    with pytest.raises(PerfgateError, match=r"not published: it has no run\.json"):
        payload.build(rundir.load(run))


def test_bad_build_and_environment_names_are_refused(tmp_path: Path) -> None:
    run = rundir.load(_run(tmp_path))
    with pytest.raises(PerfgateError, match="--build must be a SQUAD slug"):
        payload.build(run, "12.00 rc1")
    with pytest.raises(PerfgateError, match="--environment must be a SQUAD slug"):
        payload.build(run, None, "am62x/sk")


def test_the_form_is_multipart_with_one_part_per_file() -> None:
    body, kind = client.multipart([("tests", "tests.json", b'{"a": "pass"}', "application/json"),
                                   ("attachment", 'x"y.html', b"<p>", "text/html")])  # fmt: skip
    boundary = kind.split("boundary=", 1)[1]
    parts = body.split(f"--{boundary}".encode())
    assert parts[0] == b"" and parts[-1] == b"--\r\n" and len(parts) == 4
    assert b'name="tests"; filename="tests.json"\r\nContent-Type: application/json\r\n\r\n{"a": "pass"}\r\n' in parts[1]
    assert b'name="attachment"; filename="x_y.html"' in parts[2]


@pytest.mark.slow
def test_a_bad_squad_option_stops_the_run_before_anything_is_measured(tmp_path: Path) -> None:
    """A real robot run on the simulated board: `-v SQUAD:` neither a project URL, `lab` nor `off` stops the run with
    the variable's error on the console (the run variables' check) before any board is started: nothing is measured
    or published."""
    import subprocess
    import sys

    from robot.api import ExecutionResult

    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--console", "dotted",
            "-v", f"BOARD:{BOARD}", "-v", "SQUAD:squad.example.org/ti-sdk", "--suite", "dhrystone",
            str(paths.root() / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results"), "PERFGATE_NO_COLLECT": "1",
           "PYTHONPATH": str(paths.root() / "libraries")}  # fmt: skip
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    result = ExecutionResult(str(tmp_path / "out" / "output.xml"))
    tests = list(result.suite.all_tests)
    assert tests and all(t.status == "FAIL" for t in tests)
    assert "variable SQUAD: must be `lab`, `off` or a SQUAD project's URL" in proc.stdout + proc.stderr
    assert not list((tmp_path / "results").glob("**/metrics.json"))


def test_the_run_variables_check_reads_the_squad_option() -> None:
    """runvars.read (Open Run and `robot --dryrun`) refuses a SQUAD value that is no project URL, lab or off."""
    from perfgate import runvars

    def get(value: str):
        return lambda name: value if name == "SQUAD" else None

    for ok in ("lab", "off", "OFF", "https://squad.example.org/g/p/", ""):
        runvars.read(get(ok))
    with pytest.raises(DataError, match=r"variable SQUAD: must be `lab`, `off` or a SQUAD project's URL"):
        runvars.read(get("squad.example.org/g/p"))
