"""The run's session owns the board's access (issue 30): `Session.start_lab` starts the lab through its kind and holds
the Access, `close_lab` gives it back; the runner is handed the session's access, and Robot's libraries (the board
library, the gate) find the session in one place, perfgate.robot.runsession, never through a global of the kinds.

The lab is of a kind the test registers (`shell-here`): its access runs commands in this host's shell, so every call
below really runs, and it says whether it was closed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from perfgate.board.lab import load
from perfgate.labkinds import base
from perfgate.robot import runsession
from perfgate.robot.board import Board
from perfgate.robot.gate import Gate
from perfgate.run.runner import Runner
from perfgate.run.session import Session
from project.test_import_graph import PACKAGE, graph


class HereAccess(base.Access):
    def __init__(self, opening: base.Opening) -> None:
        self.lab, self.name, self.opening, self.closed = opening.lab, opening.board, opening, False

    def run(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=timeout, check=False)
        return done.stdout

    def close(self) -> None:
        self.closed = True


class Here(base.LabKind):
    name = "shell-here"
    hardware = True
    exclusive = False

    def start(self, opening: base.Opening) -> HereAccess:
        return HereAccess(opening)


@pytest.fixture
def here_lab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A lab of the kind `shell-here`, registered for this test only."""
    base.kinds()  # the package's own kinds first
    monkeypatch.setattr(base, "_KINDS", dict(base._KINDS))
    base.register(Here)
    path = tmp_path / "here.yaml"
    lab = {"name": "here", "kind": "shell-here", "serial": {"port": "/dev/null"}, "power": "manual"}
    path.write_text(yaml.safe_dump(lab), encoding="utf-8")
    return load(str(path), "am62xx_sk")


def run_vars(run_dir: Path):
    values = {"RUN_DIR": str(run_dir), "SIM_SPEED": "20"}
    return lambda name, default=None: values.get(name, default)


def test_the_session_starts_the_lab_holds_its_access_and_closes_it(here_lab, tmp_path: Path) -> None:
    said: list[str] = []
    session = Session(var=run_vars(tmp_path / "run"))
    assert session.opened() is None
    access = session.start_lab(here_lab, "am62xx_sk", {}, say=said.append, log=said.append)
    assert session.opened() is access and session.transcript == tmp_path / "run" / "serial.log"
    runner = Runner(session, session.opened, str)  # what the gate hands its runner
    assert access.opening.context["sim_speed"] == "20" and access.opening.context["faults"] == ""  # the run's vars
    assert access.opening.recorder() is None  # no run open yet; once it is, the kind finds its recorder here
    session.recorder = recorder = object()
    assert access.opening.recorder() is recorder
    assert runner.board() is access and runner.board().run("echo measured") == "measured\n"
    session.close_lab()
    assert session.opened() is None and access.closed
    with pytest.raises(AssertionError, match="no lab has started one"):
        runner.board()
    session.close_lab()  # nothing to close twice


def test_the_board_library_and_the_gate_share_the_one_session(here_lab, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(runsession, "_SESSION", [])
    board, gate = Board(), Gate()
    assert gate.session is runsession.session()
    assert board.access is None
    access = runsession.session().start_lab(here_lab, "am62xx_sk", {}, say=print, log=print)
    assert board.access is access and gate.runner.board() is access  # the keywords and the runner: one board
    runsession.session().close_lab()
    assert board.access is None


def test_only_the_robot_libraries_look_the_session_up_and_the_run_never_imports_robot() -> None:
    g = graph(PACKAGE)
    askers = {m for m, deps in g.items() if "perfgate.robot.runsession" in deps}
    assert askers == {"perfgate.robot.board", "perfgate.robot.gate"}
    run = {m: sorted(d for d in deps if d.startswith("perfgate.robot")) for m, deps in g.items()
           if m.startswith("perfgate.run.")}  # fmt: skip
    assert all(not deps for deps in run.values()), run
    assert not hasattr(base, "opened") and not hasattr(base, "hold")  # no board kept by the kinds' registry
