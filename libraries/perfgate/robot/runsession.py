"""The run's session: where Robot's library instances find it.

Robot instantiates the libraries itself (GLOBAL scope: once per robot process, with no say in their arguments), so
the board library (perfgate.robot.board) and the gate (perfgate.robot.gate) cannot be handed the session: both ask
`session()` here, and this is the one place that lookup happens. The session (perfgate.run.session.Session) opens the
run, starts the lab through its kind and holds the access to the board until it closes it; the gate hands the session
to its runner, which reaches the board only through it. A board-only robot run (a user suite without the gate) gets
the same session, with no run opened.
"""

from __future__ import annotations

from perfgate.robot.robotvars import var
from perfgate.run.session import Session

_SESSION: list[Session] = []  # the one session of this robot process, made when a library first asks


def session() -> Session:
    """This robot process's session, the same for every library that asks (made, with Robot's variables, once)."""
    if not _SESSION:
        _SESSION.append(Session(var=var))
    return _SESSION[0]
