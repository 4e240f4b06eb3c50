"""The simulated board as a real process: its pseudo-terminal (pyserial), U-Boot, boot, login, shell, SSH
(paramiko), power switch, and no orphan processes."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import paramiko
import pytest

from perfgate import criteria, tools
from perfgate.sim import answers, data, faults
from seed_releases import seed
from test_sim_support import ROOT, Sim, alive, run

pytestmark = pytest.mark.slow


@pytest.fixture
def sim(tmp_path: Path):
    boards: list[Sim] = []

    def start(board: str = "am62xx_sk", *args: str) -> Sim:
        s = Sim(tmp_path, board, *args)
        boards.append(s)
        return s

    yield start
    for s in boards:
        s.stop()


def published(board: str, suite: str, row: str, metric_word: str) -> float:
    rows = [
        c for c in criteria.load(board, suite, release=seed(board)) if c.row == row and metric_word in c.metric.lower()
    ]
    assert rows, f"{board} publishes no {suite} {row} {metric_word}"
    return rows[0].value


def test_state_file_banner_and_uboot_prompt(sim) -> None:
    s = sim("am62xx-sk", "--seed", "1")  # an alias
    assert {"pid", "board", "serial", "ssh_port", "started", "speed", "control"} <= set(s.state)
    assert s.state["board"] == "am62xx_sk" and s.state["serial"].startswith("/dev/pts/")
    s.power("cycle")
    banner = s.read_until("Hit any key to stop autoboot")
    assert "U-Boot 2024.04 (perfgate simulated am62xx_sk)" in banner  # never mistaken for hardware
    s.port.write(b" ")
    s.read_until(r"=> $")
    assert "perfgate simulated am62xx_sk" in s.uboot_command("version")
    assert "Unknown command 'frobnicate' - try 'help'" in s.uboot_command("frobnicate")
    s.uboot_command("setenv greeting hello world")
    assert s.uboot_command("printenv greeting").strip() == "greeting=hello world"
    assert s.uboot_command("echo ${greeting}; echo again").split() == ["hello", "world", "again"]
    assert '## Error: "nothere" not defined' in s.uboot_command("printenv nothere")


def test_typed_characters_are_echoed_with_backspace_and_crlf(sim) -> None:
    s = sim()
    s.uboot()
    s.port.write(b"verx\x7fsion\r\n")  # CR LF counts once, backspace erases
    out = s.read_until(r"\n=> ")
    assert out.startswith("verx\b \bsion\r\n") and "perfgate simulated" in out
    assert s.quiet(0.3) == b""  # the LF after CR gave no second prompt


def test_uboot_storage_timings_reproduce_published_kbps(sim) -> None:
    s = sim("am62xx_sk", "--seed", "3")
    s.uboot()
    s.uboot_command("mmc dev 0")
    for op in ("write", "read"):
        command = f"time mmc {op} 0x82000000 0x0 0x10000"  # 0x2000000 bytes
        out = s.uboot_command(command)
        assert f"65536 blocks {'written' if op == 'write' else 'read'}: OK" in out
        measured = tools.parse("uboot", out, command=command)[f"{op} (KB/s)"]
        assert measured == pytest.approx(published("am62xx_sk", "uboot_emmc", "2000000", op), rel=0.06)
    s.uboot_command("mmc dev 1")
    for op, cmd in (("write", "fatwrite"), ("read", "fatload")):
        out = s.uboot_command(f"{cmd} mmc 1:1 0x82000000 perfgate.bin 400000")
        assert re.search(rf"4194304 bytes {'written' if op == 'write' else 'read'} in \d+ ms \(\d+(\.\d)? MiB/s\)", out)
        measured = tools.parse("uboot", out)[f"{op} (KB/s)"]
        assert measured == pytest.approx(published("am62xx_sk", "uboot_mmcsd", "400000", op), rel=0.06)
    assert "No SPI flash selected" in s.uboot_command("sf read 0x82000000 0 0x400000")


def test_boot_time_follows_published_figures(sim) -> None:
    board = "am62xx_lp_sk"  # publishes both default rootfs and init=/bin/sh boot times
    rows = criteria.load(board, "boot_time", release=seed(board))
    default = min(c.value for c in rows if "/bin/sh" not in c.row)
    init_sh = min(c.value for c in rows if "/bin/sh" in c.row)
    s = sim(board, "--seed", "5", "--speed", "4")  # slower than the default: host delays weigh less
    s.power("cycle")
    s.read_until("Starting kernel ...")
    t0 = time.monotonic()
    log = s.read_until(r"login: ", 15)
    measured = (time.monotonic() - t0) * s.speed
    assert measured == pytest.approx(default, rel=0.08)
    assert re.search(r"^\[\s+\d+\.\d{6}\] Linux version .*perfgate simulated am62xx_lp_sk", log, re.M)
    assert "Kernel command line: " in log
    s.uboot()
    s.uboot_command("setenv optargs init=/bin/sh")
    s.send("boot")
    s.read_until("Starting kernel ...")
    t0 = time.monotonic()
    log = s.read_until(r"\n# $", 10)
    measured = (time.monotonic() - t0) * s.speed
    assert measured == pytest.approx(init_sh, rel=0.08)
    assert "init=/bin/sh" in log and "Run /bin/sh as init process" in log
    s.send('echo PG""OK-$?')
    assert "PGOK-0" in s.read_until(r"PGOK-\d")


def test_login_serial_shell_and_ssh(sim) -> None:
    s = sim("am62xx_sk", "--seed", "7")
    s.power("cycle")
    s.login()
    s.send('ip -4 -o addr show; echo PG""END-$?')
    out = s.read_until(r"PGEND-\d+")
    assert re.search(r"^\d+: eth0\s+inet 127\.0\.0\.1/", out, re.M) and out.endswith("PGEND-0")
    c = s.ssh()
    assert "perfgate simulated am62xx_sk" in run(c, "uname -a")[0]
    assert run(c, "hostname")[0] == "am62xx-evm\n"
    assert run(c, "nproc")[0] == "4\n"
    assert run(c, "cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_cur_freq")[0] == "1400000\n"
    assert run(c, "no_such_tool --x") == ("", "sh: no_such_tool: not found\n", 127)
    assert run(c, "false; echo $?")[0] == "1\n"
    assert run(c, "cd /tmp && echo hi > f.txt && cat /tmp/f.txt; rm f.txt; cat f.txt")[0] == "hi\n"
    assert run(c, "echo $(nproc) cpus | grep -c cpus")[0] == "1\n"
    assert run(c, "exit 3")[2] == 3
    shell = c.invoke_shell()
    shell.settimeout(5)
    shell.send("echo interactive\r")
    got = b""
    while b"interactive\r\nroot@am62xx-evm:~# " not in got:
        got += shell.recv(4096)


def test_workload_over_ssh_is_parsed_back_around_published_values(sim) -> None:
    d = data.load("am62xx_sk", faults.parse(""), release=seed("am62xx_sk"))
    known = answers.Answers(d, __import__("random").Random(0))
    alsa = [a for a in known._index.values() if a.tool == "alsa"]
    if not alsa:
        pytest.skip("no alsa workload plans a command for am62xx_sk")
    s = sim("am62xx_sk", "--seed", "11")
    s.power("cycle")
    s.login()
    c = s.ssh()
    for answer in alsa[:4]:
        out, err, status = run(c, answer.command + " 2>&1")
        assert status == 0, err
        metrics = tools.parse("alsa", out, command=answer.command)
        for key, value in answer.values.items():
            assert metrics[key] == pytest.approx(value, rel=0.08), (answer.command, key)
    # the same over the serial console, the way the gate runs commands there (boards without network)
    answer = alsa[0]
    s.send(f'{answer.command}; echo PG""END-9-$?')
    text = s.read_until(r"PGEND-9-\d+", 10)
    assert text.endswith("PGEND-9-0")
    metrics = tools.parse("alsa", text.split("\n", 1)[1].rsplit("\n", 1)[0], command=answer.command)
    for key, value in answer.values.items():
        assert metrics[key] == pytest.approx(value, rel=0.08), ("serial", key)


def test_a_backgrounded_suspend_comes_later_with_the_kernels_messages(sim) -> None:
    """`(sleep N; echo mem > /sys/power/state) &` returns at once over SSH (the job runs in the background, as on
    a board); the board suspends N s later (board time), printing the kernel's messages, the last one printk's
    `Suspending console(s)`, then silence until a wake-up source (a key on the console: the UART) and the resume."""
    d = data.load("am62xx_sk", faults.parse(""), release=seed("am62xx_sk"))
    ina = next(a for a in answers.Answers(d, __import__("random").Random(0))._index.values() if a.tool == "power")
    s = sim("am62xx_sk", "--seed", "5", "--speed", "10")
    s.power("cycle")
    s.login()
    c = s.ssh()
    awake = tools.parse("power", run(c, ina.command)[0])["total (mW)"]
    t0 = time.monotonic()
    assert run(c, "(sleep 4; echo mem > /sys/power/state) > /dev/null 2>&1 &") == ("", "", 0)
    returned = time.monotonic() - t0
    entry = s.read_until(r"PM: suspend entry \(deep\)", 5)
    entered = time.monotonic() - t0
    assert returned < 0.3 < 0.9 * 4 / 10 <= entered, (returned, entered)  # 4 s of board time at speed 10
    assert re.search(r"\[\s*\d+\.\d{6}\] PM: suspend entry \(deep\)$", entry)
    s.read_until(r"Freezing user space processes completed \(elapsed \d\.\d{3} seconds\)")
    s.read_until(r"printk: Suspending console\(s\) \(use no_console_suspend to debug\)\r?\n")
    assert s.quiet(1.0) == b""  # asleep: no RTC alarm, nothing wakes it
    asleep = tools.parse("power", run(c, ina.command)[0])["total (mW)"]  # the INA read-out answers meanwhile
    assert asleep == pytest.approx(ina.values["total (mW)"], rel=0.08) and awake > 5 * asleep
    s.port.write(b"\r")
    assert "Restarting tasks ... done." in s.read_until(r"PM: suspend exit", 5)
    # rtcwake: the alarm wakes it; the command returns after the resume, having said what it set
    out, _, status = run(c, "rtcwake -s 2 -m mem")
    assert status == 0 and out.startswith('rtcwake: wakeup from "mem" using /dev/rtc0 at ')
    text = s.read_until(r"PM: suspend exit", 5)
    assert text.index("PM: suspend entry (deep)") < text.index("Suspending console(s)") < text.index("suspend exit")


def test_power_off_is_silence_and_on_boots_again(sim) -> None:
    s = sim("am62xx_sk", "--seed", "13")
    s.power("cycle")
    s.login()
    s.ssh()
    assert s.power("off") == "off"
    time.sleep(0.1)
    s.port.reset_input_buffer()  # what the board said before the power went
    with pytest.raises((OSError, paramiko.SSHException)):
        s.ssh(timeout=2)  # the network is gone with the power
    s.send("root")
    assert s.quiet(0.5) == b""  # nothing typed is echoed, nothing is said
    assert s.power("status") == "off"
    s.power("on")
    assert "perfgate simulated am62xx_sk" in s.read_until("Hit any key to stop autoboot")


def test_reboot_from_shell_restarts_from_the_banner(sim) -> None:
    s = sim("am62xx_sk", "--seed", "17")
    s.power("cycle")
    s.login()
    s.send("reboot")
    assert "reboot: Restarting system" in s.read_until("Hit any key to stop autoboot")
    s.login()


def test_power_on_to_shell_and_ssh_under_five_seconds(sim) -> None:
    s = sim("am62xx_sk")
    t0 = time.monotonic()
    s.power("cycle")
    s.login()
    assert run(s.ssh(), "true")[2] == 0
    assert time.monotonic() - t0 < 5.0


def test_sigterm_removes_state_file(sim) -> None:
    s = sim()
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(5) == 0
    assert not s.state_path.exists()
    assert not Path(s.state["control"]).exists()


def test_no_orphan_when_the_parent_is_killed(tmp_path: Path) -> None:
    """A parent (like robot) starts the sim and dies by SIGKILL: the sim goes too, and removes its state."""
    state = tmp_path / "orphan.json"
    argv = [sys.executable, "-m", "perfgate", "sim", "--board", "am62xx_sk", "--state", str(state)]
    script = (
        f"import subprocess, time\np = subprocess.Popen({argv!r}, stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL, start_new_session=True)\ntime.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        deadline = time.monotonic() + 20
        while not state.exists():
            assert time.monotonic() < deadline, "the sim did not start"
            time.sleep(0.05)
        pid = json.loads(state.read_text())["pid"]
        assert alive(pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(5)
        deadline = time.monotonic() + 5
        while alive(pid):
            assert time.monotonic() < deadline, f"sim pid {pid} outlived its parent"
            time.sleep(0.05)
        assert not state.exists()
    finally:
        if parent.poll() is None:
            parent.kill()


def test_bad_fault_spec_is_a_clear_error(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "perfgate", "sim", "--board", "am62xx_sk", "--state", str(tmp_path / "s.json")]
    p = subprocess.run([*argv, "--faults", "melt-down"], capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert p.returncode == 2
    assert "unknown fault 'melt-down'" in p.stderr and "uboot-hang" in p.stderr
    p = subprocess.run([sys.executable, "-m", "perfgate", "sim", "--board", "nosuchboard"], capture_output=True,
                       text=True, timeout=30, cwd=ROOT)  # fmt: skip
    assert p.returncode == 2 and "unknown board 'nosuchboard'" in p.stderr and "am62xx_sk" in p.stderr


def test_sim_power_without_a_board_says_so(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "perfgate", "sim-power", str(tmp_path / "none.json"), "on"],
                       capture_output=True, text=True, timeout=30, cwd=ROOT)  # fmt: skip
    assert p.returncode == 2 and "none.json" in p.stderr and "is `python -m perfgate sim` running?" in p.stderr
