"""The board farm with the real thing: a labgrid coordinator and exporter started here on 127.0.0.1 (tests/farm.py),
two simulated boards exported through ser2net with a rest PDU, and the gate taking them as `kind: labgrid`.

- two gates asking for one place run one after the other (the second waits in the reservation queue);
- two places run in parallel under pabot, one process per place, and the merged report says which place each ran on;
- a gate killed with SIGKILL does not leave its place locked (its guard gives it back);
- a place left acquired by a gate that no longer runs is released by the next gate (the sweep).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from farm import Rig
from testpaths import ROOT

BOARD = "am62xx_sk"
SUITE = "dhrystone"  # three criteria: a whole gate run (bring-up, workload, verdicts) in seconds

pytestmark = [pytest.mark.labgrid, pytest.mark.slow]


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory):
    rig = Rig(tmp_path_factory.mktemp("farm"), [BOARD, BOARD]).start()
    try:
        yield rig
    finally:
        left = rig.close()
    assert not left, f"the farm left processes or ports behind: {left}"


def _pabot(tmp: Path, lab: Path, names: list[str], timeout: float = 300) -> tuple[subprocess.CompletedProcess, Path]:
    argv = [sys.executable, "-m", "pabot.pabot", "--no-pabotlib", "--processes", str(len(names))]
    for i, name in enumerate(names, 1):
        f = tmp / f"{name}.args"
        f.write_text(f"--name {name}\n--variable BOARD:{BOARD}\n--variable LAB:{lab}\n")
        argv += [f"--argumentfile{i}", str(f)]
    out = tmp / "out"
    argv += ["--outputdir", str(out), "--suite", SUITE, str(ROOT / "suites")]
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"  # pabot starts `robot`
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PATH": path}
    p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert (out / "output.xml").exists(), p.stdout[-3000:] + p.stderr[-3000:]
    return p, out / "output.xml"


def _held(suite) -> tuple[float, float, str]:
    """When this gate process held its place: from its 'acquired' to its 'released' log message."""
    times: dict[str, float] = {}
    text: list[str] = []

    def walk(item) -> None:
        for m in getattr(item, "messages", []) or []:
            text.append(m.message)
            stamp = datetime.fromisoformat(str(m.timestamp)).timestamp()
            if m.message.startswith("acquired labgrid place"):
                times["acquired"] = stamp
            if m.message.startswith("released "):
                times["released"] = stamp
        for child in getattr(item, "body", []) or []:
            walk(child)
        for attr in ("setup", "teardown"):
            if getattr(item, attr, None):
                walk(getattr(item, attr))
        for s in getattr(item, "suites", []) or []:
            walk(s)

    walk(suite)
    assert "acquired" in times and "released" in times, f"{suite.name}: no acquire/release messages"
    return times["acquired"], times["released"], "\n".join(text)


def test_two_gates_for_one_place_run_one_after_the_other(rig: Rig, tmp_path: Path) -> None:
    lab = rig.lab_file(tmp_path / "one-place.yaml", place="sim-1", wait=120)
    start = time.monotonic()
    p, output = _pabot(tmp_path, lab, ["gate1", "gate2"])
    elapsed = time.monotonic() - start
    merged = ExecutionResult(str(output)).suite
    assert p.returncode == 0, p.stdout[-3000:]
    assert [s.name for s in merged.suites] == ["gate1", "gate2"]
    held = {s.name: _held(s) for s in merged.suites}
    for s in merged.suites:
        assert s.metadata["Labgrid Place"].startswith(f"sim-1 on {rig.coordinator}"), s.metadata
        assert s.statistics.passed == 3 and s.statistics.failed == 0
    first, second = sorted(held.values())
    assert first[1] <= second[0], "both gates held sim-1 at the same time"
    assert "waiting for a place matching name=sim-1" in second[2], "the second gate did not queue for the place"
    assert rig.state()["sim-1"] == (None, None), "sim-1 was not given back"
    print(f"two gates, one place, one after the other: {elapsed:.1f} s")


def test_two_places_in_parallel_under_pabot(rig: Rig, tmp_path: Path) -> None:
    lab = rig.lab_file(tmp_path / "by-tag.yaml", tags={"board": "{board}", "rack": "sim"}, wait=60)
    start = time.monotonic()
    p, output = _pabot(tmp_path, lab, ["gate1", "gate2"])
    elapsed = time.monotonic() - start
    merged = ExecutionResult(str(output)).suite
    assert p.returncode == 0, p.stdout[-3000:]
    places = sorted(s.metadata["Labgrid Place"].split()[0] for s in merged.suites)
    assert places == ["sim-1", "sim-2"], "each process must take its own place, and the report must say which"
    (a0, a1, a_log), (b0, b1, b_log) = (_held(s) for s in merged.suites)
    assert max(a0, b0) < min(a1, b1), "the two places were not held at the same time"
    assert "power-cycle (labgrid)" in a_log and "power-cycle (labgrid)" in b_log, "not powered by labgrid's driver"
    pdu = (rig.workdir / "pdu.log").read_text()
    for outlet in (1, 2):  # labgrid's NetworkPowerDriver (rest model) switched each board off and on at the PDU
        assert f'"PUT /outlet/{outlet} HTTP/1.1" 200' in pdu, pdu[-2000:]
    assert all(v == (None, None) for v in rig.state().values())
    assert rig.reservations() == []
    print(f"two places in parallel: {elapsed:.1f} s")


def test_a_killed_gate_gives_its_place_back(rig: Rig, tmp_path: Path) -> None:
    lab = rig.lab_file(tmp_path / "kill.yaml", place="sim-2", wait=60)
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--console", "none",
            "-v", f"BOARD:{BOARD}", "-v", f"LAB:{lab}", "--suite", SUITE, str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results")}
    gate = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while rig.state()["sim-2"][0] is None:
            assert gate.poll() is None, "the gate ended before it acquired sim-2"
            assert time.monotonic() < deadline, "the gate never acquired sim-2"
            time.sleep(0.2)
        holder = rig.state()["sim-2"][0]
        assert holder and holder.endswith(f".perfgate-{gate.pid}")
    finally:
        gate.send_signal(signal.SIGKILL)
        gate.wait(10)
    killed = time.monotonic()
    while rig.state()["sim-2"] != (None, None):
        assert time.monotonic() - killed < 20, f"sim-2 still locked 20 s after the gate was killed: {rig.state()}"
        time.sleep(0.2)
    print(f"sim-2 free {time.monotonic() - killed:.1f} s after SIGKILL")
    assert rig.reservations() == []
    guard_log = next((tmp_path / "results").glob(f"virtual/{BOARD}/*/farm-guard.log")).read_text()
    assert f"gate {gate.pid} is gone" in guard_log and "sim-2 released" in guard_log, guard_log


def test_an_interrupted_gate_gives_its_place_back_in_its_teardown(rig: Rig, tmp_path: Path) -> None:
    """Ctrl-C (SIGINT): robot stops gracefully, the suite teardown's Close Lab releases the place itself and stops
    the guard, which then gives nothing back."""
    lab = rig.lab_file(tmp_path / "int.yaml", place="sim-1", wait=60)
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--console", "none",
            "-v", f"BOARD:{BOARD}", "-v", f"LAB:{lab}", "--suite", SUITE, str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results")}
    gate = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not next((tmp_path / "results").glob(f"virtual/{BOARD}/*/serial.log"), None):  # its console is open
            assert gate.poll() is None and time.monotonic() < deadline, "the gate never opened sim-1's console"
            time.sleep(0.2)
        assert rig.state()["sim-1"][0].endswith(f".perfgate-{gate.pid}")
        gate.send_signal(signal.SIGINT)
        gate.wait(60)
    finally:
        if gate.poll() is None:
            gate.kill()
            gate.wait(10)
    assert gate.returncode != 0, "an interrupted gate must not pass"
    assert rig.state()["sim-1"] == (None, None), rig.state()
    assert rig.reservations() == []
    messages = ExecutionResult(str(tmp_path / "out" / "output.xml")).suite
    _, _, text = _held(messages)
    assert "released sim-1" in text
    guard_log = next((tmp_path / "results").glob(f"virtual/{BOARD}/*/farm-guard.log")).read_text()
    assert "is gone" not in guard_log, guard_log  # the gate gave the place back itself


def test_a_gate_waits_for_a_busy_place_at_most_its_wait(rig: Rig) -> None:
    """No place frees in time: the reservation is cancelled and the error names the place and who holds it."""
    from perfgate.farm.client import Farm, FarmError

    said: list[str] = []
    with Farm(rig.coordinator, owner="localhost/holder") as holder:
        place = holder.take({"name": "sim-2"}, 10)
        try:
            with Farm(rig.coordinator, say=said.append) as farm:
                start = time.monotonic()
                with pytest.raises(FarmError, match=r"no place matching name=sim-2 became free within 3 s .*"
                                   r"sim-2 acquired by localhost/holder.*cancelled"):  # fmt: skip
                    farm.take({"name": "sim-2"}, 3)
                assert 3 <= time.monotonic() - start < 10
            assert any(s.startswith("waiting for a place matching name=sim-2") for s in said), said
            assert [r.owner for r in rig.reservations()] == ["localhost/holder"]  # ours is gone, the holder's stays
        finally:
            holder.give_back(place)
    assert rig.state()["sim-2"] == (None, None) and rig.reservations() == []


def test_a_later_gate_frees_a_place_left_by_a_dead_one(rig: Rig) -> None:
    """No guard (it died too): the place stays acquired - labgrid places have no lease - until the next gate on
    this host sweeps it."""
    code = (
        "from perfgate.farm.lease import take\n"
        f"lease = take({rig.coordinator!r}, {{'name': 'sim-1'}}, 10, guarded=False)\n"
        "import os; os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60, capture_output=True)
    held = rig.state()["sim-1"]
    assert held[0] and ".perfgate-" in held[0], "the dead process should have left sim-1 acquired"
    from perfgate.farm.client import Farm

    said: list[str] = []
    with Farm(rig.coordinator, say=said.append) as farm:
        place = farm.take({"name": "sim-1"}, 10)
        farm.give_back(place)
    assert f"released sim-1 (left acquired by {held[0]}, which no longer runs)" in said, said
    assert any(s.startswith(f"cancelled reservation {held[1]} of {held[0]}") for s in said), said
    assert rig.state()["sim-1"] == (None, None)


def test_a_user_suite_takes_a_board_with_the_farm_keywords(rig: Rig, tmp_path: Path) -> None:
    """resources/farm.resource in a user suite: Reserve Place by tag, labgrid power off/on, the board's U-Boot
    on the exporter's ser2net console through SerialLibrary, Release Place."""
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "robot", "--outputdir", str(out), "--console", "dotted",
            "-v", f"COORDINATOR:{rig.coordinator}", "-v", f"BOARD:{BOARD}",
            str(ROOT / "tests" / "robot" / "farm_keywords.robot")]  # fmt: skip
    p = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=180, check=False)
    result = ExecutionResult(str(out / "output.xml")).suite
    failed = "\n".join(f"{t.name}: {t.message}" for t in result.tests if t.failed)
    assert p.returncode == 0, failed + "\n" + p.stdout[-3000:] + p.stderr[-2000:]
    assert result.statistics.passed == 3 and result.statistics.failed == 0
    place = result.metadata["Labgrid Place"]
    assert place.split()[0] in rig.places and f"on {rig.coordinator}" in place, place
    assert "reserving a labgrid place matching board=am62xx_sk rack=sim" in p.stdout, p.stdout
    assert all(v == (None, None) for v in rig.state().values()), rig.state()
    assert rig.reservations() == []


def test_lg_coordinator_names_the_coordinator_when_the_lab_does_not(rig: Rig, monkeypatch) -> None:
    from perfgate.farm.client import Farm

    monkeypatch.setenv("LG_COORDINATOR", rig.coordinator)
    with Farm(None) as farm:
        assert farm.address == rig.coordinator
        assert sorted(farm.places()) == sorted(rig.places)


def test_a_slow_exporter_is_waited_for(tmp_path: Path) -> None:
    """The coordinator gives an exporter 10 s to hand a resource over; an exporter host that takes longer (here its
    first ser2net start blocks it 12 s) fails the acquire, the coordinator frees the half-acquired console in its
    next resource sync, and the gate's retry then gets the place."""
    from perfgate.farm.client import Farm

    said: list[str] = []
    slow = Rig(tmp_path, [BOARD], slow_exporter=12).start()
    try:
        with Farm(slow.coordinator, say=said.append) as farm:
            start = time.monotonic()
            place = farm.take({"name": "sim-1"}, 30)
            took = time.monotonic() - start
            try:
                assert place.console_address()[1] > 0
            finally:
                farm.give_back(place)
        assert slow.state()["sim-1"] == (None, None)
    finally:
        left = slow.close()
    assert not left, f"the farm left processes or ports behind: {left}"
    retry = "Failed to acquire resources for place sim-1: the exporter has not handed them over yet"
    assert any(retry in s for s in said), said
    print(f"slow exporter: place acquired after {took:.1f} s")


def test_a_user_suite_that_forgets_release_place_still_gives_it_back(rig: Rig, tmp_path: Path) -> None:
    """The farm library releases every place still held when robot ends (its listener's close)."""
    suite = tmp_path / "forgets.robot"
    suite.write_text(
        "*** Settings ***\n"
        f"Resource    {ROOT / 'resources' / 'farm.resource'}\n\n"
        "*** Test Cases ***\n"
        "Take And Forget\n"
        "    Reserve Place    board=am62xx_sk    coordinator=${COORDINATOR}    wait=30\n",
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "-v",
            f"COORDINATOR:{rig.coordinator}", str(suite)]  # fmt: skip
    p = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 0, p.stdout[-2000:]
    assert "perfgate: released sim-" in p.stdout, p.stdout
    assert all(v == (None, None) for v in rig.state().values()) and rig.reservations() == []
