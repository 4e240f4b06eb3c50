"""The gate in a real LAVA lab (issue 22): Debian 12's LAVA 2023.01 started here (tests/lavalab.py) with a QEMU
device booting the project's QEMU board image (its Debian arm64 kernel, its busybox initramfs as a cpio.newc
ramdisk), the gate rendering one job for the selected suites and judging what the real tools printed (openssl,
fio, cyclictest, iperf3 against this host) against the qemu_arm64 criteria.

Needs setup.sh --tests's packages (lava-server, lava-dispatcher, PostgreSQL) and the QEMU image it builds; under
CI=true a missing one fails instead of skipping. About 5 minutes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lavalab import TOKEN_ENV, LavaLab, missing
from perfgate import criteria, paths
from perfgate.board.lab import load
from perfgate.lava import job as jobdef
from perfgate.lava import settings as lava_settings
from perfgate.lava.client import Client, LavaError
from perfgate.lava.session import Planned, Session
from perfgate.qemu import image

pytestmark = [pytest.mark.slow, pytest.mark.lava]
BOARD = "qemu_arm64"
SUITES = ("openssl", "rt_latency", "mmcsd", "ethernet", "boot_time")


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the LAVA tests cannot run: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def lava(tmp_path_factory):
    reason = missing()
    if reason:
        _unavailable(reason)
    try:
        image.current()
    except image.BuildError as e:
        _unavailable(str(e))
    lab = LavaLab(tmp_path_factory.mktemp("lava"))
    try:
        lab.start()
        yield lab
    finally:
        lab.stop()


def gate(lava: LavaLab, lab: Path, out: Path, suites: tuple[str, ...], *variables: str):
    """A robot run of the gate; its results in a folder of its own (the QEMU lab's tests, on the other pytest
    worker, look for their new run folder, and the board's history must not learn from these runs)."""
    results = out / "results" / "virtual" / BOARD
    env = {**os.environ, TOKEN_ENV: lava.token, "PERFGATE_RESULTS": str(out / "results")}
    argv = [sys.executable, "-m", "robot", "-v", f"BOARD:{BOARD}", "-v", f"LAB:{lab}", *variables, "--outputdir",
            str(out), "--console", "dotted"]  # fmt: skip
    for s in suites:
        argv += ["-s", s]
    p = subprocess.run([*argv, str(paths.root() / "suites")], capture_output=True, text=True, env=env, timeout=900,
                       check=False)  # fmt: skip
    new = sorted(d for d in results.iterdir() if (d / "metrics.json").exists()) if results.is_dir() else []
    assert new, f"the gate left no run directory:\n{p.stdout[-3000:]}\n{lava.logs()}"
    run = new[-1]
    return p, run, json.loads((run / "metrics.json").read_text()), json.loads((run / "run.json").read_text())


def test_the_gate_judges_the_qemu_criteria_from_lava_jobs(lava, tmp_path, monkeypatch):
    started = time.monotonic()
    p, run, entries, meta = gate(lava, lava.lab_file(tmp_path), tmp_path / "out", SUITES, "-v", "REPEAT:2")
    by_id = {e["id"]: e for e in entries}
    expected = {c.id for c in criteria.load(BOARD) if c.suite in SUITES}
    assert set(by_id) == expected, p.stdout[-3000:]
    for cid, e in by_id.items():
        if e["suite"] == "boot_time":  # read from the console as the board boots: LAVA keeps the console
            assert e["verdict"] == "skip" and "LAVA owns the board" in e["message"], e
        else:  # judged from real tool output, as on the QEMU lab: never "not measured"
            assert e["verdict"] in ("pass", "warn", "fail", "inconclusive"), (cid, e["message"], p.stdout[-3000:])
            assert e["tool"] and e["evidence"], e
    lv = meta["lava"]
    assert 2 <= lv["jobs_used"] <= lv["max_jobs"], lv  # the plan's job, the ethernet job, reruns
    first = lv["jobs"][0]
    assert first["health"] == "Complete" and first["commands"] >= 6 and "openssl" in first["purpose"], lv
    assert all(j["url"].startswith(f"http://127.0.0.1:{lava.port}/scheduler/job/") for j in lv["jobs"])
    page = (run / "comparison.html").read_text()
    log = (tmp_path / "out" / "log.html").read_text()
    for j in lv["jobs"]:
        assert j["url"] in page and j["url"] in log
    assert (run / "lava" / f"lava-job-{first['id']}-log.yaml").exists()
    raw = next((run / "raw" / "openssl").glob("openssl-*-1.txt")).read_text()
    assert "Percent of CPU this job got" in raw and "The 'numbers' are in 1000s of bytes per second" in raw
    # issue 32: the last job records each criterion as a LAVA test case with its value and unit (LAVA's own
    # results, read back through its API), outside the job budget
    last = lv["jobs"][-1]
    assert last["purpose"].startswith("the criteria's values") and last["health"] == "Complete", lv
    s = lava_settings.settings(load(str(lava.lab_file(tmp_path)), BOARD))
    monkeypatch.setenv(TOKEN_ENV, lava.token)
    cases = {r["name"]: r for r in Client(s).results(last["id"]) if r.get("suite", "").endswith("perfgate-criteria")}
    for cid, e in by_id.items():
        case = cases[jobdef.case_name(cid, BOARD)]
        assert case["result"] == jobdef.LAVA_RESULTS.get(e["verdict"], "unknown"), (case, e)
        if isinstance(e["measured"], int | float):
            assert float(case["measurement"]) == pytest.approx(e["measured"], rel=1e-6), (case, e)
            assert case["unit"] == jobdef.units(e["unit"]), (case, e)
    print(f"LAVA gate run: {time.monotonic() - started:.0f} s, {lv['jobs_used']} jobs")


def test_a_job_that_fails_reads_not_measured_with_lavas_reason(lava, tmp_path):
    lab = lava.lab_file(tmp_path, ramdisk="file:///nonexistent/perfgate/initramfs.cpio.gz")
    p, _run, entries, meta = gate(lava, lab, tmp_path / "out", ("openssl",), "-v", "REPEAT:1")
    assert p.returncode != 0 and entries
    for e in entries:
        assert e["verdict"] == "not-measured", e
        assert "ended Incomplete: Job: Invalid job data" in e["message"], e["message"]
        assert "/nonexistent/perfgate/initramfs.cpio.gz" in e["message"]
    assert meta["lava"]["jobs_used"] == 1 and meta["lava"]["jobs"][0]["health"] == "Incomplete"


def test_server_token_device_type_and_queue_errors_name_the_lab_key(lava, tmp_path, monkeypatch):
    path = lava.lab_file(tmp_path)
    s = lava_settings.settings(load(str(path), BOARD))
    monkeypatch.setenv(TOKEN_ENV, "not-the-token")
    with pytest.raises(LavaError, match=r"lava\.user: the LAVA server .* refused user 'perfgate-test'") as e:
        Client(s).check()
    assert str(e.value).startswith(f"{path}: ") and TOKEN_ENV in str(e.value) and "not-the-token" not in str(e.value)
    monkeypatch.setenv(TOKEN_ENV, lava.token)
    s.device_type = "am62xx-sk"
    with pytest.raises(LavaError, match=r"lava\.device_type: the LAVA server has no device type 'am62xx-sk'"):
        Client(s).check()
    s.device_type = "qemu"
    closed = lava_settings.settings(load(str(path), BOARD))
    closed.server = "http://127.0.0.1:9/RPC2"
    with pytest.raises(LavaError, match=r"lava\.server: cannot reach the LAVA server http://127\.0\.0\.1:9/RPC2"):
        Client(closed).check()
    s.timeouts["queue"] = 3.0
    lava.maintenance(True)
    try:
        sess = Session(s, Client(s), board=BOARD, say=lambda _m: None)
        with pytest.raises(LavaError, match=r"lava\.timeouts\.queue: LAVA job \d+ .* waited \d+ s in the queue"):
            sess.start([Planned("openssl", "uname -a")])
        assert sess.jobs and lava.proxy().scheduler.jobs.show(sess.jobs[0].id)["state"] in ("Canceling", "Finished")
    finally:
        lava.maintenance(False)


def test_a_command_asked_again_runs_in_a_follow_up_job(lava, tmp_path, monkeypatch):
    """The sequential verdict's rerun on the real server: the first job's output is read once; asking again
    submits a follow-up job with the suite's round, and the run counts both."""
    monkeypatch.setenv(TOKEN_ENV, lava.token)
    s = lava_settings.settings(load(str(lava.lab_file(tmp_path)), BOARD))
    sess = Session(s, Client(s), board=BOARD, say=lambda _m: None)
    sess.start([Planned("rt_latency", "cat /proc/loadavg"), Planned("rt_latency", "uname -r")])
    first = sess.run("uname -r")
    assert first.strip() == "6.1.0-56-arm64" or first.strip().endswith("-arm64"), first
    assert sess.run("cat /proc/loadavg").count(" ") == 4
    assert sess.run("uname -r") == first  # asked again: a second job ran the round again
    summary = sess.summary()
    assert summary["jobs_used"] == 2 and summary["jobs"][1]["commands"] == 2, summary
    assert summary["jobs"][1]["purpose"] == "a rerun (the sequential verdict)"
