"""U-Boot that starts afresh in the middle of a medium, over a real pseudo-terminal: the real U-Boot workload
(perfgate.workloads.uboot_ospi) and the real board strategy and U-Boot driver, against a scripted board that talks
like U-Boot 2024.04 on a TI J721E (`sf probe` before any `sf read`/`sf update`, `No SPI flash selected. Please run
`sf probe'` otherwise, as cmd/sf.c prints; Ctrl-C at the prompt answers `<INTERRUPT>` and a new prompt, as
common/cli_readline.c does). Power is a real shell command of the lab (it touches a file the board watches).

Each scripted trouble is one that a real board shows: a watchdog reset in the middle of a transfer (the banner and
the autoboot line come back, and whatever `sf probe` did is gone), line noise that garbles the prompt after a
command, and a board that stops answering after a command until its power is cycled. After each, the medium's setup
runs again before the next transfer, and the log says so; a transfer that still cannot run fails with the reason."""

from __future__ import annotations

import copy
import random

import pytest

from perfgate import boards, criteria
from perfgate.board.console import Console
from perfgate.board.lab import load
from perfgate.board.strategy import Board
from perfgate.model import Criterion
from perfgate.sim.tools import uboot as sim_uboot_tool
from perfgate.workloads import uboot_ospi
from perfgate.workloads.base import Measurements
from ptyboard import PoweredBoard, PtyContext, write_lab

RATES = {"read (KB/s)": 190000.0, "write (KB/s)": 1600.0}
BANNER = (
    "\nU-Boot SPL 2024.04 (scripted J721E)\nTrying to boot from MMC2\n\nU-Boot 2024.04 (scripted J721E)\n\n"
    "SoC:   J721E SR1.0 HS-FS\nHit any key to stop autoboot:  2 "
)


class SpiFlashUBoot(PoweredBoard):
    """U-Boot with an SPI flash on the master side of a pty. `trouble` maps the n-th command typed at the prompt
    (1-based, `sf probe` included) to what goes wrong there:
    - `reset`: the board resets in the middle of the command (a watchdog): banner, autoboot line, a new prompt
      when a key is typed, the flash no longer probed;
    - `garble`: the command runs, but line noise garbles the prompt after it (`=\\xa7\\xfe> `);
    - `garble-twice`: so does it, and the answer to the first Ctrl-C after it too;
    - `hang`: the command runs, the prompt after it is garbled, and the board answers nothing until a power-cycle.
    - `dead-probe`: from then on, `sf probe` finds no flash (`Failed to initialize SPI flash at 0:0 (error -19)`)."""

    def __init__(self, trouble: dict[int, str]) -> None:
        super().__init__()  # its `typed`: every command line the gate typed at a prompt
        self.trouble = dict(trouble)
        self.probed = False
        self.dead_probe = False
        self.garble_ctrl_c = 0  # how many answers to Ctrl-C come garbled
        self.rng = random.Random(1)

    def _event(self) -> str | None:
        """The next line typed, or `^C`; None when the power goes or the test ends."""
        while True:
            if self.stop.is_set() or self.power.is_set():
                return None
            if b"\x03" in self.inbuf:
                self.inbuf = self.inbuf.replace(b"\x03", b"", 1)
                return "^C"
            line = self.take_line()
            if line is not None:
                self.send(line + "\n")  # echo
                return line
            self.fill(0.02)

    def _catch(self) -> bool:
        """Banner and autoboot line; True when a key stops the countdown (the board waits for it)."""
        self.probed = False
        self.inbuf = b""
        self.send(BANNER)
        while not self.inbuf:
            if self.stop.is_set() or self.power.is_set():
                return False
            self.fill(0.02)
        self.inbuf = b""
        self.send("\b\b\b 0 \n=> ")
        return True

    def power_on(self) -> None:
        if not self._catch():
            return
        while True:
            line = self._event()
            if line is None:
                return
            if line == "^C":
                if self.garble_ctrl_c:
                    self.garble_ctrl_c -= 1
                    self.send(b"<INT\xa7ERRUPT>\r\n=\xa7\xfe> ")
                else:
                    self.send("<INTERRUPT>\n=> ")
                continue
            trouble = self.trouble.pop(len(self.typed), "")
            if trouble == "dead-probe":
                self.dead_probe, trouble = True, ""
            if trouble == "reset":
                self.send("device 0 offset 0x0, size 0x400000\n")  # the transfer starts, then the watchdog bites
                if not self._catch():
                    return
                continue
            self.send(self.answer(line))
            if trouble == "garble-twice":
                trouble, self.garble_ctrl_c = "garble", 1
            if trouble in ("garble", "hang"):
                self.send(b"=\xa7\xfe> ")
                if trouble == "hang":
                    while not (self.stop.is_set() or self.power.is_set()):
                        self.fill(0.05)
                    return
            else:
                self.send("=> ")

    def answer(self, line: str) -> str:
        words = line.split()
        if words == ["sf", "probe"]:
            if self.dead_probe:
                self.probed = False
                return "Failed to initialize SPI flash at 0:0 (error -19)\n"
            self.probed = True
            return "SF: Detected mt35xu512aba with page size 256 Bytes, erase size 128 KiB, total 64 MiB\n"
        if words[:2] == ["time", "sf"]:
            if not self.probed:
                return "No SPI flash selected. Please run `sf probe'\n\ntime: 0.000 seconds\n"
            return sim_uboot_tool.render(line, RATES, self.rng)
        return f"Unknown command '{words[0] if words else ''}' - try 'help'\n" if words else ""


@pytest.fixture
def rig(tmp_path, monkeypatch):
    """make(trouble) -> (board strategy, scripted board, log lines, context, criteria)."""
    profile = copy.deepcopy(boards.profile("j721e_idk_gw"))  # the real board data, read before the lab's root moves
    profile["timeouts"] = {**profile.get("timeouts", {}), "autoboot": 3, "uboot_command": 2, "power": 5}
    crits = criteria.load("j721e_idk_gw", "uboot_ospi", release="09.01.00")
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))  # the scripted lab lives in tmp_path/variables/labs
    made: list[tuple[SpiFlashUBoot, Console]] = []

    def make(trouble: dict[int, str]):
        sb = SpiFlashUBoot(trouble)
        power_file = tmp_path / f"power-{len(made)}"
        lab = {"name": "scripted", "kind": "hardware", "serial": {"port": sb.path, "baud": 115200},
               "power": {"cycle": f"touch {power_file}"}, "ssh": "none",
               "storage": {"uboot_ospi": {"offset": "0x0"}}}  # fmt: skip
        write_lab(tmp_path, lab)
        console = sb.plug_in(power_file, tmp_path / "serial.log")  # the lab's power command touches the file
        made.append((sb, console))
        said: list[str] = []
        board = Board("j721e_idk_gw", profile, load("scripted", "j721e_idk_gw"), console, {}, log=said.append)
        assert uboot_ospi.WORKLOAD.applicable(crits, profile, lab) is None
        # what the gate's context does with a U-Boot run: the board's uboot_command, with the run's setup
        ctx = PtyContext("j721e_idk_gw", profile, lab, console, uboot=board, tester=None)
        return board, sb, said, ctx, crits

    yield make
    for sb, console in made:
        console.close()
        sb.close()


def measure(ctx: PtyContext, crits: list[Criterion]) -> Measurements:
    return uboot_ospi.WORKLOAD.measure(crits, ctx)


def typed_probes(sb: SpiFlashUBoot) -> list[int]:
    """The commands (1-based) that ran `sf probe`, read as U-Boot reads a line: its words. The first line after a
    power-on may start with a blank: while a board that is slow to print its prompt (a loaded host) has not
    answered the key that stops its countdown, the gate types the key again every 0.5 s, and U-Boot takes only
    the first, so the next one starts the command line (` sf probe`), which U-Boot runs as `sf probe`."""
    return [i + 1 for i, line in enumerate(sb.typed) if line.split() == ["sf", "probe"]]


def test_every_transfer_measured_on_a_quiet_board(rig):
    _board, sb, said, ctx, crits = rig({})
    m = measure(ctx, crits)
    assert len(crits) == 8 and set(m.values) == {c.id for c in crits}, m.missing
    assert typed_probes(sb) == [1] and sb.cycles == 1
    assert not any("again" in s for s in said), said


def test_a_reset_in_the_middle_of_a_read_runs_the_setup_again(rig):
    """The 2nd transfer (the first read, command 3) is cut by a watchdog reset: U-Boot starts afresh, the gate
    catches it at its prompt, probes the flash again, and reads again; every number is measured."""
    board, sb, said, ctx, crits = rig({3: "reset"})
    m = measure(ctx, crits)
    assert set(m.values) == {c.id for c in crits}, m.missing
    assert typed_probes(sb) == [1, 4], sb.typed  # probed again right after the reset, before the read again
    assert sb.typed[4] == sb.typed[2] and "sf read" in sb.typed[2]
    assert sb.cycles == 1  # caught at its own autoboot line: no power-cycle needed
    assert any("U-Boot started again during `time sf read" in s for s in said), said
    assert any("running `sf probe` again before `time sf read" in s for s in said), said
    assert board.uboot_session == 2
    assert "No SPI flash selected" not in board.console.text()


def test_a_garbled_prompt_is_resynced_with_ctrl_c_and_the_flash_stays_probed(rig):
    _board, sb, said, ctx, crits = rig({2: "garble"})
    m = measure(ctx, crits)
    assert set(m.values) == {c.id for c in crits}, m.missing
    assert typed_probes(sb) == [1] and sb.cycles == 1  # the same U-Boot: its probe still holds
    assert sb.typed[1] == sb.typed[2] and "sf update" in sb.typed[1]  # the write ran again
    assert any("U-Boot answered Ctrl-C at its prompt" in s for s in said), said


def test_a_garbled_answer_to_ctrl_c_gets_another_ctrl_c(rig):
    _board, sb, said, ctx, crits = rig({7: "garble-twice"})
    m = measure(ctx, crits)
    assert set(m.values) == {c.id for c in crits}, m.missing
    assert typed_probes(sb) == [1] and sb.cycles == 1 and sb.typed[6] == sb.typed[7]
    assert any("U-Boot answered Ctrl-C at its prompt" in s for s in said), said


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_a_board_that_stops_answering_is_power_cycled_and_probed_again(rig):
    """The hypothesis of the flaky line-noise run: the prompt after a transfer is lost and U-Boot answers nothing
    more; after the power-cycle, the medium's setup must run again before that transfer runs again."""
    board, sb, said, ctx, crits = rig({5: "hang"})
    m = measure(ctx, crits)
    assert set(m.values) == {c.id for c in crits}, m.missing
    assert sb.cycles == 2
    assert typed_probes(sb) == [1, 6], sb.typed
    assert sb.typed[6] == sb.typed[4]  # the same transfer again, after the probe
    assert any("power-cycling and retrying" in s for s in said), said
    assert any("running `sf probe` again before" in s for s in said), said
    assert "No SPI flash selected" not in board.console.text()


def test_a_transfer_that_still_cannot_run_fails_by_name_with_the_reason(rig):
    """After a reset, `sf probe` finds no flash any more: the transfers after it fail, each with U-Boot's own
    words; what was measured before stays."""
    _board, sb, _said, ctx, crits = rig({3: "reset", 4: "dead-probe"})
    m = measure(ctx, crits)
    by_row = {c.id: c for c in crits}
    assert len(m.values) == 1 and "400000" in by_row[next(iter(m.values))].row  # the first write
    failed = {**m.missing, **{cid: "; ".join(r) for cid, r in m.invalid.items()}}  # a run that failed: INVALID
    assert len(failed) == 7
    for cid, why in failed.items():
        assert "U-Boot reported an error" in why and "No SPI flash selected" in why, (cid, why)
    assert typed_probes(sb)[:2] == [1, 4]
