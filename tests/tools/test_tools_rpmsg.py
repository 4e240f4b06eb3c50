"""rpmsg_char_benchmark: the parser on constructed fixtures (tests/fixtures/rpmsg/PROVENANCE.md: each reproduces a
trait of the tool's source as ../shared/reference/tool-outputs.md reads it), the workload's plan from the board data,
and the sim's output read back by the parser."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from perfgate import boards, criteria, tools
from perfgate.errors import DataError, ParseError
from perfgate.sim.tools import rpmsg as sim_rpmsg
from perfgate.tools import rpmsg
from perfgate.workloads.rpmsg_latency import WORKLOAD
from testpaths import FIXTURES

FIX = FIXTURES / "rpmsg"


def text(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_every_fixture_is_in_its_provenance() -> None:
    prov = (FIX / "PROVENANCE.md").read_text(encoding="utf-8")
    for f in FIX.glob("*.txt"):
        assert f"`{f.name}`" in prov, f"{f} is not described in rpmsg/PROVENANCE.md"


def test_a_passing_run_gives_the_guide_columns() -> None:
    assert tools.parse("rpmsg", text("passed-r2-m1.txt")) == {rpmsg.KEY_AVG: 46.0, rpmsg.KEY_MAX: 194.0}
    assert rpmsg.keys_for() == ["Average round trip (usecs)", "Max round trip (usecs)"]  # the guide's columns


def test_the_average_is_read_as_the_integer_the_tool_printed() -> None:
    """Integer division of the histogram sum by n (469 // 10 = 46): read as printed, never recomputed or rounded;
    a decimal is not the tool's output."""
    out = text("passed-r2-m1.txt")
    hist = rpmsg.histogram(out)
    assert sum(us * c for us, c in hist.items()) / 10 == 46.9
    assert rpmsg.parse(out)[rpmsg.KEY_AVG] == 46.0
    with pytest.raises(ParseError, match="Average round-trip latency"):
        rpmsg.parse(out.replace("latency: 46", "latency: 46.9"))


def test_a_failed_run_exits_0_and_is_still_refused() -> None:
    with pytest.raises(ParseError, match=r"line 4: rpmsg_char_benchmark failed.*recv_msg failed"):
        rpmsg.parse(text("failed-recv.txt"))
    only_status = "\n".join(ln for ln in text("failed-recv.txt").splitlines() if "recv_msg" not in ln)
    with pytest.raises(ParseError, match="TEST STATUS: FAILED"):
        rpmsg.parse(only_status)
    unfinished = text("passed-r2-m1.txt").replace("TEST STATUS: PASSED\n", "")
    with pytest.raises(ParseError, match="no `TEST STATUS:` line"):
        rpmsg.parse(unfinished)


def test_a_negative_round_trip_lowers_the_average_and_is_said() -> None:
    """One round trip across a second boundary: not in the histogram, but still in n. The average is TI's (the
    published numbers were made the same way); the warning says what it is without the lost round trip."""
    out = text("negative-latency.txt")
    assert rpmsg.parse(out) == {rpmsg.KEY_AVG: 39.0, rpmsg.KEY_MAX: 50.0}
    (warning,) = tools.warnings("rpmsg", out)
    assert "1 of 10 round trips came out negative" in warning and "43.8 us without them" in warning
    assert tools.warnings("rpmsg", text("passed-r2-m1.txt")) == []


def test_two_runs_in_one_output_are_refused() -> None:
    with pytest.raises(ParseError, match="more than one run"):
        rpmsg.parse(text("passed-r2-m1.txt") * 2)


def test_parse_command_line() -> None:
    p = subprocess.run([sys.executable, "-m", "perfgate", "parse", "rpmsg", str(FIX / "passed-r2-m1.txt")],
                       capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"Average round trip (usecs)": 46, "Max round trip (usecs)": 194}


def _am64() -> tuple[list, dict]:
    crits = criteria.load("am64xx_evm", "rpmsg_latency", "12.00.00-RT")
    assert len(crits) == 8
    return crits, boards.profile("am64xx_evm")


def test_plan_one_run_per_core_and_size_with_the_boards_rproc_ids() -> None:
    crits, profile = _am64()
    runs = WORKLOAD.plan(crits, profile, {})
    commands = [r.command for r in runs]
    assert commands == [
        "cd /tmp; rpmsg_char_benchmark -r 2 -n 100000 -m 1 & chrt -f -p 80 $!; wait $!; cat histogram.txt",
        "cd /tmp; rpmsg_char_benchmark -r 2 -n 100000 -m 490 & chrt -f -p 80 $!; wait $!; cat histogram.txt",
        "cd /tmp; rpmsg_char_benchmark -r 0 -n 100000 -m 1 & chrt -f -p 80 $!; wait $!; cat histogram.txt",
        "cd /tmp; rpmsg_char_benchmark -r 0 -n 100000 -m 490 & chrt -f -p 80 $!; wait $!; cat histogram.txt",
    ]
    assert all(sorted(r.keys) == sorted(rpmsg.keys_for()) for r in runs)
    assert sum(len(ids) for r in runs for ids in r.keys.values()) == 8


def test_a_core_the_board_data_does_not_map_is_not_measured_naming_the_key() -> None:
    crits, profile = _am64()
    lab = {"name": "mylab", "boards": {"am64xx_evm": {"workloads": {"rpmsg_latency": {"cores": {"M4F": None}}}}}}
    profile = {**profile, "workloads": {**profile["workloads"], "rpmsg_latency": {"cores": {"R5F0_0": 2}}}}
    runs, missing = WORKLOAD.plan_with_missing(crits, profile, lab)
    assert len(runs) == 2 and len(missing) == 4
    assert all("workloads.rpmsg_latency.cores.M4F" in why for why in missing.values())


def test_bad_data_never_reaches_the_shell() -> None:
    crits, profile = _am64()
    lab = {"workloads": {"rpmsg_latency": {"cores": {"R5F0_0": "2; reboot"}}}}
    with pytest.raises(DataError, match=r"cores\.R5F0_0: must be a whole number"):
        WORKLOAD.plan(crits, profile, lab)
    with pytest.raises(DataError, match="workdir: must be an absolute path"):
        WORKLOAD.plan(crits, profile, {"workloads": {"rpmsg_latency": {"workdir": "x; reboot"}}})


def test_the_sims_output_reads_back() -> None:
    command = "cd /tmp; rpmsg_char_benchmark -r 2 -n 100000 -m 490 & chrt -f -p 80 $!; wait $!; cat histogram.txt"
    out = sim_rpmsg.render(command, {rpmsg.KEY_AVG: 154.2, rpmsg.KEY_MAX: 255.4}, random.Random(1))
    assert rpmsg.parse(out, command) == {rpmsg.KEY_AVG: 154.0, rpmsg.KEY_MAX: 255.0}
    assert "on rproc id 2 ..." in out and tools.warnings("rpmsg", out) == []


class _Board:
    """A context whose board prints a fixture for every rpmsg_char_benchmark run."""

    def __init__(self, fixture: str) -> None:
        self.profile, self.lab, self.board = boards.profile("am64xx_evm"), {}, "am64xx_evm"
        self.text, self.notes, self.last_evidence = text(fixture), [], "raw/rpmsg.txt"

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        return self.text

    def note(self, message: str) -> None:
        self.notes.append(message)


def test_the_workload_says_what_a_negative_round_trip_did() -> None:
    crits, _ = _am64()
    ctx = _Board("negative-latency.txt")
    m = WORKLOAD.measure(crits, ctx)  # type: ignore[arg-type]
    assert set(m.values) == {c.id for c in crits} and not m.missing
    assert sum("1 of 10 round trips came out negative" in n for n in ctx.notes) == 4  # one per run


def test_the_workload_fails_a_run_that_exited_0_but_failed() -> None:
    crits, _ = _am64()
    m = WORKLOAD.measure(crits, _Board("failed-recv.txt"))  # type: ignore[arg-type]
    assert not m.values and all("recv_msg failed" in why for why in m.missing.values())
