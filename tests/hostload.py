"""What the other processes of a shared host take of its CPUs while a test's QEMU board works (tests/qemu/
test_ab_qemu.py): a board's two vCPUs run in parallel only on host cores nobody else holds, so a test that needs
that says when the host did not give them (and by how much) rather than report a false failure.

A sampler thread reads /proc every `period` seconds: the host's busy time (/proc/stat), the CPU time of the test's
own processes (those whose environment holds HostLoad.VAR=<token>: the test gives it to what it starts, and every
process started from there inherits it) and of its QEMU processes. The other processes' share is the host's busy
time less the test's own. Linux only (/proc)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

HZ = os.sysconf("SC_CLK_TCK")


def _busy() -> int:
    """The host's busy clock ticks: /proc/stat's user, nice, system, irq, softirq and steal."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[0] + fields[1] + fields[2] + sum(fields[5:8])


def _ours(marker: bytes) -> tuple[dict[int, int], dict[int, int]]:
    """CPU ticks of each of the test's processes, and of those of them that are a QEMU."""
    ours, qemu = {}, {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            if marker not in (d / "environ").read_bytes():
                continue
            stat = (d / "stat").read_text()
            program = (d / "cmdline").read_bytes().split(b"\0", 1)[0]
        except OSError:  # gone, or not ours to read
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        ours[int(d.name)] = ticks = int(fields[11]) + int(fields[12])  # utime + stime
        if b"qemu-system" in program:
            qemu[int(d.name)] = ticks
    return ours, qemu


class HostLoad(threading.Thread):
    """Samples (the interval in seconds, cores the other processes took, cores the test's QEMU took) while it runs."""

    VAR = "PERFGATE_TEST_HOSTLOAD"

    def __init__(self, token: str, period: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.env = {self.VAR: token}  # for the environment of what the test starts
        self.marker, self.period = f"{self.VAR}={token}\0".encode(), period
        self.samples: list[tuple[float, float, float]] = []
        self._done = threading.Event()

    def run(self) -> None:
        t0, busy0, (ours0, qemu0) = time.monotonic(), _busy(), _ours(self.marker)
        while not self._done.wait(self.period):
            t1, busy1, (ours1, qemu1) = time.monotonic(), _busy(), _ours(self.marker)
            dt = (t1 - t0) * HZ
            own = sum(v - ours0.get(p, v) for p, v in ours1.items())  # a process new in the interval: from now on
            board = sum(v - qemu0.get(p, v) for p, v in qemu1.items())
            self.samples.append((t1 - t0, max(busy1 - busy0 - own, 0) / dt, board / dt))
            t0, busy0, ours0, qemu0 = t1, busy1, ours1, qemu1

    def stop(self) -> None:
        self._done.set()
        self.join()

    def others_while_busy(self, board_cores: float = 0.5) -> tuple[float, int]:
        """The mean of the cores the other processes took while the test's QEMU took more than `board_cores` (the
        board's workloads running), and how many samples that was."""
        busy = [others for _, others, board in self.samples if board > board_cores]
        return (sum(busy) / len(busy) if busy else 0.0), len(busy)
