"""Errors the gate reports to its user. Each names the file and line it is about, when there is one."""

from __future__ import annotations


class PerfgateError(Exception):
    """An error with a location: `file:line: message` when both are known."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = self.path + (f":{self.line}" if self.line else "") + ": "
        return where + self.message


class ParseError(PerfgateError):
    """Workload output that a parser does not recognise."""


class DataError(PerfgateError):
    """A broken data file under variables/ (board, lab, tolerance, threshold)."""


class UnknownBoard(PerfgateError):
    """A board name that resolves to no known board."""


class ToolMissing(PerfgateError):
    """The board has no such program (the shell answered `not found`, exit status 127)."""


class BoardLost(PerfgateError):
    """The board stopped answering (SSH dropped, console silent, emulator died) while a command ran."""
