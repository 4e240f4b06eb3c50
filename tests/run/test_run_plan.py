"""The plan (perfgate.run.plan): criteria files per suite, the tools the selected suites run, the runs each value
is averaged over, and what is said at once of criteria no number of runs decides. Against the committed criteria
of am62xx_sk and the real workloads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from perfgate import criteria
from perfgate.decision import budget
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


def test_criteria_the_budget_cannot_decide_are_counted_per_selected_suite_and_said_once() -> None:
    """Each selected suite's criteria are asked with the most runs their command may take (stream: one command of
    30 s in variables/budget.yaml: 5 runs within its suite's rerun budget; REPEAT caps it); the warning says how
    many are held to a wider tolerance (LIMITED)."""
    crits = criteria.select("am62xx_sk").criteria
    stream = [c for c in crits if c.suite == "stream"]
    lmbench = [c for c in crits if c.suite == "lmbench"]
    seen: list[tuple[str, int, int]] = []

    def at(c, runs, averaged) -> bool:
        seen.append((c.suite, runs, averaged))
        return c.suite == "stream"

    var = lambda n, d=None: d  # noqa: E731
    settings = Settings(budget=budget.load())
    assert plan.undecidable(stream + lmbench, ["stream"], settings, {}, {}, at, var) == {"stream": stream}
    assert {(s, r) for s, r, _ in seen} == {("stream", 5)}
    seen.clear()
    capped = Settings(repeat=2, budget=budget.load(repeat=2))
    assert plan.undecidable(stream + lmbench, ["lmbench"], capped, {}, {}, at, var) == {}
    assert {r for _, r, _ in seen} == {2}
    assert plan.undecidable_warning({}, 3, "fail") is None
    loss = replace(stream[0], min=None, max=None)
    text = plan.undecidable_warning({"stream": stream[:2], "rt_latency": [loss] * 7}, 3, "fail")
    assert text and "9 criteria cannot be held to their tolerance within the runs and boots REPEAT:3 allows" in text
    assert "(rt_latency 7, stream 2)" in text and "held to the tolerance their runs can decide (LIMITED" in text
    assert "Calibrate the board" in text
    best = plan.warnings(stream, [], Settings(aggregate="best", budget=budget.load()), {}, {}, lambda *a: False, var)
    assert len(best) == 1 and "best" in best[0].lower()
    said = plan.warnings(stream, [], Settings(budget=budget.load()), {}, {}, lambda *a: True, var)
    assert said[0].startswith(f"perfgate: {len(stream)} ") and "variables/budget.yaml" in said[0]


def test_commands_group_criteria_as_the_workload_plans_them() -> None:
    """stream: one command for its four rows; lmbench: a command per benchmark; a workload that plans while it
    measures (ethernet) counts one command of its suite's planned seconds per table row."""
    crits = criteria.select("am62xx_sk").criteria
    b = budget.load()
    stream = plan.commands("stream", [c for c in crits if c.suite == "stream"], {}, {}, b)
    assert len(stream) == 1 and len(stream[0].ids) == 4 and stream[0].seconds == b.seconds["stream"]
    lm = plan.commands("lmbench", [c for c in crits if c.suite == "lmbench"], {}, {}, b)
    assert len(lm) > 20 and sum(len(c.ids) for c in lm) == len([c for c in crits if c.suite == "lmbench"])
    eth = plan.commands("ethernet", [c for c in crits if c.suite == "ethernet"], {}, {}, b)
    eth_crits = [c for c in crits if c.suite == "ethernet"]
    assert len(eth) == len({(c.table, c.row) for c in eth_crits}) and {c.seconds for c in eth} == {b.suites["ethernet"]}
    assert sorted(cid for c in eth for cid in c.ids) == sorted(c.id for c in eth_crits)
