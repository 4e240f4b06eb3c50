"""`python -m perfgate baseline`: thresholds from measured runs (synthetic metrics.json in a scratch repository)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import criteria, paths
from perfgate.model import Criterion
from testpaths import ROOT

REPO = ROOT


def crit(cid: str, suite: str = "openssl", direction: str = "higher", board: str = "qemu_arm64") -> Criterion:
    return Criterion(
        id=f"{board}.{suite}.{cid}", name=cid, board=board, guide="template", release="", chapter="crypto",
        suite=suite, table="OpenSSL Performance", row=cid, metric="kB/s", unit="kB/s", value=1.0,
        direction=direction, context="block=16384",
    )  # fmt: skip


@pytest.fixture
def root(tmp_path, monkeypatch) -> Path:
    for d in ("boards", "labs"):
        shutil.copytree(REPO / "variables" / d, tmp_path / "variables" / d)
    (tmp_path / "variables" / "thresholds").mkdir()
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path / "results"))
    return tmp_path


def make_run(root: Path, name: str, measured: dict[str, object], cs: list[Criterion], board: str = "qemu_arm64",
             samples: dict[str, list[float]] | None = None, virtual: bool = True, **meta: object) -> Path:  # fmt: skip
    d = root / "results" / ("virtual/" if virtual else "") / board / name
    (d / "criteria").mkdir(parents=True)
    for suite in {c.suite for c in cs}:
        criteria.write(d / "criteria" / f"{suite}.csv", [c for c in cs if c.suite == suite])
    entries = []
    for c in cs:
        v = measured.get(c.id)
        entries.append({
            "id": c.id, "name": c.name, "board": c.board, "suite": c.suite, "chapter": c.chapter, "table": c.table,
            "row": c.row, "metric": c.metric, "unit": c.unit, "measured": v, "published": c.value,
            "direction": c.direction, "verdict": "not-measured" if v is None else "pass",
            **({"samples": samples[c.id]} if samples and c.id in samples else {}),
        })  # fmt: skip
    (d / "metrics.json").write_text(json.dumps(entries), encoding="utf-8")
    run = {"board": board, "lab": "qemu" if virtual else "bench", "virtual": virtual, "status": "finished",
           "finished": "2026-01-01T00:00:00+00:00", **meta}  # fmt: skip
    (d / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return d


def baseline(*args: str, env_root: Path) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "PERFGATE_ROOT": str(env_root), "PERFGATE_RESULTS": str(env_root / "results")}
    return subprocess.run([sys.executable, "-m", "perfgate", "baseline", *args], capture_output=True, text=True,
                          env=env, timeout=60, check=False)  # fmt: skip


def test_value_is_the_mean_and_the_spread_is_min_max(root):
    a, b = crit("aes-128-cbc"), crit("sha256")
    r1 = make_run(root, "20260101-000001", {a.id: 100.0, b.id: 10.0}, [a, b])
    r2 = make_run(root, "20260101-000002", {a.id: 110.0, b.id: 12.0}, [a, b])
    r3 = make_run(root, "20260101-000003", {a.id: 120.0, b.id: None}, [a, b])
    entries = json.loads((r3 / "metrics.json").read_text())
    entries[1]["verdict"] = "skip"  # a criterion the run skipped carries no value (the run still passes)
    (r3 / "metrics.json").write_text(json.dumps(entries))
    p = baseline(str(r1), str(r2), str(r3), "--board", "qemu_arm64", env_root=root)
    assert p.returncode == 0, p.stderr
    got = {c.id: c for c in criteria.read(root / "variables/thresholds/qemu_arm64/openssl.csv")}
    assert got[a.id].value == pytest.approx(110.0) and (got[a.id].min, got[a.id].max) == (100.0, 120.0)
    assert got[b.id].value == pytest.approx(11.0) and (got[b.id].min, got[b.id].max) == (10.0, 12.0)
    assert got[a.id].guide == "baseline:20260101-000001,20260101-000002,20260101-000003"
    assert got[a.id].source == ";".join(f"virtual/qemu_arm64/20260101-00000{i}" for i in (1, 2, 3))
    assert got[a.id].context == "block=16384" and got[a.id].direction == "higher"
    assert list(got) == [a.id, b.id]  # the run's order


def test_median_and_repeat_samples(root):
    a = crit("aes-128-cbc")
    r1 = make_run(root, "r1", {a.id: 100.0}, [a], samples={a.id: [90.0, 100.0, 400.0]})
    p = baseline(str(r1), "--board", "qemu_arm64", "--statistic", "median", env_root=root)
    assert p.returncode == 0, p.stderr
    [c] = criteria.read(root / "variables/thresholds/qemu_arm64/openssl.csv")
    assert c.value == 100.0 and (c.min, c.max) == (90.0, 400.0)


def test_single_measurement_has_no_spread(root):
    a = crit("aes-128-cbc")
    p = baseline(str(make_run(root, "r1", {a.id: 5.5}, [a])), "--board", "qemu", env_root=root)  # an alias
    assert p.returncode == 0, p.stderr
    [c] = criteria.read(root / "variables/thresholds/qemu_arm64/openssl.csv")
    assert (c.value, c.min, c.max) == (5.5, None, None)


def test_tighten_moves_the_value_in_the_better_direction(root):
    a, lat = crit("aes-128-cbc"), crit("max-latency", suite="rt_latency", direction="lower")
    r = make_run(root, "r1", {a.id: 100.0, lat.id: 50.0}, [a, lat])
    out = root / "tight"
    p = baseline(str(r), "--board", "qemu_arm64", "--out", str(out), "--tighten", "*.aes-*=50",
                 "--tighten", "*.rt_latency.*=50", env_root=root)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert criteria.read(out / "openssl.csv")[0].value == 150.0
    assert criteria.read(out / "rt_latency.csv")[0].value == 25.0
    p = baseline(str(r), "--board", "qemu_arm64", "--out", str(out), "--tighten", "nothing*=5", env_root=root)
    assert p.returncode == 2 and "matches no criterion" in p.stderr


def test_a_run_of_another_board_is_refused_with_its_file(root):
    a = crit("aes-128-cbc", board="am62xx_sk")
    r = make_run(root, "r1", {a.id: 1.0}, [a], board="am62xx_sk")
    p = baseline(str(r), "--board", "qemu_arm64", env_root=root)
    assert p.returncode == 2
    assert f"{r / 'run.json'}:1:" in p.stderr and "am62xx_sk" in p.stderr


def test_broken_metrics_json_names_file_and_line(root):
    a = crit("aes-128-cbc")
    r = make_run(root, "r1", {a.id: 1.0}, [a])
    (r / "metrics.json").write_text('[\n{"id": "x",\n oops}\n]', encoding="utf-8")
    p = baseline(str(r), "--board", "qemu_arm64", env_root=root)
    assert p.returncode == 2 and f"{r / 'metrics.json'}:3:" in p.stderr


def test_nothing_measured_is_an_error(root):
    a = crit("aes-128-cbc")
    r = make_run(root, "r1", {a.id: None}, [a])
    p = baseline(str(r), "--board", "qemu_arm64", env_root=root)
    assert p.returncode == 2 and "verdict is FAIL" in p.stderr and "1 not measured" in p.stderr, p.stderr
    assert not (root / "variables/thresholds/qemu_arm64").exists()


def test_guide_thresholds_are_not_replaced_without_force(root):
    guide = crit("aes-128-cbc", board="am62xx_sk")
    guide = Criterion(**{**guide.to_json(), "guide": "linux-10.00-am62x.rst"})
    criteria.write(paths.thresholds() / "am62xx_sk" / "openssl.csv", [guide])
    r = make_run(root, "r1", {guide.id: 2.0}, [guide], board="am62xx_sk")
    p = baseline(str(r), "--board", "am62xx_sk", env_root=root)
    assert p.returncode == 2 and "come from the guide linux-10.00-am62x.rst" in p.stderr
    p = baseline(str(r), "--board", "am62xx_sk", "--force", env_root=root)
    assert p.returncode == 0, p.stderr


def test_written_file_reads_back_byte_for_byte(root):
    a, b = crit("aes-128-cbc"), crit("sha256")
    r = make_run(root, "r1", {a.id: 1.25, b.id: 3.0}, [a, b])
    assert baseline(str(r), "--board", "qemu_arm64", env_root=root).returncode == 0
    f = root / "variables/thresholds/qemu_arm64/openssl.csv"
    assert criteria.render(criteria.read(f)) == f.read_text(encoding="utf-8")


def test_scratch_root_is_this_repository_with_the_new_thresholds(root):
    a = crit("aes-128-cbc")
    r = make_run(root, "r1", {a.id: 100.0}, [a])
    scratch = root / "scratch"
    p = baseline(str(r), "--board", "qemu_arm64", "--tighten", "*=10", "--scratch-root", str(scratch), env_root=root)
    assert p.returncode == 0, p.stderr
    assert criteria.read(scratch / "variables/thresholds/qemu_arm64/openssl.csv")[0].value == 110.0
    assert (scratch / "variables/boards").resolve() == (root / "variables/boards").resolve()
    assert not (root / "variables/thresholds/qemu_arm64").exists()  # the real thresholds are left alone


def test_only_clean_finished_runs_make_a_baseline(root):
    """A run with FAULTS, a failing run, an interrupted run and a killed run are refused, each naming its run.json."""
    a = crit("aes-128-cbc")
    good = make_run(root, "20260101-000001", {a.id: 100.0}, [a])
    faulty = make_run(root, "20260101-000002", {a.id: 80.0}, [a], faults="degrade:*:20")
    failed = make_run(root, "20260101-000003", {a.id: 100.0}, [a])
    entries = json.loads((failed / "metrics.json").read_text())
    entries[0]["verdict"] = "fail"
    (failed / "metrics.json").write_text(json.dumps(entries))
    stopped = make_run(root, "20260101-000004", {a.id: 100.0}, [a], status="interrupted", signal="SIGINT")
    killed = make_run(root, "20260101-000005", {a.id: 100.0}, [a], status="running", finished=None, pid=2**22 + 7)
    for run, why in ((faulty, "had FAULTS injected (degrade:*:20)"), (failed, "verdict is FAIL, not PASS"),
                     (stopped, "did not finish (interrupted)"), (killed, "did not finish (killed)")):  # fmt: skip
        p = baseline(str(good), str(run), "--board", "qemu_arm64", env_root=root)
        assert p.returncode == 2 and f"{run / 'run.json'}: " in p.stderr and why in p.stderr, p.stderr
    assert not (root / "variables/thresholds/qemu_arm64").exists()
    assert baseline(str(good), "--board", "qemu_arm64", env_root=root).returncode == 0


def test_virtual_and_hardware_runs_are_not_mixed_unless_forced(root):
    a = crit("aes-128-cbc")
    virtual = make_run(root, "20260101-000001", {a.id: 100.0}, [a])
    hardware = make_run(root, "20260101-000002", {a.id: 120.0}, [a], virtual=False)
    p = baseline(str(virtual), str(hardware), "--board", "qemu_arm64", env_root=root)
    assert (
        p.returncode == 2
        and "will not mix virtual runs virtual/qemu_arm64/20260101-000001 with hardware runs" in p.stderr
    )
    p = baseline(str(virtual), str(hardware), "--board", "qemu_arm64", "--mix", "--out", str(root / "m"), env_root=root)
    assert p.returncode == 0 and "MIXED (--mix)" in p.stderr, p.stderr
    [c] = criteria.read(root / "m" / "openssl.csv")
    assert c.value == 110.0 and "virtual and hardware runs mixed" in c.release
