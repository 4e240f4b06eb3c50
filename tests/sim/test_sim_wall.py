"""The simulator is walled off from the judge: nothing outside perfgate/sim imports perfgate.sim.

A sim run proves plumbing, never that a parser reads a real tool; so what the gate runs against a real board
(planning, parsing, judging, reporting) must not depend on what the simulator prints. The AST of every module of
the perfgate package outside perfgate/sim is walked for `import perfgate.sim...`, `from perfgate.sim...`,
`from perfgate import sim`, relative imports that reach perfgate/sim, and module names passed to importlib. The one
door is perfgate/cli.py's command table, which names the sim's own command modules (`python -m perfgate sim`,
`sim-pdu`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import perfgate

PACKAGE = Path(perfgate.__file__).parent
SIM = PACKAGE / "sim"
CLI = PACKAGE / "cli.py"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_sim(name: str) -> bool:
    return name == "perfgate.sim" or name.startswith("perfgate.sim.")


def _resolve(path: Path, node: ast.ImportFrom, root: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def sim_imports(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """`file:line: what` for every import of perfgate.sim in one module (`root`: the directory holding perfgate/)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(path, node, root)
            names = [module] + [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and path != CLI:
            names = [node.value] if _is_sim(node.value.strip()) else []
        found += [f"{path.relative_to(root)}:{node.lineno}: {n}" for n in names if _is_sim(n)]
    return found


def judge_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if SIM not in p.parents)


def test_nothing_outside_perfgate_sim_imports_perfgate_sim() -> None:
    modules = judge_modules()
    assert len(modules) > 50, f"the walk found only {len(modules)} modules under {PACKAGE}"
    offenders = [hit for p in modules for hit in sim_imports(p)]
    assert not offenders, "the judge imports the simulator:\n" + "\n".join(offenders)


def test_the_cli_names_the_sim_only_for_its_own_commands() -> None:
    from perfgate.cli import COMMANDS

    into_sim = {name for name, (module, _help) in COMMANDS.items() if _is_sim(module)}
    assert into_sim == {"sim", "sim-pdu"}  # the simulated board and the simulated PDU that switches it


def test_the_wall_check_sees_every_way_of_importing(tmp_path: Path) -> None:
    """The checker itself: each form of import in a module outside perfgate/sim is reported."""
    probe = tmp_path / "perfgate" / "workloads" / "_wall_probe.py"
    probe.parent.mkdir(parents=True)
    forms = ["import perfgate.sim.values", "from perfgate.sim import tools", "from perfgate import sim",
             "from ..sim.tools import openssl", "import importlib\nimportlib.import_module('perfgate.sim.answers')",
             "from perfgate.simulated import x"]  # fmt: skip
    hits = []
    for form in forms:
        probe.write_text(form + "\n", encoding="utf-8")
        hits.append(sim_imports(probe, tmp_path))
    assert all(hits[:5]), dict(zip(forms, hits, strict=True))
    assert hits[5] == []  # a module merely named alike is not the simulator
