"""`perfgate bisect`: which build of an ordered list brought a regression in, each step the A/B of `perfgate ab`
(each boot a robot run of the gate's suite on the simulated board, where a build is a configuration), moved on by
perfgate.baseline.bisect; and its refusals of bad input (exit 2, naming the option)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfgate import cli, paths

NBENCH = str(paths.root() / "suites" / "system" / "nbench.robot")
IDEA = "am62xx_sk.nbench.nbench-benchmarks.idea-*"


def _bisect(*args: str) -> int:
    return cli.main(["bisect", NBENCH, "--board", "am62xx_sk", *args])


@pytest.mark.slow
def test_bisect_finds_the_build_the_regression_began_with_and_names_the_one_that_did_not_boot(
    tmp_path: Path, capsys
) -> None:
    """Seven builds, b0 good: b1 panics at boot, b2 is b0 again, b3 to b6 make nbench's idea row 5 % slower. The
    bisect tries b3 (worse), then b1 (did not boot: skipped), then b2 (the same): b3 is the first bad build, and b1
    is named as not booting."""
    slower = f"FAULTS:degrade:{IDEA}:5"
    rc = _bisect("--var", "SIM_SPEED:20", "--var", "SIM_NOISE:quiet", "--good", "b0=",
                 "--build", "b1=FAULTS:kernel-panic", "--build", "b2=", "--build", f"b3={slower}",
                 "--build", f"b4={slower}", "--build", f"b5={slower}", "--bad", f"b6={slower}",
                 "--criterion", IDEA, "--min-boots", "1", "--max-boots", "3",
                 "--out", str(tmp_path / "bisect"))  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0, out
    report = json.loads((tmp_path / "bisect" / "bisect.json").read_text())
    assert report["criteria"] == ["am62xx_sk.nbench.nbench-benchmarks.idea-iterations.perf"]
    steps = [(s["candidate"], s["verdict"]) for s in report["steps"]]
    assert steps[:2] == [("b3", "worse"), ("b1", "did not boot")], steps  # b2 next: the same (or, undecided, b3
    assert steps[2] in (("b2", "same"), ("b2", "better"), ("b2", "undecided")), steps  # worse than b2)
    assert report["result"]["found"] and report["result"]["first_bad"] == "b3"
    assert report["result"]["last_good"] == "b2" and report["result"]["skipped"] == []
    assert "kernel panic" in report["result"]["did_not_boot"]["b1"]
    worse = report["steps"][0]["criteria"]["am62xx_sk.nbench.nbench-benchmarks.idea-iterations.perf"]
    assert worse["high_pct"] < 0 and -8 < worse["change_pct"] < -2  # the change with its interval
    assert "first bad build: b3" in out and "did not boot: b1" in out
    assert "step 1: b3 against b0: worse" in out and "between b0 (good) and b3" in out
    assert list((tmp_path / "bisect").glob("step-3/results-B/virtual/am62xx_sk/history.jsonl"))  # their own tree


GOOD, BAD = ["--good", "SIM_SEED:1"], ["--bad", "SIM_SEED:2"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--good", "x", *BAD], "--good 'x': 'x' is not NAME:value"),
        ([*GOOD, "--build", "NO_SUCH:1", *BAD], "--build 'NO_SUCH:1': unknown variable -v NO_SUCH"),
        ([*GOOD, "--bad", "LAB:no-such-lab"], "--bad 'LAB:no-such-lab': unknown lab 'no-such-lab'"),
        ([*GOOD, "--bad", "SIM_SEED:1"], "--bad 'SIM_SEED:1' is the same build as --good"),
        ([*GOOD, *BAD, "--criterion", "no.such.*"], "--criterion 'no.such.*' names no criterion"),
        ([*GOOD, *BAD, "--min-boots", "0"], "--min-boots must be 1 or more"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_naming_the_option_before_any_boot(tmp_path: Path, capsys, args: list, says: str) -> None:
    assert _bisect(*args, "--out", str(tmp_path / "b")) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "b").exists()  # refused before anything booted


def test_fewer_than_two_builds_is_refused_naming_the_missing_option(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        _bisect("--good", "SIM_SEED:1", "--build", "SIM_SEED:2")
    assert e.value.code == 2 and "--bad" in capsys.readouterr().err


HARDWARE = f"LAB:{paths.variables() / 'labs' / 'example-ser2net.yaml'}"


@pytest.mark.parametrize(
    ("command", "args", "says"),
    [
        ("ab", ["--b", "NO_SUCH:1"], "--b: unknown variable -v NO_SUCH"),
        ("ab", ["--b", HARDWARE], "the builds mix a virtual board with hardware (A: VIRTUAL BOARD"),
        ("bisect", [*GOOD, "--bad", HARDWARE], "the builds mix a virtual board with hardware"),
    ],
)  # fmt: skip
def test_ab_checks_its_builds_as_bisect_does_and_never_mixes_virtual_with_hardware(
    tmp_path: Path, capsys, command: str, args: list, says: str
) -> None:
    """`perfgate ab` refused nothing before booting (a misspelt --b variable reached robot); both commands now check
    each build's variables and labs the same way (perfgate.commands.ab.check_variables), and a virtual build is never
    compared with a hardware one (the gate never mixes them in a baseline either)."""
    assert cli.main([command, NBENCH, "--board", "am62xx_sk", *args, "--out", str(tmp_path / "o")]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_build_that_booted_but_measured_nothing_is_named_so_not_as_not_booting(tmp_path: Path, monkeypatch) -> None:
    """A build whose boot came up (the gate read its Linux's state around a command) but whose commands measured no
    criterion (its tool missing) is skipped like one that did not boot, and said to have measured nothing; one the
    gate never read did not boot. Both from what the run's metrics.json holds (commands.ab.booted)."""
    import argparse

    from perfgate.commands import ab, bisect

    state = {"run": 1, "before": {"boot": "09f722ca"}, "after": {"boot": "09f722ca"}}
    assert ab.booted([{"id": "x", "board_state": [state]}])
    assert not ab.booted([{"id": "x", "board_state": []}, {"id": "y"}])
    up = {"b1": True, "b2": False}

    def decide(args, board, where, builds, keep):  # the A/B of a candidate whose boot measured nothing
        label = "b1" if builds["B"] == ["X:1"] else "b2"
        raise ab.NothingMeasured("B", 1, where, f"{label}: `nbench` is not on the board", booted=up[label])

    monkeypatch.setattr(ab, "decide", decide)
    args = argparse.Namespace(var=[])
    steps = bisect.Steps(args, "am62xx_sk", tmp_path, [bisect.Build("b0", [], "--good"),
                                                       bisect.Build("b1", ["X:1"], "--build"),
                                                       bisect.Build("b2", ["X:2"], "--bad")])  # fmt: skip
    assert steps("b0", "b1") is None and steps.last()["verdict"] == "measured nothing"
    assert "it booted, but measured nothing: b1: `nbench` is not on the board" in steps.last()["reason"]
    assert steps("b0", "b2") is None and steps.last()["verdict"] == "did not boot"
