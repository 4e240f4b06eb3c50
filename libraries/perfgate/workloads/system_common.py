"""What the System Benchmarks suites share: their settings, and the matching of the guides' row names to parser names.

Settings: variables/workloads/<suite>.yaml (`<suite>:` mapping, TI's commands), under the board profile's
`workloads.<suite>`, under the lab's `workloads.<suite>` and `boards.<board>.workloads.<suite>`. Command templates use
`{key}` placeholders filled from the same settings (`{bin}`, `{file}`, `{contexts}`...).

Rows are matched to parser names on their text: rst escapes removed, case folded, the unit in parentheses dropped
(the guides spell units `MB/s`, `MBs`, `mb/s`, `mb\\s`). The AM57x guide truncates long names to 30 characters
(`af_unix_socket_stream_bandwidt`): a row of 25 characters or more that is the start of exactly one parser name
matches it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all
from perfgate.workloads.settings import settings as _settings

UNIT = re.compile(r"\s*\([^()]*\)\s*$")
TRUNCATED_MIN = 25


@lru_cache(maxsize=8192)
def norm(text: str) -> str:
    t = text.replace("\\_", "_").replace("\\", "").strip().lower()
    t = UNIT.sub("", t)
    return re.sub(r"\s+", " ", t).strip()


def row_text(c: Criterion) -> str:
    return c.row or c.name


def match(criteria: list[Criterion], keys: list[str]) -> tuple[dict[str, list[str]], list[Criterion]]:
    """Parser name -> criterion ids, and the criteria no parser name matches."""
    by_norm: dict[str, str] = {}
    for k in keys:
        by_norm.setdefault(norm(k), k)
    mapping: dict[str, list[str]] = {}
    unmatched: list[Criterion] = []
    for c in criteria:
        n = norm(row_text(c))
        key = by_norm.get(n)
        if key is None and len(n) >= TRUNCATED_MIN:
            starts = [k for nk, k in by_norm.items() if nk.startswith(n)]
            key = starts[0] if len(starts) == 1 else None
        if key is None:
            unmatched.append(c)
        else:
            mapping.setdefault(key, []).append(c.id)
    return mapping, unmatched


def settings(suite: str, profile: dict, lab: dict) -> dict:
    return _settings(suite, suite, profile, lab)


def fill(template: str, s: dict, **extra: object) -> str:
    values = {k: v for k, v in s.items() if not isinstance(v, dict | list)}
    values.update(extra)
    try:
        return template.format(**values)
    except KeyError as e:
        raise DataError(f"command template {template!r} names {e}, which its settings do not give") from None


def yielded_keys(tool: str, command: str) -> list[str]:
    """The parser names a command's output gives, as the tool's parser module declares them (`keys_for`)."""
    return list(_yielded_keys(tool, command))


@lru_cache(maxsize=1024)
def _yielded_keys(tool: str, command: str) -> tuple[str, ...]:
    from perfgate import tools

    module = tools.module(tool)
    if not hasattr(module, "keys_for"):
        raise DataError(
            f"the {tool} parser declares no metrics (perfgate.tools.{tool}.keys_for): cannot plan `{command}`"
        )
    return tuple(module.keys_for(command))


class ToolWorkload(Workload):
    """A suite measured by runs of one tool: `commands()` gives (command, label, criteria it may measure)."""

    tool = ""

    def commands(self, criteria: list[Criterion], s: dict) -> list[tuple[str, str, list[Criterion]]]:
        return [(fill(s["command"], s), self.tool, criteria)]

    def plan_with_unmatched(self, criteria: list[Criterion], profile: dict, lab: dict) -> tuple[list[Run], dict]:
        s = settings(self.suite, profile, lab)
        runs, unmatched = [], {}
        for command, label, crits in self.commands(criteria, s):
            keys, left = match(crits, yielded_keys(self.tool, command))
            for c in left:
                unmatched[c.id] = f"`{command}` prints no metric named like '{row_text(c)}' ({self.tool} parser)"
            same = next((r for r in runs if r.command == command), None)
            if same is not None:
                for k, ids in keys.items():
                    same.keys.setdefault(k, []).extend(ids)
            elif keys:
                runs.append(Run(self.tool, command, keys, timeout=float(s.get("timeout", 600)), label=label))
        return runs, unmatched

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        return self.plan_with_unmatched(criteria, profile, lab)[0]

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        runs, unmatched = self.plan_with_unmatched(criteria, ctx.profile, ctx.lab)
        out = run_all(runs, ctx)
        for cid, why in unmatched.items():
            out.missing.setdefault(cid, why)
        if out.values:
            ctx.note(f"{len(out.values)} of {len(criteria)} values read by the {self.tool} parser")
        return out
