"""A user's own suite on the gate's board, from anywhere (not only inside suites/):

    *** Settings ***
    Library    perfgate.robot.userboard.UserBoard
    Library    SSHLibrary

    *** Test Cases ***
    Kernel Is Ours
        Use The Gate Board                      # the board the gate brought up, or bring it up here
        ${out}    Execute Command    uname -r   # SSHLibrary, on the connection `board`

`Use The Gate Board` takes the board the gate (or an earlier suite) brought up in this robot run, or, when none is
up, finds BOARD's lab (LAB, default the built-in simulated board) and brings the board up to its shell; then it
switches SSHLibrary to the connection `board` (a console-only lab has none: use `Write To Board Console` /
`Read Board Console Until` of perfgate.robot.board.Board). The board stays up until the robot run ends: a gate
suite file's teardown in the same run leaves it up while a suite of the run uses this library
(perfgate.robot.board.Board.close_lab asks `holds_the_board`), and this library closes it when Robot ends.
"""

from __future__ import annotations

from robot.api import logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn

from perfgate import __version__

BOARD_LIBRARY = "perfgate.robot.board.Board"
NAME = "perfgate.robot.userboard"


def _text(value: object) -> str:
    return "" if value is None or str(value).strip().upper() in ("", "NONE") else str(value).strip()


_RUN: list = []  # the running top suite (robot.running.TestSuite), as the board library's listener saw it


def remember(data) -> None:
    """Keep the running top suite of this robot run (called as each suite starts)."""
    while data.parent is not None:
        data = data.parent
    _RUN[:] = [data]


def holds_the_board() -> bool:
    """Whether a suite of this robot run uses this library (the board then stays up until the run ends)."""
    if not _RUN:
        return False

    def uses(suite) -> bool:
        for imp in suite.resource.imports:
            name = str(imp.name).replace("/", ".").removesuffix(".py")
            if imp.type == "LIBRARY" and (name == NAME or name.startswith(NAME + ".") or name.endswith(NAME)):
                return True
        return any(uses(child) for child in suite.suites)

    return uses(_RUN[0])


@library(scope="GLOBAL", version=__version__, listener="SELF", auto_keywords=False)
class UserBoard:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self) -> None:
        self.board = None  # the gate's board library instance, once taken

    @keyword
    def use_the_gate_board(self, board: str = "", lab: str = "") -> None:
        """Take the board the gate brought up in this run, or bring it up here (BOARD and LAB, or the arguments):
        the board at its shell, SSHLibrary switched to the connection `board`. It stays up until the run ends."""
        bi = BuiltIn()
        bi.import_library(BOARD_LIBRARY)  # GLOBAL scope: the gate's own instance when the gate imported it
        b = bi.get_library_instance(BOARD_LIBRARY)
        if b.access is None:
            name = _text(board) or _text(bi.get_variable_value("${BOARD}"))
            if not name:
                raise AssertionError("no board is up and BOARD is not set: run with -v BOARD:<board>, or give "
                                     "`Use The Gate Board    <board>`")  # fmt: skip
            b.open_lab(name, _text(lab) or _text(bi.get_variable_value("${LAB}")))
            b.start_lab()
            b.bring_up_board()
            logger.console(f"perfgate: {b.name} brought up for {bi.get_variable_value('${SUITE NAME}')}")
        elif b.access.state() != "shell":  # a U-Boot suite left it at the U-Boot prompt
            b.bring_up_board()
        if b.access.state() != "shell":
            raise AssertionError(f"the board is not at its shell: {b.access.bring_up_error or b.access.state()}")
        self.board = b
        if b.lab is not None and not b.lab.console_only:
            bi.import_library("SSHLibrary")
            from perfgate.board.ssh import ssh_library

            ssh_library().switch_connection("board")

    def close(self) -> None:
        """Robot ends: the board goes down (its console, SSH, the lab's board process)."""
        if self.board is not None and self.board.access is not None:
            try:
                self.board.close_lab(final=True)
            except Exception as e:  # the run's results are written already
                logger.console(f"perfgate: could not close the board's lab: {e}")
        self.board = None
