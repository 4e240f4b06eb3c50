"""Lab kinds (perfgate.labkinds): one module per kind behind one LabKind and one Access interface.

A new kind is one module: the test writes a `tbot` kind into a folder of its own, adds that folder to the package's
path, and the registry finds it; a lab file of that kind is validated (errors name the file, the key and the line),
checked without hardware (`perfgate lab check`) and started, with no other file of perfgate changed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

import perfgate.labkinds
from perfgate import labcheck
from perfgate.board.lab import load
from perfgate.errors import DataError
from perfgate.labkinds import base
from perfgate.lava import OWNS_BOARD
from project.test_import_graph import PACKAGE, graph

ROOT = Path(__file__).resolve().parents[2]
DESIGN_KINDS = ["sim", "qemu", "hardware", "labgrid", "labgrid-env", "lava"]

TBOT = '''"""`kind: tbot`: a board driven by tbot (the test's own kind: commands run in this host's shell)."""

from __future__ import annotations

import subprocess

from perfgate.labkinds.base import Access, LabKind, register


class TbotAccess(Access):
    def __init__(self, lab, board: str) -> None:
        self.lab, self.name, self.up = lab, board, False

    def run(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        if where != "shell":
            raise self.unsupported(where)
        return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=timeout).stdout

    def bring_up(self) -> None:
        self.up = True

    def state(self) -> str:
        return "shell" if self.up else "off"

    def board_address(self) -> str:
        return "127.0.0.1"

    def tester_address(self) -> str:
        return "127.0.0.1"


@register
class Tbot(LabKind):
    name = "tbot"
    keys = ("tbot",)
    takes = "runs its board through tbot"
    hardware = True
    own_console = False

    def validate(self, lab) -> None:
        tb = lab.data.get("tbot")
        if not isinstance(tb, dict) or not isinstance(tb.get("config"), str):
            raise lab.error(f"must be a mapping {{config: <tbot configuration file>}}, not {tb!r}", "tbot")
        lab.data["serial"] = {**(lab.data.get("serial") or {}), "port": "tbot"}

    def check(self, lab, command_problem, resolves) -> list:
        path = lab.file(lab.data["tbot"]["config"])
        return [] if path.is_file() else [lab.error(f"no such file {str(path)!r}", "tbot", "config")]

    def start(self, opening) -> TbotAccess:
        return TbotAccess(opening.lab, opening.board)
'''


@pytest.fixture
def tbot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The package's path with one more folder holding tbot.py; the registry as it was afterwards."""
    folder = tmp_path / "kinds"
    folder.mkdir()
    (folder / "tbot.py").write_text(TBOT, encoding="utf-8")
    monkeypatch.setattr(perfgate.labkinds, "__path__", [*perfgate.labkinds.__path__, str(folder)])
    monkeypatch.setattr(base, "_loaded", False)
    monkeypatch.setattr(base, "_KINDS", dict(base._KINDS))
    yield folder
    sys.modules.pop("perfgate.labkinds.tbot", None)


def lab_file(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "bench.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_every_kind_of_the_design_is_one_module_found_by_the_registry() -> None:
    kinds = base.kinds()
    assert list(kinds) == DESIGN_KINDS
    for name, cls in kinds.items():
        assert cls.__module__ == f"perfgate.labkinds.{name.replace('-', '_')}", name
        assert issubclass(cls, base.LabKind)


def test_an_unknown_kind_names_the_registered_ones(tmp_path: Path) -> None:
    path = lab_file(tmp_path, {"name": "bench", "kind": "tbot", "serial": {"port": "/dev/null"}})
    with pytest.raises(DataError) as e:
        load(str(path), "am62xx_sk")
    assert str(e.value) == f"{path}:2: kind: must be one of {', '.join(DESIGN_KINDS)}, not 'tbot'"


def test_a_kind_added_by_one_module_is_found_validated_checked_and_started(tbot: Path, tmp_path: Path) -> None:
    assert list(base.kinds()) == [*DESIGN_KINDS, "tbot"]
    config = tmp_path / "tbot.conf"
    good = {"name": "bench", "kind": "tbot", "tbot": {"config": str(config)}, "ssh": {"address": "127.0.0.1"}}
    lab = load(str(lab_file(tmp_path, good)), "am62xx_sk")
    assert lab.kind == "tbot" and not lab.virtual and lab.data["serial"]["port"] == "tbot"
    assert lab.banner() == "LAB=bench: hardware lab (bench.yaml)"
    # checked without hardware: the kind's own check, at its key's line
    problems = [str(p) for p in labcheck.check(str(lab.path), "am62xx_sk", resolve_hosts=False).problems]
    assert problems == [f"{lab.path}:4: tbot.config: no such file {str(config)!r}"]
    config.write_text("board: am62\n", encoding="utf-8")
    assert not labcheck.check(str(lab.path), "am62xx_sk", resolve_hosts=False).problems
    # started: an Access the runner and the keywords call
    opening = base.Opening(lab, "am62xx_sk", {}, {}, tmp_path)
    access = base.kind("tbot").start(opening)
    access.bring_up()
    assert access.state() == "shell" and access.run("echo measured") == "measured\n"
    with pytest.raises(AssertionError, match=r"console: LAB=bench \(tbot\) cannot"):
        access.console_mark()
    with pytest.raises(AssertionError, match=r"U-Boot: LAB=bench \(tbot\) cannot"):
        access.uboot("version")


def test_a_bad_section_of_the_new_kind_names_the_file_the_key_and_the_line(tbot: Path, tmp_path: Path) -> None:
    path = lab_file(tmp_path, {"name": "bench", "kind": "tbot", "description": "x", "tbot": "yes"})
    with pytest.raises(DataError) as e:
        load(str(path), "am62xx_sk")
    assert str(e.value) == f"{path}:4: tbot: must be a mapping {{config: <tbot configuration file>}}, not 'yes'"
    path = lab_file(tmp_path, {"name": "bench", "kind": "sim", "serial": {"port": "/dev/null"}, "tbot": {}})
    with pytest.raises(DataError) as e:
        load(str(path), "am62xx_sk")
    assert str(e.value) == f"{path}:5: tbot: only a `kind: tbot` lab runs its board through tbot"


def test_the_kinds_never_import_what_dispatches_to_them() -> None:
    """A kind's module may import the drivers it starts, never the lab loader or the libraries that call it: the
    registry loads it by a name computed at run time, which the import graph cannot see."""
    g = graph(PACKAGE)
    dispatchers = {
        "perfgate.board.lab",
        "perfgate.labcheck",
        "perfgate.robot.board",
        "perfgate.run.runner",
        "perfgate.run.session",
    }
    for member in (m for m in g if m.startswith("perfgate.labkinds.")):
        seen, todo = set(), [member]
        while todo:
            for nxt in g.get(todo.pop(), {}):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert not seen & dispatchers, f"{member} imports {sorted(seen & dispatchers)}"


def test_a_lava_access_refuses_the_console_and_u_boot_with_the_reason() -> None:
    lab = load(str(ROOT / "variables" / "labs" / "example-lava.yaml"), "am62xx_sk")
    access = base.kind("lava").start(base.Opening(lab, "am62xx_sk", {}, {}, Path(".")))
    for call in (access.console_mark, lambda: access.uboot("version"), lambda: access.run("x", 5, "boot")):
        with pytest.raises(AssertionError, match="LAVA owns the board"):
            call()
    with pytest.raises(AssertionError) as e:
        access.strategy("power-cycle")
    assert str(e.value) == f"power-cycle: {OWNS_BOARD}"
    assert not access.reads_state and access.state() == "unknown"
