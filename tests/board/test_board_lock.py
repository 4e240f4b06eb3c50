"""One board, one gate at a time (perfgate.board.boardlock, the console opened exclusively): a second gate on the
same board refuses at once naming who holds it, or waits (BOARD_WAIT) saying so; the board sees one bring-up at a
time. The last test starts one simulated board by hand (as a board on a bench is) and three real gates on it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from perfgate.board.boardlock import BoardBusy, BoardLock
from perfgate.board.console import Console, ConsoleLost
from ptyboard import PtyBoard
from testpaths import ROOT


def test_a_second_holder_is_refused_naming_the_first_then_takes_the_board_once_free(tmp_path: Path) -> None:
    first, second = BoardLock("bench", "am62xx_sk", tmp_path), BoardLock("bench", "am62xx_sk", tmp_path)
    first.acquire()
    with pytest.raises(BoardBusy, match=rf"am62xx_sk in LAB=bench is driven by another gate: pid {os.getpid()} on "
                                        r"\S+ since \d{4}-\d\d-\d\dT.*-v BOARD_WAIT:<seconds> waits"):  # fmt: skip
        second.acquire(0)
    said: list[str] = []
    threading.Timer(1.0, first.release).start()
    waited = second.acquire(30, say=said.append, poll=0.05)
    assert 0.8 < waited < 10 and second.held
    assert len(said) == 1 and "waiting for it (0 s of 30 s, BOARD_WAIT)" in said[0], said
    with pytest.raises(BoardBusy, match=r"waited [01] s \(BOARD_WAIT\)"):
        first.acquire(0.5, say=said.append, poll=0.05)
    assert BoardLock("bench", "am62xx_lp_sk", tmp_path).acquire() < 1  # another board of the lab is free
    assert BoardLock("other", "am62xx_sk", tmp_path).acquire() < 1  # the same board name in another lab too


def test_a_killed_gate_leaves_no_stale_lock(tmp_path: Path) -> None:
    code = ("import sys, time; from pathlib import Path; from perfgate.board.boardlock import BoardLock; "
            f"BoardLock('bench', 'am62xx_sk', Path({str(tmp_path)!r})).acquire(); print('held', flush=True); "
            "time.sleep(60)")  # fmt: skip
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT / "libraries")})  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(BoardBusy, match=f"pid {holder.pid} on"):
            BoardLock("bench", "am62xx_sk", tmp_path).acquire(0)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert BoardLock("bench", "am62xx_sk", tmp_path).acquire(0) < 1


def test_the_serial_console_is_opened_exclusively(tmp_path: Path) -> None:
    board = PtyBoard()
    first, second = Console(board.path), Console(board.path)
    try:
        first.open()
        with pytest.raises(ConsoleLost, match=r"cannot open the serial console /dev/pts/\d+: .*exclusive.*fuser"):
            second.open()
        first.close()
        second.open()  # free again once the first gate closed it
    finally:
        second.close()
        first.close()
        board.close()


# The board's power switch; the first gate's first switching waits (at most 300 s) until the test has seen the other
# gates meet the held board, so a loaded machine (robot starting slowly) cannot let the first finish before they look.
POWER = """import os, subprocess, sys, time
go = os.path.join(os.path.dirname(sys.argv[3]), "go")
deadline = time.time() + 300
while not os.path.exists(go) and time.time() < deadline:
    time.sleep(0.1)
with open(sys.argv[3], "a") as log:
    log.write(f"{os.environ.get('PG_GATE', '?')} {sys.argv[2]} {time.time():.3f}\\n")
sys.exit(subprocess.run([sys.executable, "-m", "perfgate", "sim-power", sys.argv[1], sys.argv[2]]).returncode)
"""


def _read_into(stream, lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


@pytest.mark.slow
def test_two_gates_started_at_once_on_one_simulated_board_take_turns_and_a_third_refuses(tmp_path: Path) -> None:
    state, power_log, locks = tmp_path / "board.json", tmp_path / "power.log", tmp_path / "locks"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "libraries"), "PERFGATE_LOCKS": str(locks)}
    sim = subprocess.Popen([sys.executable, "-m", "perfgate", "sim", "--board", "am62xx_sk", "--state", str(state),
                            "--seed", "3"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)  # fmt: skip
    gates: dict[str, subprocess.Popen] = {}
    printed: dict[str, list[str]] = {}
    readers: list[threading.Thread] = []
    try:
        deadline = time.monotonic() + 30
        while not state.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        board = json.loads(state.read_text())
        (tmp_path / "power.py").write_text(POWER)
        power = f"{sys.executable} {tmp_path / 'power.py'} {state}"
        lab = {"name": "bench32", "kind": "hardware", "virtual": True, "description": "the sim board, by hand",
               "serial": {"port": board["serial"], "baud": 115200},
               "power": {**{k: f"{power} {k} {power_log}" for k in ("on", "off", "cycle")}, "timeout": 400},
               "login": {"user": "root"}, "ssh": {"address": "discover", "port": board["ssh_port"]},
               "tester": {"address": "host"}, "timeouts": {"boot": 60, "autoboot": 30}}  # fmt: skip
        (tmp_path / "bench32.yaml").write_text(yaml.safe_dump(lab))

        def gate(name: str, *variables: str) -> subprocess.Popen:
            argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / name), "--console", "dotted",
                    "-v", "BOARD:am62xx_sk", "-v", f"LAB:{tmp_path / 'bench32.yaml'}", "-v", "INCONCLUSIVE:pass",
                    *variables, "-s", "dhrystone", str(ROOT / "suites")]  # fmt: skip
            genv = {**env, "PG_GATE": name, "PERFGATE_RESULTS": str(tmp_path / name / "results")}
            gates[name] = subprocess.Popen(argv, cwd=ROOT, env=genv, stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT, text=True)  # fmt: skip
            printed[name] = []
            readers.append(threading.Thread(target=_read_into, args=(gates[name].stdout, printed[name]), daemon=True))
            readers[-1].start()
            return gates[name]

        def said_by(name: str) -> str:
            return "".join(printed[name])

        gate("A", "-v", "BOARD_WAIT:300")  # two gates started at once
        gate("B", "-v", "BOARD_WAIT:300")
        lock = locks / "bench32.am62xx_sk.lock"
        deadline = time.monotonic() + 60
        while not (lock.is_file() and lock.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lock.is_file() and lock.read_text(), "neither gate took the board"
        holder = json.loads(lock.read_text())["pid"]
        waiter = "B" if gates["A"].pid == holder else "A"
        refused = gate("C")  # a third, while one of them holds the board (its power switch held) and the other waits
        refused.wait(300)
        deadline = time.monotonic() + 300
        while "waiting for it" not in said_by(waiter) and time.monotonic() < deadline:
            time.sleep(0.1)
        (tmp_path / "go").touch()
        for p in gates.values():
            p.wait(600)
        for r in readers:
            r.join(30)
        out = {name: said_by(name) for name in gates}
    finally:
        for p in gates.values():
            if p.poll() is None:
                p.kill()
        sim.terminate()
        sim.wait(10)

    first, second = ("A", "B") if waiter == "B" else ("B", "A")
    assert gates["A"].returncode == 0 and gates["B"].returncode == 0, out["A"][-2000:] + out["B"][-2000:]
    assert refused.returncode != 0
    # C looks while the first holds the board: it names that gate and never waits
    assert f"am62xx_sk in LAB=bench32 is driven by another gate: pid {holder} on " in out["C"], out["C"][-2000:]
    assert "waiting for it" not in out["C"]
    assert not list((tmp_path / "C" / "results").glob("**/run.json")), "a refused gate opens no run"
    said = out[second]
    assert f"is driven by another gate: pid {holder} on " in said and "waiting for it" in said, said[-2000:]
    assert "is free after" in said and "waiting for it" not in out[first]
    events = [line.split() for line in power_log.read_text().splitlines()]
    order = [g for g, _, _ in events]
    assert set(order) == {"A", "B"} and order == sorted(order, key=[first, second].index), events  # no interleaving
    runs = {g: json.loads(next((tmp_path / g / "results").glob("**/run.json")).read_text()) for g in ("A", "B")}
    assert runs["A"]["verdict"] == runs["B"]["verdict"] == "pass"
    assert runs[first]["finished"] <= runs[second]["started"], runs  # the second run opened once the first finished
    first_end = max(float(t) for g, _, t in events if g == first)
    assert first_end < min(float(t) for g, _, t in events if g == second)
