"""Run length is part of the measurement (issue 13 part 4): a tail-latency criterion run shorter than the guide's
run is inconclusive unless its observed maximum already fails, and the message gives both run lengths.

The rt_latency workload, the cyclictest parser, the tolerance policy and the verdict are the real ones; the board's
answers are real cyclictest captures replayed for the command they were captured with
(tests/fixtures/cyclictest/PROVENANCE.md), so each number comes from the real tool's real output."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from perfgate import boards, criteria, paths
from perfgate.datafile import merge
from perfgate.decision import sequential
from perfgate.decision.tolerance import Policy
from perfgate.decision.verdict import FAIL, PASS, judge
from perfgate.model import Criterion
from perfgate.tools import cyclictest
from perfgate.workloads import rt_latency
from testpaths import FIXTURES

FIX = FIXTURES / "cyclictest"
LAB = {"name": "bench", "has": ["ethernet"], "tester": {"address": "127.0.0.1"}}
# what each capture printed, and the command it was captured with (PROVENANCE.md)
OSADL_1000 = ("osadl-l1000-overflow.txt", "cyclictest -l1000 -m -a0 -t1 -p99 -i200 -h400 -q")
USE_CASE_2S = ("use-case-D2-h400-t1.txt", "cyclictest -m -p80 -D2 -h400 -i200 -q -a1 -t1")
PER_CPU_3S = ("S-h400-M-D3s.txt", "cyclictest -m -Sp80 -D3s -h400 -i200 -M -q")
# the guide's own am574x-idk capture of its OSADL command (rt-tests 1.x, with -n, which rt-tests 2.x rejects)
GUIDE_OSADL = ("guide-am574x-osadl.txt", "cyclictest -l100000000 -m -a0 -t1 -p99 -i200 -h400 -q")


@dataclasses.dataclass
class Replay:
    """A board that answers the one cyclictest command it was given a capture for, and nothing else."""

    board: str
    profile: dict
    capture: tuple[str, str]
    lab: dict = dataclasses.field(default_factory=lambda: dict(LAB))
    repeat: int = 1
    virtual: bool = False
    last_evidence: str = ""
    notes: list[str] = dataclasses.field(default_factory=list)

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        name, captured = self.capture
        assert cyclictest.invocation(command).strip() == captured, (command, captured)
        self.last_evidence = str(FIX / name)
        return (FIX / name).read_text(encoding="utf-8")

    def tester(self) -> str:
        return "127.0.0.1"

    def note(self, message: str) -> None:
        self.notes.append(message)


def profile(board: str, **rt: object) -> dict:
    return merge(boards.profile(board), {"workloads": {"rt_latency": rt}})  # type: ignore[return-value]


def one(board: str, release: str, pick) -> Criterion:
    [c] = [c for c in criteria.load(board, "rt_latency", release=release) if pick(c)]
    return c


def verdict(c: Criterion, ctx: Replay) -> tuple[object, sequential.RunLength]:
    """The criterion judged as the gate judges it: the tolerance policy, then its run length."""
    m = rt_latency.WORKLOAD.measure([c], ctx)
    assert c.id in m.values, m.missing
    tol = Policy.load().for_criterion(c)
    run = m.lengths[c.id]
    return sequential.with_run_length(judge(c, m.values[c.id], tol), c, tol, run), run


OSADL_MAX = ("am574x_idk", "2017.05-RT", lambda c: c.table == "OSADL Test" and c.row == "Max Latencies")


def test_loops_are_what_cyclictest_printed() -> None:
    """# Total: counts only the wake-ups inside the histogram; the loops are Total + overflows, per thread, and the
    thread that ran fewest is the run's length; without -h the T: line's C: count."""
    captures = (OSADL_1000, USE_CASE_2S, PER_CPU_3S, GUIDE_OSADL)
    read = {name: cyclictest.parse((FIX / name).read_text(), cmd) for name, cmd in captures}
    assert read[OSADL_1000[0]]["loops"] == 999 + 1
    assert read[USE_CASE_2S[0]]["loops"] == 10000
    assert read[PER_CPU_3S[0]]["loops"] == 14958 + 3  # of 14977 + 5 and 14958 + 3: 3 s of 200 us is 15000
    assert read[GUIDE_OSADL[0]]["loops"] == 100000000
    assert cyclictest.parse((FIX / "noh-t2.txt").read_text())["loops"] == 302
    assert cyclictest.interval_us("sh -c 'set -e; cyclictest -m -p80 -D60s -i200 -q'") == 200.0
    assert cyclictest.interval_us("cyclictest -l5 -m") == 1000.0  # cyclictest's default


def test_a_short_run_within_the_threshold_is_inconclusive_with_both_lengths() -> None:
    # a board whose guide publishes 1000 us: the capture's 908 us maximum is within it, but over 1000 loops
    c = dataclasses.replace(one(*OSADL_MAX), value=1000.0)
    j, run = verdict(c, Replay("am574x_idk", profile("am574x_idk", osadl={"loops": 1000}), OSADL_1000))
    assert j.measured == 908.0 and run.ran == 1000 and run.guide == 100000000
    assert j.verdict == sequential.INCONCLUSIVE, j.message
    assert "ran 1000 loops (as cyclictest printed) of the guide's 100000000 loops" in j.message
    assert "a shorter run can only see a smaller maximum" in j.message


def test_a_short_run_whose_maximum_already_fails_fails() -> None:
    c = one(*OSADL_MAX)  # published 27 us (rt-linux-2017.05-am57x.rst:420)
    j, _ = verdict(c, Replay("am574x_idk", profile("am574x_idk", osadl={"loops": 1000}), OSADL_1000))
    assert j.verdict == FAIL and j.measured == 908.0
    assert "ran 1000 loops (as cyclictest printed) of the guide's 100000000 loops" in j.message


def test_a_run_as_long_as_the_guides_passes() -> None:
    ctx = Replay("am574x_idk", profile("am574x_idk", as_long_as_the_guide=True), GUIDE_OSADL)
    j, run = verdict(one(*OSADL_MAX), ctx)
    assert j.verdict == PASS and j.measured == 27.0, j.message
    assert run.ran == run.guide == 100000000
    assert "ran 100000000 loops (as cyclictest printed) of the guide's 100000000 loops" in j.message
    assert "OSADL test with 100000000 loops (the guide: 100000000), by cyclictest" in ctx.notes


def test_a_shielded_use_case_is_measured_in_seconds_of_the_guides_four_hours() -> None:
    c = one("am574x_idk", "2017.05-RT", lambda c: c.row == "L_PERF_SHIELD_SMP_NO_LOAD")
    ctx = Replay("am574x_idk", profile("am574x_idk", use_cases={"duration": "2", "rt_cpu": 1}), USE_CASE_2S)
    j, _ = verdict(c, ctx)
    assert j.measured == 145.0 and j.verdict == FAIL  # published 25 us: it fails whatever the length
    assert "ran 2 s (10000 wake-ups of 200 us, as printed) of the guide's 14400 s (4 h)" in j.message
    j, _ = verdict(dataclasses.replace(c, value=200.0), ctx)
    assert j.verdict == sequential.INCONCLUSIVE and "of the guide's 14400 s (4 h)" in j.message
    assert any("cyclictest for 2 (the guide: 4h, rt-linux-2017.05-am57x.rst)" in n for n in ctx.notes)


@pytest.mark.parametrize("published, expected", [(1000.0, sequential.INCONCLUSIVE), (None, FAIL)])
def test_per_cpu_maxima_against_the_guides_six_hours(published: float | None, expected: str) -> None:
    c = one("am64xx_evm", "12.00.00-RT", lambda c: c.row == "Maximum (usec)" and c.metric == "CPU 1")
    c = dataclasses.replace(c, value=published) if published else c  # the guide: 77 us
    j, run = verdict(c, Replay("am64xx_evm", profile("am64xx_evm", per_cpu={"duration": "3s"}), PER_CPU_3S))
    assert j.measured == 592.0 and j.verdict == expected, j.message
    assert run.unit == "s" and run.guide == 6 * 3600 and run.ran == pytest.approx(14961 * 200e-6)
    assert "(14961 wake-ups of 200 us, as printed) of the guide's 21600 s (6 h)" in j.message


def test_the_average_and_minimum_are_not_tail_criteria() -> None:
    crits = [c for c in criteria.load("am574x_idk", "rt_latency", release="2017.05-RT") if c.table == "OSADL Test"]
    m = rt_latency.WORKLOAD.measure(crits, Replay("am574x_idk", profile("am574x_idk", osadl={"loops": 1000}),
                                                  OSADL_1000))  # fmt: skip
    assert sorted(crits[i].row for i in range(len(crits)) if crits[i].id in m.lengths) == [
        "Histogram Overflows", "Max Latencies"]  # fmt: skip


def test_every_tail_criterion_of_a_guide_has_the_guides_run_length() -> None:
    """A new RT guide whose run length the importer did not find (an imported `# Total:` or `run=`) is caught here,
    before a gate run could judge it without its length."""
    s = rt_latency.settings(rt_latency.SUITE, {}, {})
    seen = 0
    for f in sorted((paths.variables() / "thresholds").glob("**/rt_latency.csv")):
        for c in criteria.read(f):
            if not c.guide.endswith(".rst") or not rt_latency.tail(_metric(c)):
                continue
            k = rt_latency.OSADL if c.table == "OSADL Test" else (
                rt_latency.PER_CPU if rt_latency.cpu_of(c) is not None else rt_latency.USE_CASES)  # fmt: skip
            assert rt_latency.guide_length(s, k, c) is not None, (c.id, c.guide, f)
            seen += 1
    assert seen >= 13 + 2 + 2  # am574x: 11 use cases and the OSADL max and overflows; per-CPU maxima of 2 guides


def _metric(c: Criterion) -> str:
    cpu = rt_latency.cpu_of(c)
    return rt_latency.per_cpu_key(c, cpu) if cpu is not None else rt_latency.metric_key(c)


def test_the_guides_run_lengths_are_imported_from_where_ti_states_them() -> None:
    """rt-linux-2017.05-am57x.rst:357-358 "Each test ran for / 4 hours." (a line block broken mid-sentence),
    rt-linux-12.00.00-am64x.rst:62 and rt-linux-11.01-am62ax.rst:58 `cyclictest -m -Sp80 -D6h ...` (a code block),
    the OSADL summary's `# Total: 100000000`: each table's criteria carry them as context."""
    am574x = criteria.load("am574x_idk", "rt_latency", release="2017.05-RT")
    assert {c.context for c in am574x if c.row.startswith("L_PERF_SHIELD")} == {"run=4h"}
    assert {c.context for c in am574x if c.table == "OSADL Test"} == {"Total=100000000"}
    for board, release in (("am64xx_evm", "12.00.00-RT"), ("am62axx_sk", "11.01-RT")):
        assert {c.context for c in criteria.load(board, "rt_latency", release=release)} == {"run=6h"}


def test_a_run_length_rule_without_its_number_is_named(tmp_path: Path) -> None:
    from perfgate.errors import DataError
    from perfgate.guides.sections import Sections

    text = (paths.variables() / "sections.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "sections.yaml"
    bad.write_text(text.replace("'Each test ran for\\s+(\\d+)\\s+hours?\\b'", "'Each test ran for'"))
    assert bad.read_text() != text
    with pytest.raises(DataError, match="needs one group") as e:
        Sections(bad)
    assert str(bad) in str(e.value)
