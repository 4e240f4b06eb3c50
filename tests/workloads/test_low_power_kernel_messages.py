"""The evidence low power waits for, against a real kernel's suspend messages (tests/fixtures/power/
suspend-s2idle-qemu-arm64-6.1-real.txt: the QEMU board's Debian 6.1 arm64 kernel, s2idle, woken by its RTC alarm),
replayed over a real pty with the real console wait and variables/workloads/power.yaml's patterns; and the
simulated board's suspend and resume lines against the same capture."""

from __future__ import annotations

import os
import re
import tty

import pytest

from perfgate import boards
from perfgate.board.console import Console, ConsoleTimeout, await_lines
from perfgate.sim import kernel
from perfgate.workloads import low_power
from perfgate.workloads.peripherals import settings
from testpaths import FIXTURES

REAL = (FIXTURES / "power" / "suspend-s2idle-qemu-arm64-6.1-real.txt").read_bytes()
S = settings("low_power", boards.profile("am62xx_sk"))
MODE = next(m for m in S["modes"] if m["match"] == "deep sleep")


def texts(raw: bytes) -> list[str]:
    """The capture's lines without their timestamps."""
    return [re.sub(r"^\[\s*\d+\.\d{6}\] ", "", ln) for ln in raw.decode().replace("\r", "").splitlines()]


def shape(line: str) -> str:
    return re.sub(r"\d+(\.\d+)?", "N", line)


@pytest.fixture
def console():
    master, slave = os.openpty()
    tty.setraw(slave)
    c = Console(os.ttyname(slave))
    c.open()
    yield master, c
    c.close()
    os.close(master)


def replay(master: int, c: Console, raw: bytes) -> int:
    since = c.mark()
    os.write(master, raw)
    return since


def evidence(key: str, label: str | None = None) -> dict:
    e = low_power.evidence(S, MODE, key)
    if label:
        e["console"] = [p.replace(r"\(deep\)", rf"\({label}\)") for p in e["console"]]
    return e


def test_a_real_kernels_suspend_is_the_evidence_in_order(console) -> None:
    master, c = console
    since = replay(master, c, REAL)
    e = evidence("entered", "s2idle")  # the QEMU board can only s2idle: a lab for such a board names that state
    with pytest.raises(AssertionError, match="PM: suspend exit"):  # the capture resumed: the quiet check says so
        await_lines(c, e["console"], since, 5, e["abort"], e["quiet"])
    at = await_lines(c, e["console"], since, 5)  # the entry itself, in order
    assert c.text(at).startswith("printk: Suspending console(s) (use no_console_suspend to debug)")
    r = evidence("resumed")
    assert c.text(await_lines(c, r["console"], at, 5)).startswith("PM: suspend exit")


def test_s2idle_is_not_taken_for_deep_sleep(console) -> None:
    """power.yaml's deep sleep waits for `PM: suspend entry (deep)`: a board that only idles never passes for it
    (the capture up to the console's suspend: the board still asleep)."""
    master, c = console
    asleep = REAL[: REAL.index(b"\n", REAL.index(b"Suspending console(s)")) + 1]
    since = replay(master, c, asleep)
    e = evidence("entered")
    with pytest.raises(ConsoleTimeout, match=r"no `PM: suspend entry \\\(deep\\\)` on the console within 1 s"):
        await_lines(c, e["console"], since, 1, e["abort"], e["quiet"])


def test_the_sims_suspend_lines_are_the_real_kernels() -> None:
    real = texts(REAL)
    entry = [t for _, t in kernel.suspend_entry_lines("s2idle")]
    assert [shape(t) for t in entry] == [shape(t) for t in real[: len(entry)]]
    tail = [t for _, t in kernel.suspend_exit_lines(4)][-4:]  # what every resume ends with
    assert [shape(t) for t in tail] == [shape(t) for t in real[-4:]]
