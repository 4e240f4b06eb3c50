"""Each injected fault of the simulated board really happens (the gate's side of handling them is tested
elsewhere): a hang in U-Boot, a kernel panic, no login prompt, garbage on the line, SSH dropped during a
workload, a missing tool, a degraded metric."""

from __future__ import annotations

import random
from pathlib import Path

import paramiko
import pytest

from perfgate import criteria, tools
from perfgate.sim import answers, data, faults
from seed_releases import seed
from test_sim_support import Sim, run

pytestmark = pytest.mark.slow


@pytest.fixture
def sim(tmp_path: Path):
    boards: list[Sim] = []

    def start(*args: str, board: str = "am62xx_sk") -> Sim:
        s = Sim(tmp_path, board, "--seed", "21", *args)
        boards.append(s)
        return s

    yield start
    for s in boards:
        s.stop()


def alsa_commands() -> list[answers.Answer]:
    found = [a for a in answers.Answers(data.load("am62xx_sk", faults.parse(""),
                  release=seed("am62xx_sk")), random.Random(0))._index.values()
             if a.tool == "alsa"]  # fmt: skip
    if not found:
        pytest.skip("no alsa workload plans a command for am62xx_sk")
    return found


def test_uboot_hang_answers_nothing_at_the_prompt(sim) -> None:
    s = sim("--faults", "uboot-hang")
    s.uboot()  # the prompt shows...
    s.send("version")
    assert s.quiet(1.0) == b""  # ...and then nothing: no echo, no answer
    s.power("cycle")
    s.read_until("Hit any key to stop autoboot")
    rest = s.quiet(1.5)  # not interrupted: it does not autoboot either
    assert b"Starting kernel" not in rest


def test_kernel_panic_after_starting_kernel(sim) -> None:
    s = sim("--faults", "kernel-panic")
    s.power("cycle")
    s.read_until("Starting kernel ...")
    log = s.read_until(r"---\[ end Kernel panic - not syncing: .*\]---", 10)
    assert "Kernel panic - not syncing: VFS: Unable to mount root fs" in log
    s.send("root")
    assert b"login" not in s.quiet(1.0)
    with pytest.raises((OSError, paramiko.SSHException)):
        s.ssh(timeout=2)


def test_no_login_prompt(sim) -> None:
    s = sim("--faults", "no-login")
    s.power("cycle")
    s.read_until("Starting kernel ...")
    log = s.read_until(r"Reached target Multi-User System\.", 10)
    assert "[FAILED] Failed to start Serial Getty on ttyS2." in log
    assert b"login:" not in s.quiet(1.5)


def noise(raw: bytes) -> list[int]:
    """Bytes a clean boot never sends: control characters other than CR, LF, BS, TAB, and anything above ASCII."""
    return [b for b in raw if (b < 0x20 and b not in b"\r\n\b\t") or b >= 0x7F]


def boot_bytes(s: Sim) -> bytes:
    s.power("cycle")
    return s.quiet(2.0 + 20.0 / s.speed)  # U-Boot, autoboot and a whole boot, whatever the line says


def test_garbage_on_the_serial_line(sim) -> None:
    raw = boot_bytes(sim("--faults", "garbage"))
    assert b"Starting kernel" in raw or b"Linux version" in raw  # the board still talks...
    assert len(noise(raw)) >= 10  # ...with line noise in it


def test_no_garbage_without_the_fault(sim) -> None:
    raw = boot_bytes(sim())
    assert b"login: " in raw and noise(raw) == []


def test_ssh_dropped_during_a_workload(sim) -> None:
    command = alsa_commands()[0].command
    s = sim("--faults", "ssh-drop:alsa")
    s.power("cycle")
    s.login()
    c = s.ssh()
    assert run(c, "echo still-here")[0] == "still-here\n"  # other commands are fine
    chan = c.get_transport().open_session()
    chan.settimeout(10)
    chan.exec_command(command)
    got = b""
    while True:
        data_ = chan.recv(4096)
        if not data_:
            break
        got += data_
    assert not chan.exit_status_ready() or chan.recv_exit_status() == -1  # no exit status: the link dropped
    assert not c.get_transport().is_active()
    assert (got and b"TRACE LOG" in got + chan.recv_stderr(4096)) or got == b""


def test_missing_tool_is_not_found(sim) -> None:
    command = alsa_commands()[0].command
    s = sim("--faults", "missing-tool:alsa")
    s.power("cycle")
    s.login()
    c = s.ssh()
    out, err, status = run(c, command)
    assert status == 127 and err == f"sh: {command.split()[0]}: not found\n" and out == ""
    assert run(c, f"command -v {command.split()[0]}")[2] == 1
    assert run(c, "command -v openssl")[2] == 0  # other tools are there


def test_degrade_makes_one_metric_worse(sim) -> None:
    answer = alsa_commands()[0]
    rows = [
        c
        for c in criteria.load("am62xx_sk", "alsa", release=seed("am62xx_sk"))
        if c.value == answer.values.get("throughput (bits/sec)")
    ]
    if not rows:
        pytest.skip("the alsa command measures no throughput criterion")
    target = rows[0]
    s = sim("--faults", f"degrade:{target.id}:30")
    s.power("cycle")
    s.login()
    out, _, status = run(s.ssh(), answer.command + " 2>&1")
    assert status == 0
    metrics = tools.parse("alsa", out, command=answer.command)
    assert metrics["throughput (bits/sec)"] == pytest.approx(target.value * 0.70, rel=0.05)  # fails a 10 % gate
    cpu = answer.values["cpu load (%)"]
    assert metrics["cpu load (%)"] == pytest.approx(cpu, rel=0.1, abs=0.02)  # the other metric is untouched
