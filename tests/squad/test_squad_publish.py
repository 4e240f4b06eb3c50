"""Publishing to a real SQUAD server (tests/squadserver.py: squad 1.98 from PyPI in .venv-squad, SQLite, gunicorn on
127.0.0.1, started here and stopped at the end of the module).

A real robot run of the gate against the simulated board publishes itself at its end (`-v SQUAD:<project URL>`,
the token in SQUAD_TOKEN); everything is read back through SQUAD's REST API: the test run's tests with their status
and log, its metrics with their values and units, its metadata and the attached comparison.html. A run made to
fail one criterion (FAULTS degrade) must read as failing in SQUAD. A run stopped by SIGTERM is never published,
neither by the run's option nor by `perfgate publish squad`. Bad targets (a refused token, an unknown project, a
server that is not there) are errors that say so.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_squad_payload import ENTRIES, _run

import squadserver
from perfgate import paths
from perfgate.errors import PerfgateError
from perfgate.report import rundir
from perfgate.squad import payload, publish, target

pytestmark = [pytest.mark.squad, pytest.mark.slow]
ROOT = paths.root()
BOARD = "am62xx_sk"
DEGRADED = f"{BOARD}.dhrystone.dhrystone-benchmarks.dhrystone-per-second-dhrystonep.perf"
FAST = ["-v", "SIM_SPEED:20", "-v", "BOOT_CYCLES:1", "-v", "DURATION:1"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    if not squadserver.installed():
        pytest.skip("SQUAD not installed (.venv-squad): ./setup.sh installs it")
    s = squadserver.start(tmp_path_factory.mktemp("squad"))
    try:
        yield s
    finally:
        s.stop()
    assert s.process.poll() is not None


def _robot(tmp: Path, server: squadserver.Server, *args: str) -> subprocess.Popen:
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp / "out"), "--console", "dotted",
            "-v", f"BOARD:{BOARD}", *FAST, "-v", f"SQUAD:{server.url}/{server.group}/{server.project}/",
            *args, str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PERFGATE_NO_COLLECT": "1",
           "SQUAD_TOKEN": server.token, "PYTHONPATH": str(ROOT / "libraries")}  # fmt: skip
    log = (tmp / "console.txt").open("w")
    return subprocess.Popen(argv, cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _run_dir(tmp: Path) -> Path:
    (run,) = sorted((tmp / "results" / "virtual" / BOARD).glob("2*"))
    return run


@pytest.fixture(scope="module")
def published(server: squadserver.Server, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, float]:
    """A finished sim run (dhrystone and stream, one dhrystone row degraded by 30 %) that published itself."""
    tmp = tmp_path_factory.mktemp("finished")
    started = time.monotonic()
    proc = _robot(tmp, server, "-v", f"FAULTS:degrade:{DEGRADED}:30", "--suite", "dhrystone", "--suite", "stream")
    proc.wait(timeout=600)
    console = (tmp / "console.txt").read_text()
    return _run_dir(tmp), console, time.monotonic() - started


def test_a_finished_run_publishes_itself_and_reads_back(server: squadserver.Server, published) -> None:
    run_dir, console, _ = published
    run = rundir.load(run_dir)
    assert run.state == "finished" and run.verdict == "fail", console[-3000:]  # the degraded row fails the run
    assert "perfgate: published to SQUAD ti-sdk/perfgate: build 12.00.00" in console, console[-3000:]
    outcome = run.meta["squad"]
    assert outcome["published"] is True and outcome["build"] == run.meta["release"]
    assert outcome["environment"] == f"{BOARD}-virtual"  # a simulated board never reads as the hardware board

    testrun = server.json(f"/api/testruns/{outcome['testrun']}/")
    assert testrun["job_id"] == f"{BOARD}-{run.name}" and testrun["completed"] is True
    build = server.json(testrun["build"].removeprefix(server.url))
    env = server.json(testrun["environment"].removeprefix(server.url))
    assert (build["version"], env["slug"]) == (run.meta["release"], f"{BOARD}-virtual")

    tests = {t["name"]: t for t in server.results(f"/api/testruns/{outcome['testrun']}/tests/?limit=200")}
    judged = [e for e in run.entries if e["verdict"] != "skip"]
    assert len(tests) == len(run.entries) + 1  # and gate/verdict
    expected = {"pass": "pass", "warn": "pass", "fail": "fail", "not-measured": "fail", "inconclusive": "skip"}
    for e in judged:
        t = tests[payload.test_name(e, BOARD)]
        assert t["status"] == expected[e["verdict"]], (e["id"], e["verdict"], t)
        assert e["message"] in t["log"]
    degraded = tests["dhrystone/dhrystone-benchmarks.dhrystone-per-second-dhrystonep.perf"]
    assert degraded["status"] == "fail" and degraded["result"] is False
    verdict = tests["gate/verdict"]
    assert verdict["status"] == "fail" and run.meta["verdict_reason"] in verdict["log"]

    metrics = {m["name"]: m for m in server.results(f"/api/testruns/{outcome['testrun']}/metrics/?limit=200")}
    measured = [e for e in run.entries if e.get("measured") is not None]
    assert measured and len(metrics) == len(measured)
    for e in measured:
        m = metrics[payload.test_name(e, BOARD)]
        assert m["result"] == pytest.approx(e["measured"]) and m["unit"] == e["unit"][:30]

    metadata = json.loads(server.get(f"/api/testruns/{outcome['testrun']}/metadata_file/"))
    for key in ("board", "lab", "virtual", "release", "guide", "verdict", "verdict_reason", "counts", "status"):
        assert metadata[key] == run.meta[key], key
    assert metadata["virtual"] is True and metadata["verdict"] == "fail"
    assert not {"pid", "output", "log", "link_base", "squad"} & set(metadata)

    names = {a["filename"]: a for a in testrun["attachments"]}
    assert set(names) == {"comparison.html", "metrics.json"}
    page = server.get(f"/api/testruns/{outcome['testrun']}/attachments/?filename=comparison.html")
    assert page == (run_dir / "comparison.html").read_bytes()


def test_the_command_publishes_once_per_build_and_says_why_not(server: squadserver.Server, published) -> None:
    run_dir = published[0]
    env = {**os.environ, "SQUAD_TOKEN": server.token}

    def cli(*args: str, **extra: str) -> subprocess.CompletedProcess:
        argv = [sys.executable, "-m", "perfgate", "publish", "squad", str(run_dir), "--url", server.url,
                "--group", server.group, *args]  # fmt: skip
        return subprocess.run(argv, env={**env, **extra}, capture_output=True, text=True, timeout=120)

    again = cli("--project", server.project)
    assert again.returncode == 2 and "already published" in again.stderr, again.stderr
    other = cli("--project", server.project, "--build", "12.00.00-rerun", "--environment", "am62xx_sk-sim")
    assert other.returncode == 0 and "build 12.00.00-rerun, environment am62xx_sk-sim" in other.stdout, other.stderr
    stranger = cli("--project", server.project, "--build", "x", SQUAD_TOKEN=server.stranger_token)
    assert stranger.returncode == 2 and "SQUAD refused the token in $SQUAD_TOKEN" in stranger.stderr
    unknown = cli("--project", "nosuch", "--build", "x")
    assert unknown.returncode == 2 and "SQUAD has no project ti-sdk/nosuch" in unknown.stderr
    no_token = cli("--project", server.project, "--build", "x", SQUAD_TOKEN="")
    assert no_token.returncode == 2 and "environment variable SQUAD_TOKEN is not set" in no_token.stderr
    builds = {b["version"] for b in server.results("/api/builds/")}
    assert "x" not in builds and "12.00.00-rerun" in builds


def test_the_command_takes_the_target_from_a_lab_file(server: squadserver.Server, published, tmp_path: Path) -> None:
    """--lab <file>: url, group, project and the token's variable from the lab's squad section."""
    lab = tmp_path / "squadlab.yaml"
    lab.write_text(
        (paths.labs() / "sim.yaml").read_text(encoding="utf-8")
        + f"""
squad: {{url: "{server.url}", group: {server.group}, project: {server.project}, token_env: LAB_SQUAD_TOKEN}}
""",
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "perfgate", "publish", "squad", str(published[0]), "--lab", str(lab),
            "--build", "from-lab"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "SQUAD_TOKEN"}
    missing = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "LAB_SQUAD_TOKEN is not set" in missing.stderr, missing.stderr
    assert f"from the squad section of lab sim ({lab})" in missing.stderr
    done = subprocess.run(argv, env={**env, "LAB_SQUAD_TOKEN": server.token}, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0 and "build from-lab" in done.stdout, done.stderr


def test_each_verdict_reads_back_as_squad_shows_it(
    server: squadserver.Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A constructed run with one criterion per verdict (tests/squad/test_squad_payload.py): SQUAD itself shows pass and
    warn as pass, fail and not-measured as fail, inconclusive and skip as skip, each with the gate's reason."""
    monkeypatch.setenv("SQUAD_TOKEN", server.token)
    where = target.make(server.url, server.group, server.project)
    done = publish.publish(_run(tmp_path), where, build="verdicts")
    tests = {t["short_name"]: t for t in server.results(f"/api/testruns/{done.testrun}/tests/")}
    status = {"pass": "pass", "warn": "pass", "fail": "fail", "not-measured": "fail", "inconclusive": "skip",
              "skip": "skip"}  # fmt: skip
    for i, (verdict, _, message) in enumerate(ENTRIES):
        t = tests[f"stream.row-{i}.{verdict}"]
        assert t["status"] == status[verdict] and message in t["log"], (verdict, t)
    assert tests["verdict"]["status"] == "fail"
    metrics = {m["short_name"]: m["result"] for m in server.results(f"/api/testruns/{done.testrun}/metrics/")}
    assert metrics == {f"stream.row-{i}.{v}": m for i, (v, m, _) in enumerate(ENTRIES) if m is not None}


def test_a_server_that_is_not_there_is_named(published) -> None:
    where = target.make("http://127.0.0.1:9", "g", "p", origin="a test")
    os.environ.setdefault("SQUAD_TOKEN", "unused")
    with pytest.raises(PerfgateError, match=r"SQUAD server http://127.0.0.1:9 cannot be reached \(from a test\)"):
        publish.publish(published[0], where, build="x")


def test_an_interrupted_run_is_never_published(server: squadserver.Server, tmp_path: Path) -> None:
    """SIGTERM once a few criteria are judged: the run's option does not publish it, and neither does the command;
    SQUAD holds no test run for it."""
    proc = _robot(tmp_path, server, "--suite", "lmbench", "--suite", "stream", "--suite", "dhrystone")
    try:
        deadline = time.monotonic() + 300
        while True:
            runs = sorted((tmp_path / "results" / "virtual" / BOARD).glob("2*/metrics.json"))
            if runs and len(json.loads(runs[0].read_text() or "[]")) >= 3:
                break
            assert proc.poll() is None, "robot finished before it could be stopped"
            assert time.monotonic() < deadline, "robot judged fewer than 3 criteria in 300 s"
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    console = (tmp_path / "console.txt").read_text()
    run = rundir.load(_run_dir(tmp_path))
    assert (run.state, run.meta["verdict"]) == ("interrupted", "incomplete"), console[-3000:]
    assert "perfgate: SQUAD: not published: " in console and "did not finish (state interrupted by SIGTERM" in console
    assert run.meta["squad"]["published"] is False
    argv = [sys.executable, "-m", "perfgate", "publish", "squad", str(run.path), "--url", server.url,
            "--group", server.group, "--project", server.project]  # fmt: skip
    env = {**os.environ, "SQUAD_TOKEN": server.token}
    cli = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 2 and "not published: it did not finish" in cli.stderr, cli.stderr
    jobs = {t["job_id"] for t in server.results("/api/testruns/")}
    assert f"{BOARD}-{run.name}" not in jobs
