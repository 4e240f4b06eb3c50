"""The board strategy over a real pseudo-terminal: a scripted board (U-Boot, kernel log, login, busybox-like shell
with escape sequences and kernel messages in the middle of the output) on the pty's master side, and the gate's
console on the slave path exactly like a USB-serial adapter. Power is a real shell command (the lab's driver)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from perfgate.board import boottime
from perfgate.board.commands import Commands
from perfgate.board.console import Console, ConsoleFailure, ConsoleTimeout
from perfgate.board.lab import load
from perfgate.board.reset import probe
from perfgate.board.strategy import Board, BringUpError
from perfgate.sim.tools import uboot as sim_uboot_tool
from perfgate.tools import boot as boot_tool
from perfgate.tools import uboot as uboot_tool
from ptyboard import PoweredBoard, write_lab

PROFILE = {
    "name": "am62xx_sk",
    "hostname": "am62xx-evm",
    "network": False,
    "uboot": {"prompt": "=> ", "autoboot": "Hit any key to stop autoboot", "interrupt": " ", "boot_command": "boot"},
    "linux": {
        "kernel_start": "Starting kernel ...",
        "login_prompt": "login:",
        "password_prompt": "Password:",
        "user": "root",
        "prompt": "root@{hostname}:~# ",
        "sh_prompt": "# ",
        "init_sh_setup": ["setenv optargs init=/bin/sh"],
        "panic": "Kernel panic",
    },
    "timeouts": {"autoboot": 3, "uboot_command": 2, "boot": 3, "login": 2, "power": 5},
}


class ScriptedBoard(PoweredBoard):
    """Talks like a TI board on the master side of a pty. `fault`: None, "panic", "uboot-hang", "garbled-autoboot",
    "getty-restart" (the getty restarts right after its first login prompt, losing the name typed there)."""

    def __init__(self, boot_seconds: float = 0.4, fault: str | None = None, password: str = "") -> None:
        super().__init__()
        self.password = password
        self.boot_seconds = boot_seconds
        self.fault = fault
        self.env: dict[str, str] = {}

    def power_on(self) -> None:
        self.env = {}
        self.uboot()

    def uboot(self) -> None:
        self.send("\nU-Boot SPL 2024.04 (scripted test board)\nU-Boot 2024.04\n")
        if self.fault == "garbled-autoboot":  # line noise in the middle of the autoboot line
            self.send(b"Hit any key to st\xa7\xfe\x93op autoboot:  1 ")
        else:
            self.send("Hit any key to stop autoboot:  1 ")
        if not self.key_within(0.3):
            return self.kernel()
        self.send("\b\b\b 0 \n=> ")
        while True:
            line = self.readline()
            if line is None:
                return
            if self.fault == "uboot-hang":
                continue
            if line.startswith("setenv "):
                _, k, v = line.split(" ", 2)
                self.env[k] = v
            elif line.startswith("time ") or line.startswith("fatload") or line.startswith("fatwrite"):
                self.send(
                    sim_uboot_tool.render(line, {"read (KB/s)": 170000.0, "write (KB/s)": 60000.0}, random.Random(1))
                )
            elif line == "boot":
                return self.kernel()
            elif line == "version":
                self.send("U-Boot 2024.04 (scripted test board)\n")
            elif line:
                self.send(f"Unknown command '{line.split()[0]}' - try 'help'\n")
            self.send("=> ")

    def kernel(self) -> None:
        self.send("Starting kernel ...\n\n[    0.000000] Booting Linux on physical CPU 0x0000000000\n")
        if self.fault == "panic":
            self.send("[    0.912345] Kernel panic - not syncing: VFS: Unable to mount root fs\n")
            return
        time.sleep(self.boot_seconds)
        if "init=/bin/sh" in self.env.get("optargs", ""):
            self.send("[    1.100000] Run /bin/sh as init process\n/bin/sh: can't access tty; job control turned off\n")
            self.send("/ # \x1b[6n")
            return self.shell("/ # ")
        self.send("[    1.200000] systemd[1]: Started Getty.\n\nam62xx-evm login: ")
        if self.fault == "getty-restart":  # the name typed at the first prompt is lost: a new getty asks again
            if self.readline() is None:
                return
            self.send("[    1.900000] systemd[1]: serial-getty@ttyS2.service: Scheduled restart job, restart counter "
                      "is at 1.\n[    2.000000] systemd[1]: Started serial-getty@ttyS2.service.\n\n"
                      "am62xx-evm login: ")  # fmt: skip
        while True:
            user = self.readline()
            if user is None:
                return
            if not user.strip():
                self.send("\nam62xx-evm login: ")  # getty asks again for an empty line
                continue
            if not self.password:
                break
            self.send("Password: ")
            typed = self.readline(echo=False)
            if typed is None:
                return
            self.send("\n")  # a board does not echo a password, only the line end
            if typed == self.password:
                break
            self.send("\nLogin incorrect\nam62xx-evm login: ")
        self.send("root@am62xx-evm:~# \x1b[6n")
        self.shell("root@am62xx-evm:~# ")

    def shell(self, prompt: str) -> None:
        status = 0
        while True:
            line = self.readline()
            if line is None:
                return
            for part in [p.strip() for p in line.split(";")]:
                m = re.fullmatch(r'echo PG""(END-\d+-)\$\?', part) or re.fullmatch(r'echo PG""(READY-\d+)', part)
                if m:
                    self.send(f"PG{m.group(1)}{status if m.group(1).startswith('END') else ''}\n")
                    status = 0
                elif part == "ip -4 -o addr show":
                    self.send("1: lo    inet 127.0.0.1/8 scope host lo\n2: eth0    inet 192.168.10.21/24 brd x\n")
                elif part.startswith("echo "):
                    self.send("first half")
                    self.send("\n[   12.345678] random: crng init done\n")  # a kernel message in the middle
                    self.send(" " + part[5:] + "\n")
                elif part in ("reboot", "reboot -f"):
                    self.power.set()  # a soft reboot: the board starts again by itself
                    return
                elif part:
                    self.send(f"-sh: {part.split()[0]}: not found\n")
                    status = 127
            self.send(prompt + "\x1b[6n")


def make_lab(tmp_path: Path, power_file: Path, power: object = None) -> Path:
    lab = {
        "name": "scripted",
        "kind": "hardware",
        "serial": {"port": "/dev/null", "baud": 115200},
        "power": power if power is not None else {"cycle": f"touch {power_file}"},
        "login": {"user": "root", "password_env": "PG_TEST_BOARD_PASSWORD"},
        "ssh": {"address": "discover", "port": 22},
        "tester": {"address": "192.168.10.1"},
    }
    return write_lab(tmp_path, lab)


@pytest.fixture
def rig(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    boards: list[ScriptedBoard] = []
    consoles: list[Console] = []

    def make(fault: str | None = None, power: object = None, password: str = "") -> tuple[Board, ScriptedBoard]:
        sb = ScriptedBoard(fault=fault, password=password)
        boards.append(sb)
        power_file = tmp_path / f"power-{len(boards)}"
        make_lab(tmp_path, power_file, power)

        console = sb.plug_in(power_file, tmp_path / "serial.log")  # the lab's power command touches the file
        consoles.append(console)
        lab = load("scripted", "am62xx_sk")
        return Board("am62xx_sk", PROFILE, lab, console, {}, log=lambda m: None), sb

    yield make
    for c in consoles:
        c.close()
    for b in boards:
        b.close()


def test_uboot_then_shell_over_the_console(rig, tmp_path):
    board, _sb = rig()
    board.transition("uboot")
    assert board.state == "uboot"
    assert "scripted test board" in Commands(board).uboot_command("version")
    out = Commands(board).uboot_command("time mmc read 0x82000000 0x0 0x10000")
    assert uboot_tool.parse(out, "time mmc read 0x82000000 0x0 0x10000")["read (KB/s)"] > 100000
    board.transition("shell")
    assert board.state == "shell"
    assert board.network.learn_address() == "192.168.10.21"  # read from the console, lo skipped
    out, status = Commands(board).run("echo hello", 5)
    assert status == 0
    assert "random: crng" not in out  # the kernel message in the middle of the output is taken out
    assert "first half hello" in out.replace("\n", "")
    assert "\x1b" not in board.console.text()
    assert "Starting kernel" in (tmp_path / "serial.log").read_text()  # the whole transcript is kept


def test_missing_program_is_reported(rig):
    from perfgate.errors import ToolMissing

    board, _ = rig()
    board.transition("shell")
    with pytest.raises(ToolMissing, match="lmbench: not found"):
        Commands(board).run("lmbench", 5)


def test_boot_capture_measures_both_variants(rig):
    board, sb = rig()
    text = boottime.capture(board, "default", 2)
    m = boot_tool.parse(text)
    assert m["cycles"] == 2
    assert 0.35 <= m["boot time (sec)"] <= 1.5  # the scripted board takes 0.4 s from Starting kernel to login
    text = boottime.capture(board, "init_sh", 1)
    m = boot_tool.parse(text)
    assert 0.35 <= m["boot time (sec)"] <= 1.5
    assert sb.cycles == 3


def test_kernel_panic_fails_fast_after_one_retry(rig):
    board, sb = rig(fault="panic")
    started = time.monotonic()
    with pytest.raises(BringUpError, match=r"after a power-cycle and one retry: kernel panic"):
        board.transition("shell")
    assert time.monotonic() - started < 5  # the panic ends the wait at once, no timeout
    assert sb.cycles == 2  # power-cycled and retried once
    with pytest.raises(BringUpError, match="earlier in this run"):
        board.transition("shell")  # remembered: no third boot
    assert sb.cycles == 2
    board.transition("uboot")  # U-Boot still works on this board
    assert board.state == "uboot"


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_uboot_hang_times_out_with_a_clear_message(rig):
    board, sb = rig(fault="uboot-hang")
    board.transition("uboot")
    with pytest.raises(ConsoleTimeout, match="U-Boot did not answer `version` within 2 s"):
        Commands(board).uboot_command("version")  # power-cycled and retried once, then given up
    assert sb.cycles == 2
    started = time.monotonic()
    with pytest.raises(BringUpError, match="U-Boot stopped answering earlier in this run"):
        Commands(board).uboot_command("mmc dev 0")
    assert time.monotonic() - started < 0.5 and sb.cycles == 2


def test_a_garbled_autoboot_line_does_not_fail_a_boot_to_the_shell(rig):
    """Line noise in the autoboot line: the gate that only lets U-Boot autoboot sees the kernel start and goes on,
    at the first power-on, and says why."""
    board, sb = rig(fault="garbled-autoboot")
    said: list[str] = []
    board.log = said.append
    board.transition("shell")
    assert board.state == "shell" and sb.cycles == 1
    assert any("autoboot line did not show, but the kernel started (`Starting kernel ...`)" in s for s in said), said
    assert board.uboot_seen  # U-Boot ran (it loaded the kernel): the U-Boot suites still try to catch it


def test_console_failure_patterns_and_timeouts_on_a_real_pty(tmp_path):
    sb = ScriptedBoard()
    console = Console(sb.path, 115200)
    console.open()
    try:
        sb.send("booting\n[ 1.0] Kernel panic - not syncing: oops\n")
        with pytest.raises(ConsoleFailure, match=r"kernel panic: '.*Kernel panic - not syncing: oops'"):
            console.expect("login:", 2, fail={"kernel panic": "Kernel panic"})
        with pytest.raises(ConsoleTimeout, match=r"no 'login:' on the console .* within 0.3 s; last output"):
            console.expect("login:", 0.3, what="login:")
    finally:
        console.close()
        sb.close()


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_soft_power_without_a_switch_gets_no_retry(rig):
    board, _sb = rig(fault="panic", power="none")
    with pytest.raises(BringUpError, match="no power switch: no retry"):
        board.transition("uboot")  # nothing reboots a board that is off: a clear failure, no hang


def test_manual_power_asks_the_operator_and_waits_for_u_boot(rig):
    from perfgate.board.power import ManualPower

    board, sb = rig(power="manual")
    asked: list[str] = []

    def operator(message: str) -> None:  # the operator reads the console and switches the board on
        asked.append(message)
        sb.power.set()

    assert isinstance(board.power, ManualPower)
    board.power.say = operator
    board.transition("uboot")
    assert board.state == "uboot" and sb.cycles == 1
    assert "please POWER-CYCLE the board now" in asked[0] and "LAB=scripted" in asked[0]


def test_soft_reboot_from_a_login_prompt_logs_in_and_reboots(rig):
    board, sb = rig(power="none")
    sb.power.set()  # the board was switched on by hand and sits at its login prompt
    deadline = time.monotonic() + 5
    while "login:" not in board.console.text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert probe(board.console, board.traits) == "login"
    board.transition("uboot")  # logs in, types `reboot`, catches U-Boot on the way back
    assert board.state == "uboot" and sb.cycles == 2
    board.transition("shell")
    assert probe(board.console, board.traits) == "shell"
    board.reboot()  # one `reboot`, one boot
    assert board.state == "shell" and sb.cycles == 3


def test_login_with_the_password_from_the_labs_environment_variable(rig, monkeypatch):
    monkeypatch.setenv("PG_TEST_BOARD_PASSWORD", "s3cret")
    board, _ = rig(password="s3cret")
    board.transition("shell")
    assert board.state == "shell"
    assert "s3cret" not in board.console.text()  # typed, but a board does not echo passwords


def test_a_wrong_password_is_named_and_not_retried_forever(rig, monkeypatch):
    monkeypatch.setenv("PG_TEST_BOARD_PASSWORD", "wrong")
    board, sb = rig(password="s3cret")
    started = time.monotonic()
    with pytest.raises(BringUpError, match=r"Login incorrect.*PG_TEST_BOARD_PASSWORD"):
        board.transition("shell")
    assert time.monotonic() - started < 10 and sb.cycles == 2


@pytest.mark.parametrize("password", ["", "s3cret"])
def test_a_getty_that_restarts_after_its_first_prompt_gets_the_name_again(rig, monkeypatch, password):
    """systemd restarts serial-getty while the kernel still brings the console up: the name typed at the first
    prompt is lost and a fresh login prompt comes. The gate types the name again at once: one boot, no power-cycle."""
    monkeypatch.setenv("PG_TEST_BOARD_PASSWORD", password)
    board, sb = rig(fault="getty-restart", password=password)
    said: list[str] = []
    board.log = said.append
    started = time.monotonic()
    board.transition("shell")
    assert board.state == "shell" and sb.cycles == 1, said
    assert sb.typed.count("root") == 2
    assert time.monotonic() - started < 4  # no wait for a password prompt that never comes (login timeout 2 s)
    assert any("the getty restarted and lost it): typed it again" in s for s in said), said
