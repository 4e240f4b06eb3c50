"""The decisive verdict through robot against the simulated board: stream on am62xx_sk's newest release (one command,
four rows). Triad is degraded by exactly its 10 % tolerance, so it sits on its threshold and no number of runs can
tell which side it is on; copy is degraded by 40 %, far past it. Triad is inconclusive after the runs its command may
take (stream: 30 s in variables/budget.yaml, so 5), and reads SKIP in output.xml, apart from copy's FAIL; a `Gate
Verdict` test fails the run for the inconclusive one, so robot's exit status agrees with the gate's verdict. A
healthy suite is decided after one run of its command."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from selftest import run_gate

pytestmark = pytest.mark.slow
TRIAD = "am62xx_sk.stream.stream-benchmarks.triad-mb-s.perf"
COPY = "am62xx_sk.stream.stream-benchmarks.copy-mb-s.perf"


def _run(tmp: Path, faults: str = f"degrade:{TRIAD}:10,degrade:{COPY}:40", **variables: str):
    r = run_gate(tmp, "am62xx_sk", ["stream"], RELEASE="12.00.00", SIM_SEED="3", FAULTS=faults, **variables)
    run = next(p.parent for p in (r["results"] / "virtual" / "am62xx_sk").glob("*/run.json"))
    meta = json.loads((run / "run.json").read_text())
    entries = {e["id"]: e for e in json.loads((run / "metrics.json").read_text())}
    return r, meta, entries


def test_inconclusive_and_failed_criteria_read_differently_everywhere(tmp_path: Path) -> None:
    r, meta, entries = _run(tmp_path, INCONCLUSIVE="fail")  # the default; selftest.run_gate's is QUIET_SIM
    assert entries[TRIAD]["verdict"] == "inconclusive" and entries[COPY]["verdict"] == "fail"
    assert len(entries[TRIAD]["samples"]) == 5  # its command's most runs (a stream run: 30 s; the rerun budget 120 s)
    assert len(entries[COPY]["samples"]) >= 2  # a FAIL rests on noise the board showed: never on one run alone
    assert "undecided after 5 runs" in entries[TRIAD]["message"]
    assert entries[TRIAD]["noise"]["df"] > 0 and "pooled" in entries[TRIAD]["noise"]["source"]
    # output.xml: the failed criterion FAILs, the inconclusive one is SKIP with why, the Gate Verdict test FAILs
    result = ExecutionResult(str(tmp_path / "robot" / "output.xml"))
    tests = {t.name: t for t in _tests(result.suite)}
    triad = next(t for n, t in tests.items() if n.startswith("triad"))
    copy = next(t for n, t in tests.items() if n.startswith("copy"))
    assert copy.status == "FAIL" and triad.status == "SKIP" and "INCONCLUSIVE" in triad.message
    assert tests["Gate Verdict"].status == "FAIL" and "1 criteria inconclusive" in tests["Gate Verdict"].message
    assert meta["verdict"] == "fail" and "inconclusive" in meta["verdict_reason"]
    assert r["rc"] != 0


def test_inconclusive_pass_is_stated_and_exits_zero(tmp_path: Path) -> None:
    r, meta, entries = _run(tmp_path, faults=f"degrade:{TRIAD}:10", INCONCLUSIVE="pass")
    assert entries[TRIAD]["verdict"] == "inconclusive"
    assert meta["verdict"] == "pass" and "INCONCLUSIVE:pass" in meta["verdict_reason"]
    assert "Gate Verdict" not in r["tests"] and r["rc"] == 0


def test_repeat_caps_the_runs_and_a_healthy_suite_runs_once(tmp_path: Path) -> None:
    """REPEAT:2 caps triad's runs at 2; with no fault, stream is decided after one run of its command (its noise:
    the class default until the board shows its own); whetstone, whose coarse timer makes its MIPS jump by several
    percent from run to run (a real trait the sim reproduces), may take another, and the gate passes."""
    _r, _meta, entries = _run(tmp_path / "a", faults=f"degrade:{TRIAD}:10", REPEAT="2", INCONCLUSIVE="pass")
    assert len(entries[TRIAD]["samples"]) == 2 and "undecided after 2 runs" in entries[TRIAD]["message"]
    r = run_gate(tmp_path / "b", "am62xx_sk", ["stream", "whetstone"], RELEASE="12.00.00", SIM_SEED="3",
                 INCONCLUSIVE="fail")  # fmt: skip
    run = next(p.parent for p in (r["results"] / "virtual" / "am62xx_sk").glob("*/run.json"))
    index = (run / "raw" / "stream" / "index.tsv").read_text().splitlines()
    assert len(index) == 1, index
    assert r["rc"] == 0 and all(status == "PASS" for status, _ in r["tests"].values())


def test_aggregate_median_is_the_default_and_best_is_chosen_by_name(tmp_path: Path) -> None:
    """The judged value is the median of the runs by default; AGGREGATE:best takes the best of them (and leaves the
    sequential rule out of the verdict: a best-of-N value has no noise model, which the console and run.json say)."""
    r, meta, entries = _run(tmp_path / "median", faults=f"degrade:{TRIAD}:10", INCONCLUSIVE="pass")
    triad = entries[TRIAD]
    assert len(triad["samples"]) == 5 and triad["measured"] == pytest.approx(statistics.median(triad["samples"]))
    assert "AGGREGATE:best" not in r["stdout"] and "AGGREGATE:best" not in meta["verdict_reason"]
    r, meta, entries = _run(tmp_path / "best", faults=f"degrade:{TRIAD}:8", AGGREGATE="best", REPEAT="3",
                            INCONCLUSIVE="fail")  # fmt: skip
    triad = entries[TRIAD]
    assert len(triad["samples"]) == 3 and triad["measured"] == max(triad["samples"])
    assert triad["verdict"] == "pass"  # 8 % short of published, inside the 10 % tolerance
    assert "AGGREGATE:best judges the best of its runs: the best of several runs has no noise model" in r["stdout"]
    assert "(AGGREGATE:best judges the best of its runs, not the sequential verdict)" in meta["verdict_reason"]


def _tests(suite) -> list:
    out = list(suite.tests)
    for s in suite.suites:
        out += _tests(s)
    return out
