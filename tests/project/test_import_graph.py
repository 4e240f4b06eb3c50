"""No import circles in libraries/perfgate: the import graph built from the source (ast) has no cycle.

What counts as an edge `a -> b` (a imports b):
- every `import` and `from ... import` statement anywhere in a, module-level or inside a function (a late import
  that closes a circle is still a circle: it only moves the failure from import time to the first call) and under
  `if TYPE_CHECKING:` (a type-only circle still ties the two modules: neither can be read or moved alone);
- `from pkg import name` is an edge to the submodule `pkg.name` when that is a module, else to `pkg`; relative
  imports are resolved; `importlib.import_module("perfgate.x")` with a literal name counts too.
What does not: `import_module(f"perfgate.workloads.{suite}")`, a name computed at run time: a registry loading the
members of its family (perfgate.tools, perfgate.sim.tools, perfgate.sim.workloads, perfgate.sim.programs), whose
members import at most the registry's own module, never the code that dispatches to them; and a package's own
`__init__` run implicitly before its submodules (an `__init__` that imports its submodules statically is counted
through its own import statements).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import perfgate

PACKAGE = Path(perfgate.__file__).parent


def modules(root: Path) -> dict[str, Path]:
    """Module name -> file for every .py under the package directory `root` (a package is its __init__.py)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _known(name: str, known: dict[str, Path]) -> str | None:
    """The module `name` is, or the nearest enclosing one that exists (`perfgate.x.Class` -> `perfgate.x`)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, known: dict[str, Path]) -> dict[str, int]:
    """The modules of `known` that module `name` imports, each with the line of its first import."""
    top = next(iter(known)).split(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: dict[str, int] = {}

    def add(target: str | None, line: int) -> None:
        if target and target != name:
            found.setdefault(target, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(_known(alias.name, known), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            if base.split(".")[0] != top:
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in known else _known(base, known), node.lineno)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called == "import_module" and isinstance(node.args[0].value, str):
                add(_known(node.args[0].value, known), node.lineno)
    return found


def graph(root: Path) -> dict[str, dict[str, int]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def knots(g: dict[str, dict[str, int]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative): every module of one imports
    every other, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[set[str]] = []
    for start in g:
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in g:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(comp)
    return comps


def cycles(g: dict[str, dict[str, int]]) -> list[list[str]]:
    """One shortest cycle per knot, as the list of modules `a, b, ..., a`."""
    out = []
    for comp in knots(g):
        first = min(comp)
        paths = {first: [first]}  # breadth-first from `first` back to itself inside the component
        queue = [first]
        found: list[str] | None = None
        while queue and found is None:
            v = queue.pop(0)
            for w in sorted(g[v]):
                if w == first:
                    found = paths[v] + [first]
                    break
                if w in comp and w not in paths:
                    paths[w] = paths[v] + [w]
                    queue.append(w)
        assert found
        out.append(found)
    return out


def describe(cycle: list[str], g: dict[str, dict[str, int]], root: Path) -> str:
    known = modules(root)
    steps = [f"{a} imports {b} ({known[a].relative_to(root.parent)}:{g[a][b]})" for a, b in itertools.pairwise(cycle)]
    return " -> ".join(cycle) + "\n    " + "\n    ".join(steps)


def test_no_import_cycles_in_perfgate() -> None:
    g = graph(PACKAGE)
    assert len(g) > 100 and g["perfgate.robot.gate"]  # the whole package was read, imports found
    found = cycles(g)
    knotted = "; ".join(", ".join(sorted(k)) for k in knots(g))
    assert not found, (
        "import circles in libraries/perfgate:\n"
        + "\n".join(describe(c, g, PACKAGE) for c in found)
        + f"\nmodules tied in circles: {knotted}"
    )


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_late_import_that_closes_a_circle_is_found_and_named(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "report/__init__.py": "",
        "report/metrics.py": "from pkg.report import atomic\n\ndef finish():\n    from pkg.report import html\n",
        "report/html.py": "from pkg.report.metrics import counts\n",
        "report/atomic.py": "",
    })  # fmt: skip
    g = graph(root)
    assert cycles(g) == [["pkg.report.html", "pkg.report.metrics", "pkg.report.html"]]
    text = describe(cycles(g)[0], g, root)
    assert "pkg.report.metrics imports pkg.report.html (pkg/report/metrics.py:4)" in text


def test_type_checking_and_relative_imports_count(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "board/__init__.py": "",
        "board/lab.py": "from ..farm import labdata\n",
        "farm/__init__.py": "",
        "farm/labdata.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.board.lab import Lab\n",
    })  # fmt: skip
    assert cycles(graph(root)) == [["pkg.board.lab", "pkg.farm.labdata", "pkg.board.lab"]]


def test_a_package_and_a_literal_import_module_are_edges_a_computed_name_is_not(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "tools/__init__.py": "import importlib\n\ndef parse(t):\n    return importlib.import_module(f'pkg.tools.{t}')",
        "tools/one.py": "from pkg.tools import parse\n",
        "a.py": "import importlib\nimportlib.import_module('pkg.b')\n",
        "b.py": "import pkg.a\n",
    })  # fmt: skip
    g = graph(root)
    assert g["pkg.tools.one"] == {"pkg.tools": 1} and g["pkg.tools"] == {}
    assert cycles(g) == [["pkg.a", "pkg.b", "pkg.a"]]
