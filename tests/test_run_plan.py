"""The plan (perfgate.run.plan): criteria files per suite, the tools the selected suites run, the runs each value
is averaged over, and what is said at once of criteria no number of runs decides. Against the committed criteria
of am62xx_sk and the real workloads."""

from __future__ import annotations

from pathlib import Path

from perfgate import criteria
from perfgate.run import plan
from perfgate.run.settings import Settings


def test_every_suite_gets_a_criteria_file_header_only_when_the_release_publishes_nothing(tmp_path: Path) -> None:
    selection = criteria.select("am62xx_sk")
    plan.write_criteria(tmp_path, selection)
    written = {p.stem for p in tmp_path.glob("*.csv")}
    assert set(plan.all_suites()) <= written and "stream" in written
    published = selection.by_suite()
    assert len(criteria.read(tmp_path / "stream.csv")) == len(published["stream"])
    empty = sorted(set(plan.all_suites()) - set(published))
    assert all(criteria.read(tmp_path / f"{s}.csv") == [] for s in empty)


def test_the_tools_the_selected_suites_run_come_from_their_workloads_plans() -> None:
    crits = criteria.select("am62xx_sk").criteria
    assert plan.tools(["stream", "dhrystone"], crits, {"cpus": 4}, {}) >= {"stream", "dhrystone"}
    assert plan.tools(["no_such_suite"], crits, {}, {}) == set()  # no criteria: nothing to run
    assert plan.tools(["stream", "ethernet"], crits, {}, {}) is None  # network builds its commands as it measures


def test_runs_averaged_over_a_variable_else_one() -> None:
    assert plan.averaged_over("stream", lambda n, d=None: d) == 1
    assert plan.averaged_over("boot_time", lambda n, d=None: "4" if n == "BOOT_CYCLES" else d) == 4
    assert plan.averaged_over("no_such_suite", lambda n, d=None: d) == 1


def test_criteria_no_number_of_runs_decides_are_counted_per_selected_suite_and_said_once() -> None:
    crits = criteria.select("am62xx_sk").criteria
    stream = [c for c in crits if c.suite == "stream"]
    lmbench = [c for c in crits if c.suite == "lmbench"]
    seen: list[tuple[str, int, int]] = []

    def at(c, runs, averaged) -> bool:
        seen.append((c.suite, runs, averaged))
        return c.suite == "stream"

    var = lambda n, d=None: d  # noqa: E731
    assert plan.undecidable(stream + lmbench, ["stream"], 5, at, var) == {"stream": len(stream)}
    assert len(seen) == len(stream) + len(lmbench) and {r for _, r, _ in seen} == {5}
    assert plan.undecidable(stream + lmbench, ["lmbench"], 5, at, var) == {}
    assert plan.undecidable_warning({}, 3, "fail") is None
    text = plan.undecidable_warning({"stream": 2, "rt_latency": 7}, 3, "fail")
    assert text and "9 criteria cannot be decided in REPEAT:3 runs" in text and "(rt_latency 7, stream 2)" in text
    assert "and fail the gate" in text and "and fail the gate" not in plan.undecidable_warning({"s": 1}, 3, "pass")
    best = plan.warnings(stream, [], Settings(aggregate="best"), lambda *a: False, var)
    assert len(best) == 1 and "best" in best[0].lower()
    assert plan.warnings(stream, [], Settings(), lambda *a: True, var)[0].startswith(f"perfgate: {len(stream)} ")
