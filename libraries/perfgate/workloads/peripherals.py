"""What the peripheral suites (rt_latency, alsa, glmark2, gfxbench, glbenchmark, decode, display, capture, low_power)
share: their settings (variables/workloads/<file>.yaml under the board profile's workloads.<suite>), the
board/lab requirements that decide whether a suite or a row can run, and the normalisation of the guides' text.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

from perfgate import paths
from perfgate.errors import DataError
from perfgate.model import Criterion

FILES = {
    "rt_latency": "rt", "alsa": "audio", "glmark2": "graphics", "gfxbench": "graphics", "glbenchmark": "graphics",
    "decode": "multimedia", "display": "multimedia", "capture": "multimedia", "low_power": "power",
}  # fmt: skip


@cache
def _file(name: str, mtime: float) -> dict:
    path = paths.variables() / "workloads" / f"{name}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise DataError(f"not valid YAML: {getattr(e, 'problem', e)}", path, mark.line + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise DataError("a workload file must be a mapping of suite names to settings", path, 1)
    return data


def data_path(suite: str) -> Path:
    return paths.variables() / "workloads" / f"{FILES[suite]}.yaml"


def merge(base: object, over: object) -> object:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base.get(k), v)
        return out
    return over if over is not None else base


def settings(suite: str, profile: dict) -> dict:
    """The suite's defaults (variables/workloads/<file>.yaml) with the board profile's workloads.<suite> over them."""
    path = data_path(suite)
    mtime = path.stat().st_mtime if path.exists() else 0.0
    if not path.exists():
        raise DataError(f"no workload settings file for suite {suite}", path)
    base = _file(FILES[suite], mtime).get(suite)
    if not isinstance(base, dict):
        raise DataError(f"no `{suite}:` mapping", path)
    over = ((profile or {}).get("workloads") or {}).get(suite) or {}
    return merge(base, over)  # type: ignore[return-value]


def missing(requires: dict | None, profile: dict, lab: dict, what: str = "") -> str | None:
    """The reason a requirement {board: [...], lab: [...]} is not met, naming where the data lives."""
    requires = requires or {}
    board_has = set((profile or {}).get("has") or [])
    lab_has = set((lab or {}).get("has") or [])
    board = (profile or {}).get("name", "the board")
    labname = (lab or {}).get("name", "the lab")
    for item in requires.get("board") or []:
        if item not in board_has:
            return f"{what}board {board} has no {item} (variables/boards/{board}.yaml: has)".strip()
    for item in requires.get("lab") or []:
        if item not in lab_has:
            return f"{what}lab {labname!r} has no {item} (variables/labs/{labname}.yaml: has)".strip()
    return None


def clean(text: str) -> str:
    """The guides' text without rst escapes, emphasis and surrounding spaces, case-folded."""
    text = text.replace("\\_", "_").replace("\\", "").replace("**", "")
    return re.sub(r"\s+", " ", text).strip().casefold()


def context(c: Criterion) -> dict[str, str]:
    """`key=value; key=value` → {key: value} (keys as printed)."""
    out: dict[str, str] = {}
    for part in (c.context or "").split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def fill(template: str, values: dict) -> str:
    """str.format with a clear error naming the missing key."""
    try:
        return template.format(**values)
    except KeyError as e:
        raise DataError(f"command template {template!r} needs {{{e.args[0]}}}, which no setting provides") from None


def number(text: str) -> str:
    """A guide number as a command argument: 2500005.0 → 2500005."""
    try:
        f = float(text)
    except ValueError:
        return text
    return str(int(f)) if f.is_integer() else text
