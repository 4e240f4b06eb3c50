"""Every Robot keyword the gate offers is documented and every library carries the package's version (issue 23, 6):
read with Robot's own libdoc, as `python -m robot.libdoc` shows them. Before, 9 of the libraries' keywords (Board,
Farm) had no documentation and no library had a version."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import tomllib

import pytest
from robot.libdocpkg import LibraryDocumentation

import perfgate
import perfgate.robot
from testpaths import ROOT

PENDING: dict[str, str] = {}  # a library not versioned yet, with why (strict xfail: fixing it is noticed)


def libraries() -> list[str]:
    """Every Robot library class in perfgate.robot (a class its module defines with a ROBOT_LIBRARY_SCOPE)."""
    found = []
    for m in pkgutil.iter_modules(perfgate.robot.__path__):
        module = importlib.import_module(f"perfgate.robot.{m.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and hasattr(cls, "ROBOT_LIBRARY_SCOPE"):
                found.append(f"{module.__name__}.{name}")
    return sorted(found)


RESOURCES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "resources").glob("*.resource"))


def test_the_libraries_are_found() -> None:
    libs = libraries()
    assert {"perfgate.robot.board.Board", "perfgate.robot.gate.Gate", "perfgate.robot.farm.Farm"} <= set(libs)
    assert len(RESOURCES) >= 4


@pytest.mark.parametrize("source", [*libraries(), *RESOURCES])
def test_every_keyword_is_documented(source: str) -> None:
    doc = LibraryDocumentation(str(ROOT / source) if source.endswith(".resource") else source)
    missing = [k.name for k in doc.keywords if not (k.doc or "").strip()]
    assert not missing, f"{source}: keywords without documentation: {', '.join(missing)}"
    assert (doc.doc or "").strip(), f"{source} has no documentation of its own"


@pytest.mark.parametrize(
    "library",
    [pytest.param(lib, marks=pytest.mark.xfail(strict=True, reason=PENDING[lib])) if lib in PENDING else lib
     for lib in libraries()],
)  # fmt: skip
def test_every_library_has_the_packages_version(library: str) -> None:
    assert LibraryDocumentation(library).version == perfgate.__version__


def test_the_package_version_is_the_projects() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == perfgate.__version__
