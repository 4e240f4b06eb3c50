"""A suite's workload settings: variables/workloads/<file>.yaml (TI's commands as the guides give them), then the
board profile's `workloads.<suite>`, then the lab's `workloads.<suite>`, then the lab's
`boards.<board>.workloads.<suite>` on top."""

from __future__ import annotations

from perfgate import paths
from perfgate.datafile import load_mapping, merge
from perfgate.errors import DataError


def settings(file: str, suite: str, profile: dict | None = None, lab: dict | None = None) -> dict:
    """The merged settings of `suite` from variables/workloads/<file>.yaml (its `common:` block first, if any)."""
    path = paths.variables() / "workloads" / f"{file}.yaml"
    data = load_mapping(path, "a mapping of suite names to their settings")
    if not isinstance(data.get(suite), dict):
        raise DataError(f"no `{suite}:` settings", path)
    out = merge(data.get("common") or {}, data[suite])
    board = (profile or {}).get("name", "")
    lab_board = (((lab or {}).get("boards") or {}).get(board)) or {}
    for layer in (profile, lab, lab_board):
        out = merge(out, ((layer or {}).get("workloads") or {}).get(suite) or {})
    return out  # type: ignore[return-value]


def needs(suite: str) -> list[str]:
    """The peripherals a suite's workload declares it needs (`requires:` in variables/workloads/*.yaml: a list,
    or `{board: [...], lab: [...]}`), for tags such as `needs:display`. Empty when no file declares any."""
    found: list[str] = []
    for path in sorted((paths.variables() / "workloads").glob("*.yaml")):
        try:
            block = load_mapping(path, "a mapping of suite names to their settings").get(suite)
        except DataError:  # a broken file is named (file, line) when its own suite measures; it must not stop
            continue  # the other suites from being read, run and judged
        requires = block.get("requires") if isinstance(block, dict) else None
        parts = requires.values() if isinstance(requires, dict) else [requires or []]
        for part in parts:
            found += [str(x) for x in (part if isinstance(part, list) else [part]) if x]
    return sorted(dict.fromkeys(found))
