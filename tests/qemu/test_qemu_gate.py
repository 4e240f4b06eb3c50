"""The gate on the QEMU board (issue 7): `robot -v BOARD:qemu_arm64 -v LAB:qemu suites/` passes against the
board's recorded baseline with real tool output, and fails exactly the criterion of a deliberately tightened copy.

Needs the image (`python -m perfgate qemu build`) and the recorded thresholds
(`python -m perfgate baseline --board qemu_arm64 --record 3`); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import criteria, custom, paths
from perfgate.commands import baseline
from perfgate.qemu import image

pytestmark = [pytest.mark.slow, pytest.mark.qemu]
BOARD = "qemu_arm64"
TIGHTENED = "qemu_arm64.boot_time.*"


@pytest.fixture(scope="module")
def recorded() -> list:
    try:
        image.current()
    except image.BuildError as e:
        pytest.skip(str(e))
    cs = criteria.load(BOARD)
    if not cs:
        pytest.skip(f"no thresholds for {BOARD}: run `python -m perfgate baseline --board {BOARD} --record 3`")
    assert all(c.guide.startswith("baseline:") for c in cs), "qemu_arm64's thresholds must come from `baseline`"
    return cs


def gate(out: Path, root: Path | None = None) -> tuple[subprocess.CompletedProcess, list[dict]]:
    results = paths.board_results(BOARD, virtual=True)  # the QEMU board is virtual
    before = set(results.iterdir()) if results.is_dir() else set()
    env = dict(os.environ)
    suites = paths.root() / "suites"
    if root:
        env["PERFGATE_ROOT"] = str(root)
        env["PERFGATE_RESULTS"] = str(paths.results())
        suites = root / "suites"
    p = subprocess.run(
        [sys.executable, "-m", "robot", "-v", f"BOARD:{BOARD}", "-v", "LAB:qemu", "--outputdir", str(out),
         "--console", "dotted", str(suites)],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    new = sorted(d for d in set(results.iterdir()) - before if (d / "metrics.json").exists())
    assert new, f"the gate left no run directory:\n{p.stdout[-3000:]}"
    return p, json.loads((new[-1] / "metrics.json").read_text(encoding="utf-8"))


def test_gate_passes_against_the_baseline_and_fails_a_tightened_one(recorded, tmp_path, monkeypatch):
    # its own results directory: another test file may run a gate of this board at the same time (pytest-xdist)
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path / "results"))
    p, entries = gate(tmp_path / "baseline")
    verdicts = {e["id"]: e["verdict"] for e in entries}
    assert set(verdicts) == {c.id for c in recorded} | {c.id for c in custom.criteria(BOARD)}, p.stdout[-3000:]
    assert p.returncode == 0, p.stdout[-3000:]
    assert all(v in ("pass", "warn") for v in verdicts.values()), verdicts
    assert all(e["tool"] and e["evidence"] for e in entries)  # real tool output kept as evidence

    tight = baseline.tighten(recorded, f"{TIGHTENED}=80")
    root = baseline.scratch_root(BOARD, tmp_path / "root", tight)
    p, entries = gate(tmp_path / "tight", root)
    verdicts = {e["id"]: e["verdict"] for e in entries}
    # the tightened boot time: FAIL, or (its 3 boots of a tail, under the gate's error rate spent over its looks)
    # inconclusive, which fails the gate as well (its Gate Verdict test); nothing else
    failed = {cid for cid, v in verdicts.items() if v in ("fail", "inconclusive")}
    assert failed and all(cid.startswith(TIGHTENED[:-1]) for cid in failed), verdicts
    fails = sum(verdicts[cid] == "fail" for cid in failed)  # an inconclusive test is a SKIP; the Gate Verdict fails
    assert p.returncode == fails + any(verdicts[cid] == "inconclusive" for cid in failed), p.stdout[-3000:]
