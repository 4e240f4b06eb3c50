"""Criteria no guide publishes (perfgate.custom): a board's own variables/custom/<board>.yaml, validated with the
file, key and line; rows of the guide's shape, selected beside the release, their tolerance in the policy; measured by
workloads/custom.py with real commands on this host (stress-ng where installed)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_workloads_real_tools import LocalContext

from perfgate import criteria, custom
from perfgate.decision.tolerance import Policy
from perfgate.errors import DataError
from perfgate.model import FIELDS
from perfgate.workloads.custom import WORKLOAD

GOOD = """\
criteria:
  - name: cpu matrixprod
    metric: cpu bogo ops/s (real time)
    unit: bogo ops/s
    direction: higher
    value: 10.0
    tolerance: 0.5
    command: [stress-ng, --cpu, "1", --cpu-method, matrixprod, -t, "1", --metrics-brief]
    parser: stress-ng
  - name: online cpus
    metric: cpus
    unit: ""
    direction: match
    value: 2
    tolerance: {relative: 0, absolute: 64}
    command: [getconf, _NPROCESSORS_ONLN]
    regex: '^(\\d+)$'
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variables" / "custom" / "myboard.yaml"  # PERFGATE_ROOT=tmp_path: the board's own file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(DataError) as e:
        custom.read(write(tmp_path, text), "myboard")
    return str(e.value)


def test_a_good_file_gives_rows_of_the_guides_shape(tmp_path):
    path = write(tmp_path, GOOD.replace('unit: ""', "unit: cpus"))
    (c, spec), (c2, spec2) = custom.read(path, "myboard")
    assert c.id == "myboard.custom.own-criteria.cpu-matrixprod" and c.suite == c.chapter == "custom"
    assert (c.metric, c.unit, c.direction, c.value, c.source) == (
        "cpu bogo ops/s (real time)", "bogo ops/s", "higher", 10.0, "custom/myboard.yaml:2")  # fmt: skip
    assert spec.line == "stress-ng --cpu 1 --cpu-method matrixprod -t 1 --metrics-brief" and spec.parser == "stress-ng"
    assert (spec.tolerance.relative, spec2.tolerance.absolute, spec2.regex) == (0.5, 64.0, r"^(\d+)$")
    # the row a threshold file holds, as for an imported guide: same columns, read back the same
    out = tmp_path / "custom.csv"
    criteria.write(out, [c, c2])
    assert criteria.read(out) == [c, c2] and list(c.to_json()) == FIELDS
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(criteria.HEADER)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("direction: higher", "direction: faster"), r"myboard.yaml:5: criteria\[0\].direction: 'faster' is not one"),
        (("    unit: bogo ops/s\n", ""), r"myboard.yaml:2: criteria\[0\]: unit is missing"),
        (("tolerance: 0.5", "tolerance: 12"), r"myboard.yaml:7: criteria\[0\].tolerance: 12 is out of range"),
        (("tolerance: 0.5", "tolerance: lots"), r"myboard.yaml:7: criteria\[0\].tolerance: 'lots' is not a number"),
        (("tolerance: {relative: 0,", "tolerance: {relativ: 0,"), r"myboard.yaml:15: criteria\[1\].tolerance: a map"),
        (("value: 10.0", "value: ten"), r"myboard.yaml:6: criteria\[0\].value: 'ten' is not a number"),
        (
            ("command: [getconf, _NPROCESSORS_ONLN]", 'command: "getconf _NPROCESSORS_ONLN; reboot"'),
            r"myboard.yaml:16: criteria\[1\].command: must be a list of arguments",
        ),
        (("parser: stress-ng", "parser: stressng"), r"myboard.yaml:9: criteria\[0\].parser: unknown tool 'stressng'"),
        (
            ("regex: '^(\\d+)$'", "regex: '^\\d+$'"),
            r"myboard.yaml:17: criteria\[1\].regex: must have exactly one group",
        ),
        (("    regex: '^(\\d+)$'\n", ""), r"myboard.yaml:10: criteria\[1\]: give one of parser"),
        (("name: online cpus", "name: CPU matrixprod"), r"myboard.yaml:10: criteria\[1\].name: 'CPU matrixprod' is al"),
        (
            ("    parser: stress-ng\n", "    parser: stress-ng\n    seconds: 3\n"),
            r"myboard.yaml:10: criteria\[0\].seconds: unknown key",
        ),
    ],
)
def test_bad_input_names_the_file_the_key_and_its_line(tmp_path, change, said):
    old, new = change
    assert old in GOOD
    said_now = error(tmp_path, GOOD.replace(old, new))
    assert re.search(said, said_now), said_now


def test_a_file_that_is_no_list_of_criteria(tmp_path):
    assert "myboard.yaml:1: criteria: must be a list" in error(tmp_path, "criteria: {metric: x}\n")
    assert "myboard.yaml:2: unknown key 'critera'" in error(tmp_path, "criteria: []\ncritera: []\n")
    assert "myboard.yaml:3: not valid YAML" in error(tmp_path, "criteria:\n  - a: [\n  - b\n")


def test_the_qemu_boards_criterion_is_selected_beside_its_release_with_its_tolerance():
    chosen = criteria.select("qemu_arm64")
    own = [c for c in chosen.criteria if c.suite == "custom"]
    assert [c.id for c in own] == [
        "qemu_arm64.custom.own-criteria.stress-ng-cpu-matrixprod",
        "qemu_arm64.custom.own-criteria.stress-ng-cpu-matrixprod-2-workers",
    ]
    assert all(c.release != "custom" for c in chosen.criteria if c.suite != "custom") and own[0].release == "custom"
    assert own[0].id not in {c.id for c in criteria.released("qemu_arm64").criteria}
    policy = Policy.load()
    before = policy.for_criterion(own[0])
    policy.add_ids("qemu_arm64", custom.tolerances("qemu_arm64"))
    after = policy.for_criterion(own[0])
    assert (after.relative, after.rule) == (0.5, "custom/qemu_arm64.yaml:11") and before.rule != after.rule
    assert Policy.load(tolerances="qemu_arm64.custom.*=0.2").for_criterion(own[0]).relative == 0.2  # the CLI wins


def test_measured_on_this_host_by_parser_and_by_regex_one_command_per_argv(tmp_path, monkeypatch):
    if shutil.which("stress-ng") is None:
        pytest.skip("needs stress-ng (setup.sh --tests installs it)")
    pwned = tmp_path / "pwned"
    text = (
        GOOD
        + f"""\
  - name: quoted
    metric: echoed
    unit: x
    direction: higher
    value: 12
    tolerance: 0.1
    command: [printf, "%s\\\\n", "12; touch {pwned}"]
    regex: '^(\\d+);'
"""
    )
    pairs = custom.read(write(tmp_path, text), "myboard")
    crits = [c for c, _ in pairs]
    ctx = LocalContext("myboard", {}, {})
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))  # the workload reads the board's file by the board's name
    runs = WORKLOAD.plan(crits, {}, {})
    got = WORKLOAD.measure(crits, ctx)
    assert [r.tool for r in runs] == ["stress-ng", "regex", "regex"]
    assert runs[2].command == "printf '%s\\n' '12; touch " + str(pwned) + "'"
    assert got.values[crits[0].id] > 0 and got.tools[crits[0].id] == "stress-ng"
    assert got.values[crits[1].id] >= 1 and got.tools[crits[1].id] == "regex"
    assert got.values[crits[2].id] == 12.0 and not pwned.exists()  # one argument, never a second command
    assert not got.invalid and not got.missing


def test_a_regex_that_matches_nothing_is_an_invalid_run(tmp_path, monkeypatch):
    c, _ = custom.read(write(tmp_path, GOOD.replace("'^(\\d+)$'", "'^cpus: (\\d+)$'")), "myboard")[1]
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    got = WORKLOAD.measure([c], LocalContext("myboard", {}, {}))
    assert c.id not in got.values and "no number matched" in got.invalid[c.id][0]
