"""TI SBL boot consoles replayed over a real pseudo-terminal, from power-on to the shell (issue 31).

Each console is CONSTRUCTED (tests/fixtures/boot/consoles/<name>.txt, labelled as tests/captures.py says): written here
to reproduce a trait TI's MCU+ SDK sample outputs document (TexasInstruments/mcupsdk-core-k3, cited in each header),
not copied from them: the secondary bootloader handing over with `Starting linux and RTOS/Baremetal applications`
while the kernel's own log is elided, U-Boot's `Hit any key to stop autoboot:  0` followed by a prompt, an image whose
host name is not the board data's. Beside each, <name>.yaml names the board whose data from variables/boards/ the
gate uses and the only board data the console needed changed (`board_data`, `why`). What the board does after the
login prompt (the shell prompt, with the console's own host name, and the answers to the gate's commands) is
scripted here. The gate's side is the real code: perfgate.board.console.Console on the pty's slave path (as a
USB-serial adapter), the real strategy and its drivers, power by a real shell command (the lab's power driver). The
timeouts are shortened for the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from captures import capture
from perfgate import boards
from perfgate.board.commands import Commands
from perfgate.board.lab import load
from perfgate.board.strategy import Board, BringUpError
from ptyboard import PoweredBoard, write_lab
from testpaths import FIXTURES

CONSOLES_DIR = FIXTURES / "boot" / "consoles"
CONSOLES = sorted(CONSOLES_DIR.glob("*.yaml"))
LOGIN = re.compile(r"^(?P<host>\S+) login:", re.M)
KERNEL = "6.6.32-rt32-ti (scripted: the consoles end at the login prompt)"


class ReplayBoard(PoweredBoard):
    """At each power-on: the console, byte for byte (its LF line ends sent as CR LF, as a UART's); then, at the
    login prompt it ends with, a shell that answers the gate."""

    def __init__(self, capture: str) -> None:
        super().__init__()
        self.capture = capture
        self.host = LOGIN.findall(capture)[-1]
        self.users: list[str] = []

    def power_on(self) -> None:
        self.send(self.capture)
        while (user := self.readline()) is not None and not user.strip():
            self.send(f"\n{self.host} login: ")
        if user is None:
            return
        self.users.append(user)
        prompt = f"root@{self.host}:~# "
        self.send(prompt)
        while (line := self.readline()) is not None:
            for part in (p.strip() for p in line.split(";")):
                tag = re.fullmatch(r'echo PG""(END-\d+-)\$\?|echo PG""(READY-\d+)', part)
                if tag:
                    self.send(f"PG{tag[1]}0\n" if tag[1] else f"PG{tag[2]}\n")
                elif part == "uname -r":
                    self.send(KERNEL + "\n")
            self.send(prompt)


@pytest.fixture
def replay(tmp_path, monkeypatch):
    started: list[tuple[ReplayBoard, object]] = []

    def make(record: Path) -> tuple[Board, ReplayBoard, list[str]]:
        spec = yaml.safe_load(record.read_text(encoding="utf-8"))
        profile = boards.merge(boards.profile(spec["board"]), spec["board_data"])
        profile["timeouts"] = {**profile["timeouts"], "autoboot": 6, "uboot_command": 3, "boot": 8, "login": 4,
                               "power": 5, "poke": 1, "silence": 4}  # fmt: skip
        monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
        rb = ReplayBoard(capture(record.with_suffix(".txt")))
        switch = tmp_path / f"power-{len(started)}"
        write_lab(tmp_path, {"name": "replay", "kind": "hardware", "serial": {"port": rb.path}, "ssh": "none",
                             "power": {"cycle": f"touch {switch}"}})  # fmt: skip
        console = rb.plug_in(switch, tmp_path / "serial.log")
        started.append((rb, console))
        messages: list[str] = []
        board = Board(spec["board"], profile, load("replay", spec["board"]), console, log=messages.append)
        return board, rb, messages

    yield make
    for rb, console in started:
        console.close()  # type: ignore[attr-defined]
        rb.close()


def test_the_consoles_are_there() -> None:
    assert len(CONSOLES) >= 3


@pytest.mark.parametrize("record", CONSOLES, ids=[p.stem for p in CONSOLES])
def test_sbl_console_reaches_the_shell_with_only_board_data_changed(replay, record: Path) -> None:
    board, rb, messages = replay(record)
    board.transition("shell")
    assert board.state == "shell"
    assert rb.users == ["root"]  # the user name went to the real getty prompt, once
    assert Commands(board).run("uname -r", 3) == (KERNEL + "\n", 0)
    assert any("Starting linux and RTOS/Baremetal applications" in m for m in messages)  # the marker it needed


@pytest.mark.slow
def test_without_the_board_data_it_needed_the_console_does_not_reach_the_shell(replay, tmp_path) -> None:
    """The change is needed, not decoration: with variables/boards/am62xx_lp_sk.yaml as it is, the LP SK console
    (its kernel log elided: no `Starting kernel ...`, no `Booting Linux`) fails the bring-up: the gate waits for
    U-Boot's autoboot line or a kernel start and says the console went quiet after the login prompt."""
    record = CONSOLES_DIR / "am62x-lp-sk-sbl-hostname-am62xx-evm-constructed.yaml"
    plain = tmp_path / "plain" / record.name
    plain.parent.mkdir()
    spec = yaml.safe_load(record.read_text(encoding="utf-8"))
    spec["board_data"] = {}
    plain.write_text(yaml.safe_dump(spec), encoding="utf-8")
    plain.with_suffix(".txt").write_text(record.with_suffix(".txt").read_text(encoding="utf-8"), encoding="utf-8")
    board, _, _ = replay(plain)
    with pytest.raises(BringUpError, match=r"did not reach the shell.*printed nothing.*am62xx-evm login:"):
        board.transition("shell")
