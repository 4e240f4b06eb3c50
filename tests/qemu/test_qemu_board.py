"""The QEMU board end to end: the board process, its power switch, U-Boot, login, SSH, and QEMU dying mid-run.

Needs the image (`python -m perfgate qemu build`); skipped with the reason when it is not built.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import paramiko
import pytest
import serial

from perfgate.qemu import image, supervisor

pytestmark = [pytest.mark.slow, pytest.mark.qemu]

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def built() -> image.Built:
    try:
        return image.current()
    except image.BuildError as e:
        pytest.skip(str(e))


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "perfgate", "qemu", *args], capture_output=True, text=True,
                          timeout=timeout, check=False)  # fmt: skip


class Console:
    def __init__(self, url: str) -> None:
        self.port = serial.serial_for_url(url, timeout=0.2)
        self.seen = b""

    def expect(self, pattern: bytes, timeout: float) -> float:
        start = time.monotonic()
        mark = len(self.seen)
        while time.monotonic() - start < timeout:
            self.seen += self.port.read(4096)
            if re.search(pattern, ANSI.sub(b"", self.seen[mark:]), re.S):
                return time.monotonic() - start
        raise AssertionError(f"no {pattern!r} within {timeout} s; last output: {self.seen[-500:]!r}")

    def send(self, text: str) -> None:
        self.port.write(text.encode())


@pytest.fixture
def board(built, tmp_path):
    state_file = tmp_path / "state.json"
    p = cli("start", "--state", str(state_file), "--power", "off", "--watch-pid", str(os.getpid()))
    assert p.returncode == 0, p.stderr
    state = json.loads(p.stdout)
    yield state_file, state
    cli("stop", "--state", str(state_file))
    assert not supervisor.pid_alive(state["pid"])


def qemu_children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout
    return [int(x) for x in out.split()]


def test_power_uboot_login_ssh_and_stop(board, built):
    state_file, state = board
    assert state["serial"].startswith("socket://127.0.0.1:") and state["power"] == "off"
    con = Console(state["serial"])
    t0 = time.monotonic()
    p = cli("power", str(state_file), "on")
    assert p.returncode == 0, p.stderr
    con.expect(rb"Hit any key to stop autoboot", 30)
    con.send(" ")
    con.expect(rb"\n=> ", 10)
    con.send("version\r")
    con.expect(rb"U-Boot 2023\.01.*\n=> ", 10)
    con.send("boot\r")
    con.expect(rb"Machine model: perfgate QEMU arm64 virtual board", 30)
    con.expect(rb"perfgate-qemu login: ", 60)
    to_login = time.monotonic() - t0
    con.send("root\r")
    con.expect(rb"root@perfgate-qemu:~# ", 20)
    assert to_login < 30, f"power on to login took {to_login:.1f} s"

    ssh = paramiko.SSHClient()
    ssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    ssh.connect("127.0.0.1", port=state["ssh_port"], username="root", key_filename=str(built.key),
                look_for_keys=False, allow_agent=False, timeout=30)  # fmt: skip
    _, out, _ = ssh.exec_command("cat /proc/device-tree/model; echo; which openssl fio iperf3 cyclictest stress-ng")
    text = out.read().decode()
    ssh.close()
    assert "perfgate QEMU arm64 virtual board" in text
    for tool in ("openssl", "fio", "iperf3", "cyclictest", "stress-ng"):
        assert f"/{tool}\n" in text, text

    # power cycle: the same serial connection sees the board come up again
    p = cli("power", str(state_file), "cycle")
    assert p.returncode == 0, p.stderr
    con.expect(rb"U-Boot 2023\.01", 30)
    qemu = supervisor.read_state(state_file)["qemu_pid"]
    assert qemu in qemu_children(state["pid"])

    p = cli("power", str(state_file), "off")
    assert p.returncode == 0 and "off" in p.stdout
    assert not supervisor.pid_alive(qemu)


def test_qemu_dying_is_reported_and_drops_the_console(board):
    state_file, state = board
    con = Console(state["serial"])
    assert cli("power", str(state_file), "on").returncode == 0
    con.expect(rb"Hit any key to stop autoboot", 30)
    qemu = supervisor.read_state(state_file)["qemu_pid"]
    os.kill(qemu, signal.SIGKILL)
    with pytest.raises(serial.SerialException):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            con.seen += con.port.read(4096)
    assert b"perfgate qemu: QEMU exited with status -9 while the board was powered on" in con.seen
    after = supervisor.read_state(state_file)
    assert after["power"] == "off" and after["died"]["status"] == -9
    # the board can be switched on again, like a board that crashed
    assert cli("power", str(state_file), "on").returncode == 0


def test_board_process_and_qemu_end_with_the_gate(built, tmp_path):
    """The board process watches the gate (here a `sleep` standing in for it): when it ends, QEMU ends too."""
    gate = subprocess.Popen(["sleep", "30"])
    state_file = tmp_path / "state.json"
    p = cli("start", "--state", str(state_file), "--power", "on", "--watch-pid", str(gate.pid))
    assert p.returncode == 0, p.stderr
    state = json.loads(p.stdout)
    qemu = state["qemu_pid"]
    assert supervisor.pid_alive(qemu)
    gate.kill()
    gate.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and (supervisor.pid_alive(state["pid"]) or supervisor.pid_alive(qemu)):
        time.sleep(0.2)
    assert not supervisor.pid_alive(state["pid"]), "the board process outlived the gate"
    assert not supervisor.pid_alive(qemu), "QEMU outlived the gate"


def test_supervisor_killed_hard_takes_qemu_with_it(built, tmp_path):
    state_file = tmp_path / "state.json"
    p = cli("start", "--state", str(state_file), "--power", "on", "--watch-pid", str(os.getpid()))
    assert p.returncode == 0, p.stderr
    state = json.loads(p.stdout)
    os.kill(state["pid"], signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and supervisor.pid_alive(state["qemu_pid"]):
        time.sleep(0.2)
    assert not supervisor.pid_alive(state["qemu_pid"]), "QEMU outlived a killed board process"


def test_power_on_a_stopped_board_is_a_clear_error(tmp_path):
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps({"pid": 999999, "control_port": 1, "stopped": 1}))
    p = cli("power", str(state_file), "on")
    assert p.returncode == 2
    assert str(state_file) in p.stderr and "not running" in p.stderr
    p = cli("power", str(tmp_path / "none.json"), "on")
    assert p.returncode == 2 and "no such state file" in p.stderr
