"""Helpers for the simulated board's tests (no tests here): start `python -m perfgate sim` as a real process,
talk to its pseudo-terminal with pyserial and to its SSH server with paramiko."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import paramiko
import serial

from seed_releases import seed
from testpaths import ROOT


class Sim:
    """A running simulated board."""

    def __init__(self, tmp: Path, board: str = "am62xx_sk", *args: str, env: dict | None = None) -> None:
        self.state_path = tmp / f"sim-{board}.json"
        self.log_path = tmp / f"sim-{board}.log"
        self.log = self.log_path.open("wb")
        argv = [sys.executable, "-m", "perfgate", "sim", "--board", board, "--state", str(self.state_path), *args]
        release = {"PERFGATE_RELEASE": seed(board)} if seed(board) else {}  # written for the seed guides' tables
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     env={**os.environ, **release, **(env or {})}, cwd=ROOT)  # fmt: skip
        deadline = time.monotonic() + 20
        while not self.state_path.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the sim did not start: {self.output()}")
            time.sleep(0.02)
        self.state = json.loads(self.state_path.read_text())
        self.speed = float(self.state["speed"])
        self.port = serial.Serial(self.state["serial"], 115200, timeout=0.05)
        self.buf = b""
        self.ssh_clients: list[paramiko.SSHClient] = []

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    # -- power ---------------------------------------------------------------------------------------------
    def power(self, action: str) -> str:
        p = subprocess.run([sys.executable, "-m", "perfgate", "sim-power", str(self.state_path), action],
                           capture_output=True, text=True, timeout=15, cwd=ROOT)  # fmt: skip
        assert p.returncode == 0, p.stderr
        self.buf = b""
        return p.stdout.strip()

    # -- serial --------------------------------------------------------------------------------------------
    def read_until(self, pattern: str | bytes, timeout: float = 8.0) -> str:
        """Everything up to and including `pattern` (a regex); AssertionError on timeout."""
        rx = re.compile(pattern.encode() if isinstance(pattern, str) else pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf)
            if m:
                out, self.buf = self.buf[: m.end()], self.buf[m.end() :]
                return out.decode("utf-8", "replace")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} within {timeout} s; last: {self.buf[-400:]!r}")
            self.buf += self.port.read(4096)

    def quiet(self, seconds: float) -> bytes:
        """What arrives in `seconds` (expected: nothing)."""
        end = time.monotonic() + seconds
        got = b""
        while time.monotonic() < end:
            got += self.port.read(4096)
        return got

    def send(self, line: str) -> None:
        self.port.write(line.encode() + b"\r")

    def uboot(self) -> None:
        """Power-cycle and stop autoboot at the `=> ` prompt."""
        self.power("cycle")
        self.read_until("Hit any key to stop autoboot")
        self.port.write(b" ")
        self.read_until(r"=> $")

    def uboot_command(self, command: str, timeout: float = 8.0) -> str:
        """What `command` printed (without its echo and the next prompt)."""
        self.send(command)
        out = self.read_until(r"\n=> ", timeout)
        return out[: -len("=> ")].split("\n", 1)[1]

    def login(self) -> None:
        self.read_until(r"login: ", 15)
        self.send("root")
        self.read_until(r"root@[\w-]+:~# ")

    # -- ssh -----------------------------------------------------------------------------------------------
    def ssh(self, timeout: float = 5.0) -> paramiko.SSHClient:
        c = paramiko.SSHClient()
        c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        c.connect("127.0.0.1", int(self.state["ssh_port"]), "root", "", look_for_keys=False, allow_agent=False,
                  timeout=timeout, banner_timeout=timeout, auth_timeout=timeout)  # fmt: skip
        self.ssh_clients.append(c)
        return c

    # -- end -----------------------------------------------------------------------------------------------
    def stop(self) -> int:
        for c in self.ssh_clients:
            with contextlib.suppress(Exception):
                c.close()
        with contextlib.suppress(Exception):
            self.port.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
        return self.proc.returncode


def run(client: paramiko.SSHClient, command: str, timeout: float = 10.0) -> tuple[str, str, int]:
    _, out, err = client.exec_command(command, timeout=timeout)
    o, e = out.read().decode(), err.read().decode()
    return o, e, out.channel.recv_exit_status()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat.split(")")[-1].split()[0] == "Z":  # a zombie has ended
            return False
    return True
