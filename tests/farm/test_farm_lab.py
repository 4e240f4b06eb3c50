"""The `kind: labgrid` lab file: the shipped example loads, the reservation's filters come from it, and every bad
`labgrid:` value is named with the file, the key and its line. (The farm itself, with a real coordinator and
exporter, is tests/farm/test_farm.py.)"""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest

from perfgate.board import lab_labgrid
from perfgate.board.lab import load
from perfgate.errors import DataError
from perfgate.farm.client import Farm, FarmError
from testpaths import ROOT

GOOD = """\
name: farm
kind: labgrid
labgrid: {coordinator: "lab-host:20408", tags: {board: "{board}", rack: b}, wait: 90}
login: {user: root}
"""


def write(tmp_path: Path, text: str) -> Path:
    d = tmp_path / "variables" / "labs"
    d.mkdir(parents=True, exist_ok=True)
    p = d / "farm.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_the_example_labgrid_lab_loads_as_hardware_with_tag_filters() -> None:
    lab = load("example-labgrid", "am62xx_sk")
    assert lab.kind == "labgrid" and not lab.virtual  # a farm's boards are hardware unless the lab says otherwise
    assert lab_labgrid.filters(lab, "am62xx_sk") == {"board": "am62xx_sk"}
    assert lab_labgrid.settings(lab)["coordinator"] == "lab-host.example:20408"
    assert lab_labgrid.settings(lab)["wait"] == 1800.0
    assert lab.data["serial"]["port"] == lab_labgrid.FROM_PLACE  # the console comes from the place


def test_place_and_tags_both_filter_and_neither_means_the_board(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    write(tmp_path, GOOD.replace("tags:", "place: am62-01, tags:"))
    assert lab_labgrid.filters(load("farm", "j721e_idk_gw"), "j721e_idk_gw") == {
        "board": "j721e_idk_gw", "rack": "b", "name": "am62-01",
    }  # fmt: skip
    write(tmp_path, "name: farm\nkind: labgrid\n")
    lab = load("farm", "am62xx_sk")
    assert lab_labgrid.filters(lab, "am62xx_sk") == {"board": "am62xx_sk"}
    settings = lab_labgrid.settings(lab)
    assert settings["wait"] == lab_labgrid.DEFAULT_WAIT and "coordinator" not in settings


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('coordinator: "lab-host:20408"', 'coordinator: "lab host"', r"labgrid.coordinator: must be HOST:PORT"),
        ("wait: 90", "wait: 90s", r"labgrid.wait: must be a number of seconds above 0, not '90s'"),
        ("wait: 90", "wait: 0", r"labgrid.wait: must be a number of seconds above 0, not 0"),
        ("wait: 90", "power_delay: -1", r"labgrid.power_delay: must be a number of seconds, not -1"),
        ("wait: 90", "waiting: 90", r"labgrid.waiting: unknown key \(known: coordinator, place, tags, wait"),
        ("rack: b", "Rack: b", r"labgrid.tags.Rack: a labgrid tag key is lower-case"),
        ("rack: b", "rack: b c", r"labgrid.tags.rack: must be a tag value without spaces or `=`"),
        ("tags: {", "place: [a, b], tags: {", r"labgrid.place: must be a place name"),
        ("login:", 'serial: {port: "rfc2217://h:7001"}\nlogin:', r"serial.port: a labgrid lab's console is the pl"),
        ("kind: labgrid", "kind: hardware\nserial: {port: /dev/ttyUSB0}",
         r"labgrid: only a `kind: labgrid` lab takes its board from a labgrid coordinator"),
    ],
)  # fmt: skip
def test_bad_labgrid_values_name_the_file_key_and_line(tmp_path, monkeypatch, old, new, message) -> None:
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    p = write(tmp_path, text)
    with pytest.raises(DataError, match=message) as e:
        load("farm", "am62xx_sk")
    assert str(e.value).startswith(f"{p}:")
    key = message.split(":")[0].split(".")[0]
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(f"{key}:"))
    assert e.value.line == line, str(e.value)


def _unanswered_address() -> str:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.parametrize("before", ["nothing", "asyncio.run"])
def test_a_coordinator_that_does_not_answer_fails_in_bounded_time_naming_it(before) -> None:
    """Also after asyncio.run (any library, any earlier test in this thread) unset the thread's loop:
    CI once failed here with 'There is no current event loop' instead of naming the coordinator."""
    with pytest.raises(FarmError):
        Farm(_unanswered_address(), timeout=5)  # labgrid stashes its loop for this thread
    if before == "asyncio.run":
        asyncio.run(asyncio.sleep(0))  # leaves the thread with no current loop
    address = _unanswered_address()
    start = time.monotonic()
    with pytest.raises(FarmError, match=rf"labgrid coordinator {address}: connect"):
        Farm(address, timeout=5)
    assert time.monotonic() - start < 10


def test_gates_of_one_board_started_at_once_get_a_run_directory_each(tmp_path) -> None:
    """pabot on a farm starts gates of one board in the same second: each creates its own run directory."""
    from concurrent.futures import ThreadPoolExecutor

    from perfgate.run.session import unique as _unique

    base = tmp_path / "am62xx_sk" / "20261122-213034"
    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda _: _unique(base), range(8)))
    assert len(set(made)) == 8 and all(p.is_dir() for p in made)
    assert sorted(p.name for p in made) == sorted([base.name] + [f"{base.name}-{n}" for n in range(2, 9)])


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_the_farm_benchmark_refuses_to_measure_nothing() -> None:
    import subprocess
    import sys

    bench = ROOT / "benchmarks" / "farm.py"
    for args, message in ((["--runs", "0"], "--runs must be 1 or more"), (["--counts", ""], "--counts ''")):
        p = subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, timeout=120,
                           check=False)  # fmt: skip
        assert p.returncode != 0 and message in p.stderr, p.stderr
