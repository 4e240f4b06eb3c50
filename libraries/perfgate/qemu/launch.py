"""QEMU's command line and process for the arm64 board.

The serial console is a TCP server on 127.0.0.1 that waits for its client before the guest starts
(`server=on,wait=on`), so the whole boot log, from U-Boot's banner on, reaches whoever connects.
SSH is forwarded from a free 127.0.0.1 port to the guest's port 22. QEMU dies with the process that started
it (PR_SET_PDEATHSIG) and runs in its own process group.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from perfgate.errors import PerfgateError
from perfgate.qemu.recipe import Machine

PR_SET_PDEATHSIG = 1


class LaunchError(PerfgateError):
    """QEMU did not start, or stopped before the board was up."""


@dataclass(frozen=True)
class Image:
    """The files of a built image (build/qemu/)."""

    kernel: Path
    initrd: Path
    dtb: Path | None = None


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def argv(
    m: Machine,
    image: Image,
    *,
    serial_port: int | None,
    ssh_port: int | None,
    serial_log: Path | None = None,
    dumpdtb: Path | None = None,
    disk: Path | None = None,
) -> list[str]:
    """The QEMU command line. With `dumpdtb`, QEMU writes the machine's device tree and exits."""
    machine = m.machine + (f",dumpdtb={dumpdtb}" if dumpdtb else "")
    cmd = [
        m.binary, "-M", machine, "-cpu", m.cpu, "-smp", str(m.smp), "-m", str(m.memory),
        "-accel", m.accel, "-bios", m.firmware,
        "-kernel", str(image.kernel), "-initrd", str(image.initrd), "-append", m.append,
        "-display", "none", "-monitor", "none", "-no-reboot", "-nodefaults",
    ]  # fmt: skip
    if image.dtb and not dumpdtb:
        cmd += ["-dtb", str(image.dtb)]
    if serial_port is not None:
        chardev = f"socket,id=ser0,host=127.0.0.1,port={serial_port},server=on,wait=on"
        if serial_log:
            chardev += f",logfile={serial_log},logappend=on"
        cmd += ["-chardev", chardev, "-serial", "chardev:ser0"]
    else:
        cmd += ["-serial", "null"]
    netdev = "user,id=n0" + (f",hostfwd=tcp:127.0.0.1:{ssh_port}-:22" if ssh_port else "")
    cmd += ["-netdev", netdev]
    for d in m.devices:
        cmd += ["-device", d]
    if disk and not dumpdtb:
        cmd += ["-drive", f"file={disk},if=none,id=disk0,format=raw", "-device", "virtio-blk-pci,drive=disk0"]
    return cmd


def _die_with_parent() -> None:  # runs in the child between fork and exec
    os.setpgid(0, 0)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def spawn(cmd: list[str], log: Path) -> subprocess.Popen:
    """Start QEMU in its own process group, killed when this process (thread) dies; its stderr goes to `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as err:
        try:
            return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err, preexec_fn=_die_with_parent)
        except FileNotFoundError:
            raise LaunchError(f"{cmd[0]} not found (install qemu-system-arm)") from None


def connect(port: int, proc: subprocess.Popen, timeout: float, log: Path) -> socket.socket:
    """Connect to QEMU's serial server as soon as it listens; fails if QEMU exits first."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise LaunchError(f"QEMU exited with {proc.returncode} before its serial port opened", log)
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=1)
        except OSError:
            if time.monotonic() > deadline:
                raise LaunchError(f"QEMU's serial port 127.0.0.1:{port} did not open in {timeout:g} s", log) from None
            time.sleep(0.05)


def stop(proc: subprocess.Popen, grace: float = 3.0) -> int | None:
    """Terminate QEMU (its whole process group), kill it after `grace` seconds; returns its exit status."""
    if proc.poll() is not None:
        return proc.returncode
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            return proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    return proc.poll()
