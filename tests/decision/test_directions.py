"""Directions (variables/directions.yaml) and settings (variables/sections.yaml) over every imported criterion.

`pytest -s tests/decision/test_directions.py` prints the whole mapping: every distinct (metric, unit) with its
direction, and every column the importer keeps as a setting, so a reviewer reads them at once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from perfgate.directions import Directions
from perfgate.errors import DataError
from perfgate.guides.importer import Importer, guide_files


@pytest.fixture(scope="module")
def all_criteria():
    return [c for gi in Importer().run(guide_files()) for c in gi.criteria]


def _label(c) -> str:
    # the unit-bearing text: the column header, or the row key for one-column tables and name/value lists
    return c.metric if c.metric and c.metric != "perf" else c.row


def test_print_every_metric_unit_with_its_direction(all_criteria):
    mapping: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for c in all_criteria:
        mapping[(c.direction, c.unit, _label(c))].add(c.board)
    print(f"\n{'direction':9}  {'unit':12}  metric (or row) as the guide prints it   [boards]")
    for (direction, unit, label), boards in sorted(mapping.items()):
        print(f"{direction:9}  {unit or '-':12}  {label}   [{len(boards)}]")
    assert len(mapping) > 100


# The classes the gate promises: throughput, score, iterations, fps -> higher; latency, time, CPU load,
# packet loss, power -> lower; clocks -> match.
CLASSES = [
    (r"throughput|bandwidth|transfer rate|bw_|_bandwidt|^(copy|scale|add|triad) \(|kpps|packets", "higher"),
    (r"score|glmark2|gfxbench|coremark-pro|workloads/|iterations|dhrystone_per|whetstone|linpack", "higher"),
    (r"latenc|lat_|_time \(|boot time|procedure_call|handler|select_on|cost_to", "lower"),
    (r"cpu load|cpu_util|packet loss", "lower"),
]


def test_directions_follow_the_metric_classes(all_criteria):
    for c in all_criteria:
        text = f"{c.row} {c.metric}".lower()
        if c.unit == "MHz":
            assert c.direction == "match", c.id
            continue
        if c.suite == "display":
            assert c.direction == "match", c.id  # a mode's refresh rate
            continue
        if c.unit == "num_files":
            assert c.direction == "higher", c.id  # lmbench lat_fs: files handled, not a latency
            continue
        if c.suite == "low_power":
            assert c.direction == "lower", c.id  # power
            continue
        for rx, direction in CLASSES:
            if re.search(rx, text) and not (direction == "higher" and re.search(r"cpu load|cpu_util", text)):
                assert c.direction == direction, (c.id, c.row, c.metric, c.direction)
                break


def test_every_unit_has_one_direction_except_fps(all_criteria):
    by_unit: dict[str, set[str]] = defaultdict(set)
    for c in all_criteria:
        by_unit[c.unit].add(c.direction)
    for unit, directions in by_unit.items():
        if unit == "fps":
            assert directions == {"higher", "match"}  # decode and GLBenchmark rates vs display refresh rates
        else:
            assert len(directions) == 1, (unit, directions)


def test_settings_are_context_not_criteria(all_criteria):
    """Every setting the guides print, listed: it must be context on some criterion and never a criterion."""
    found: dict[str, set[str]] = defaultdict(set)
    for c in all_criteria:
        for part in filter(None, c.context.split("; ")):
            key, _, value = part.partition("=")
            found[key].add(value)
    print()
    for key, values in sorted(found.items()):
        print(f"setting  {key}: {', '.join(sorted(values))}")
    assert set(found) == {
        "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)",
        "UDP Datagram Size(bytes)",
        "packet_size (bytes)",
        "Test Number",
        "Rail voltage(V)",
        "Number of files transferred",
        "Total Bytes transferred (MB)",
        "Interval (in Seconds)",
        "Total",
        "Sensor",  # AM57x 11.01 sensor capture: the camera sensor (ov10635)
        "run",  # the RT guides' run length, from the text above the table ("Each test ran for 4 hours", -D6h)
    }
    assert not {c.metric for c in all_criteria} & set(found)
    # name/value lists: the names that are settings are not rows (the low-power `Total` row is a published sum)
    assert not {c.row for c in all_criteria if not c.metric and c.suite != "low_power"} & set(found)


def test_no_rule_is_an_error_naming_the_file(tmp_path: Path):
    f = tmp_path / "directions.yaml"
    f.write_text("rules:\n  - {unit: '^us$', direction: lower, why: latency}\n")
    d = Directions(f)
    assert d.direction(id="x", metric="", unit="us", row="lat_tcp (us)", suite="lmbench", table="t") == "lower"
    with pytest.raises(DataError, match=r"directions.yaml: no direction rule matches b.s.t.r"):
        d.direction(id="b.s.t.r", metric="Score", unit="score", row="r", suite="s", table="t")


def test_overrides_win_and_bad_directions_are_refused(tmp_path: Path):
    f = tmp_path / "directions.yaml"
    f.write_text("rules:\n  - {unit: '^us$', direction: lower, why: latency}\noverrides:\n  a.b.c: match\n")
    assert Directions(f).direction(id="a.b.c", metric="", unit="us", row="r", suite="s", table="t") == "match"
    f.write_text("rules:\n  - {unit: '^us$', direction: smaller, why: latency}\n")
    with pytest.raises(DataError, match=r"directions.yaml:2: rule 1: direction 'smaller'"):
        Directions(f)
