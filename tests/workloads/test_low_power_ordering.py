"""Low power reads the meter only once the board is in the mode (issue 13): the real LowPower workload drives a
board over a real pseudo-terminal through the real console, shell driver and console wait (perfgate.board), with
the settings of variables/workloads/power.yaml (a short mode and settle from the lab, as a lab may set them).

The board side is CONSTRUCTED: it reproduces what a Linux 6.x kernel prints when `rtcwake -m mem` suspends it
(kernel/power/suspend.c `PM: suspend entry (deep)` ... `PM: suspend exit`, the freezer's lines, printk's
`Suspending console(s)` as the last line before sleep), and the delay that hides the bug: the suspend command
backgrounds the suspend after `sleep {settle}`, and the kernel's filesystem sync before it can take seconds
(`Filesystems sync: 2.500 seconds`: dirty pages going to an SD card). The board records, for each meter reading,
whether it was asleep, so the tests see the order from the board's side."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from perfgate import boards
from perfgate.board.console import Console
from perfgate.workloads import low_power
from perfgate.workloads.peripherals import settings
from peripheral_board import board_criteria
from ptyboard import PtyBoard, PtyContext

SYNC_S = 2.5  # the kernel's filesystem sync before the freezer: the board sleeps settle + 2.5 s after the command
ASLEEP_S = 2  # the RTC alarm (rtcwake -s)
RAILS = {"vdd_core": 9.2, "soc_dvdd_3v3": 7.7, "soc_dvdd_1v8": 0.6, "vdda_1v8": 1.9, "vdd_ddr4": 8.0}
ENTER = re.compile(r"\((?:dmesg -n 7; )?sleep (\S+); rtcwake -s (\S+) -m mem\) > /dev/null 2>&1 &")
MARKER = re.compile(r'(.*?)(?:;\s*|\s+)echo PG""END-(\d+)-\$\?')


def stamp(t: float) -> str:
    return f"[{int(t):5d}.{round((t % 1) * 1e6) % 1000000:06d}]"


class SuspendingBoard(PtyBoard):
    """The board end of a pty: a shell that answers the gate's marker protocol, and a kernel that suspends when the
    background job gets to it. `behaviour`: `suspends`, `fails` (a device refuses: the kernel comes straight back)
    or `silent` (the suspend never starts, e.g. a wrong sysfs path)."""

    def __init__(self, behaviour: str = "suspends") -> None:
        super().__init__()
        self.behaviour = behaviour
        self.asleep: tuple[float, float] | None = None  # (fell asleep, woke) in host time.time()
        self.reads: list[tuple[float, bool]] = []  # (when, asleep then) for each INA read on the board
        self.t0 = time.monotonic()
        self.start()

    def kernel(self, text: str) -> None:
        self.send(f"{stamp(time.monotonic() - self.t0 + 100)} {text}\n")

    def is_asleep(self) -> bool:
        a = self.asleep
        return a is not None and a[0] <= time.time() and (a[1] == 0 or time.time() < a[1])

    def _suspend(self, settle: float, alarm: float) -> None:
        time.sleep(settle)
        if self.behaviour == "silent":
            return
        self.kernel("PM: suspend entry (deep)")
        time.sleep(SYNC_S)
        self.kernel(f"Filesystems sync: {SYNC_S:.3f} seconds")
        self.kernel("Freezing user space processes")
        self.kernel("Freezing user space processes completed (elapsed 0.003 seconds)")
        self.kernel("OOM killer disabled.")
        self.kernel("Freezing remaining freezable tasks")
        self.kernel("Freezing remaining freezable tasks completed (elapsed 0.002 seconds)")
        self.kernel("printk: Suspending console(s) (use no_console_suspend to debug)")
        if self.behaviour == "fails":
            self.kernel("PM: Some devices failed to suspend, or early wake event detected")
            self.kernel("OOM killer enabled.")
            self.kernel("Restarting tasks ... done.")
            self.kernel("PM: suspend exit")
            return
        time.sleep(0.05)  # devices suspend; the SoC enters deep sleep
        self.asleep = (time.time(), 0.0)
        time.sleep(alarm)
        self.asleep = (self.asleep[0], time.time())
        for line in ("Disabling non-boot CPUs ...", "Enabling non-boot CPUs ...", "OOM killer enabled.",
                     "Restarting tasks ... done.", "PM: suspend exit"):  # fmt: skip
            self.kernel(line)

    def _command(self, command: str) -> str:
        m = ENTER.fullmatch(command)
        if m:
            args = (float(m.group(1)), float(m.group(2)))
            threading.Thread(target=self._suspend, args=args, daemon=True).start()
            return ""
        if command.startswith("echo '# "):  # the INA read-out (the lab's `power_meter: board`)
            self.reads.append((time.time(), self.is_asleep()))
            return command[6:].split("'")[0] + "\n" + "".join(f"{r} {v * 1000:.0f} uW\n" for r, v in RAILS.items())
        if command == "uptime":
            return " 00:02:13 up 2 min,  load average: 0.08, 0.03, 0.01\n"
        return f"sh: {command.split()[0]}: not found\n"

    def line(self, text: str) -> None:
        m = MARKER.fullmatch(text)
        if m:
            out = self._command(m.group(1).strip())
            self.send(f"{out}PGEND-{m.group(2)}-{127 if 'not found' in out else 0}\n")
        self.send("root@am62xx-evm:~# ")


def lab(meter: str, timeout: float = 20) -> dict:
    """A lab whose settings shorten the mode (as a lab may): power.yaml's deep sleep with settle 1 s and asleep
    ASLEEP_S, its evidence with a shorter quiet and the given entry timeout."""
    data = settings("low_power", boards.profile("am62xx_sk"))
    mode = {**next(m for m in data["modes"] if m["match"] == "deep sleep"), "seconds": ASLEEP_S}
    power = {"settle": 1, "modes": [mode], "entered": {"quiet": 0.5, "timeout": timeout}, "resumed": {"timeout": 10}}
    return {"name": "pty", "power_meter": meter, "workloads": {"low_power": power}}


@pytest.fixture
def deep_sleep() -> list:
    crits = [c for c in board_criteria("am62xx_sk", "low_power") if "deep sleep" in c.table.casefold()]
    assert len(crits) >= 5
    return crits


def measure(board: SuspendingBoard, meter: str, crits: list, timeout: float = 20) -> tuple:
    console = Console(board.path)
    console.open()
    ctx = PtyContext("am62xx_sk", boards.profile("am62xx_sk"), lab(meter, timeout), console)
    try:
        return low_power.WORKLOAD.measure(crits, ctx), ctx
    finally:
        console.close()
        board.close()


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_board_meter_is_read_while_the_board_sleeps(deep_sleep: list) -> None:
    board = SuspendingBoard()
    m, ctx = measure(board, "board", deep_sleep)
    assert len(board.reads) == 1 and board.reads[0][1], f"the meter was read while the board was awake: {ctx.log}"
    assert not m.missing and len(m.values) == len(deep_sleep)
    vdd_core = next(c for c in deep_sleep if c.row == "vdd_core")
    assert m.values[vdd_core.id] == pytest.approx(RAILS["vdd_core"])


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_host_meter_is_read_while_the_board_sleeps(deep_sleep: list, tmp_path: Path) -> None:
    board = SuspendingBoard()
    read_at = tmp_path / "read-at"
    rails = "".join(f"{r} {v} mW\\n" for r, v in RAILS.items())
    meter = f"date +%s.%N > {read_at}; printf '{rails}'"
    m, _ = measure(board, meter, deep_sleep)
    assert read_at.exists(), "the host meter never ran"
    at = float(read_at.read_text())
    assert board.asleep is not None and board.asleep[0] < at, "the meter was read before the board fell asleep"
    fell, woke = board.asleep
    assert at < woke, f"the meter read {at - fell:+.2f} s after the board fell asleep: after it woke"
    assert not m.missing and len(m.values) == len(deep_sleep)


@pytest.mark.parametrize(("behaviour", "timeout", "why"), [
    ("fails", 10, "PM: Some devices failed to suspend, or early wake event detected"),
    ("silent", 1.5, r"no `PM: suspend entry \(deep\)` on the console within 1.5 s"),
])  # fmt: skip
def test_no_evidence_means_not_measured_and_no_reading(deep_sleep: list, behaviour: str, timeout: float,
                                                       why: str) -> None:  # fmt: skip
    board = SuspendingBoard(behaviour)
    m, ctx = measure(board, "board", deep_sleep, timeout=timeout)
    assert board.reads == [], "the meter was read without evidence that the board slept"
    assert not m.values and set(m.missing) == {c.id for c in deep_sleep}
    reason = next(iter(m.missing.values()))
    assert "never showed it entered 'deep sleep'" in reason and "low_power.entered" in reason
    assert why in reason, reason
    assert ("shell", "uptime") in ctx.log  # the gate still checks the board answers before going on
