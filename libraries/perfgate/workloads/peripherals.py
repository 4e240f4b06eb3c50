"""What the peripheral suites (rt_latency, alsa, glmark2, gfxbench, glbenchmark, decode, display, capture, low_power)
share: their settings (variables/workloads/<file>.yaml under the board profile's and the lab's workloads.<suite>),
the board/lab requirements that decide whether a suite or a row can run, the normalisation of the guides' text, and
`RowWorkload`: one command per distinct set of parameters a criterion's row or table maps to.
"""

from __future__ import annotations

import re

from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, lab_file
from perfgate.workloads.settings import settings as shared_settings

FILES = {
    "rt_latency": "rt", "alsa": "audio", "glmark2": "graphics", "gfxbench": "graphics", "glbenchmark": "graphics",
    "decode": "multimedia", "display": "multimedia", "capture": "multimedia", "low_power": "power",
}  # fmt: skip


def settings(suite: str, profile: dict, lab: dict | None = None) -> dict:
    """The suite's settings: variables/workloads/<file>.yaml, then the board profile's and the lab's
    workloads.<suite> on top (perfgate.workloads.settings)."""
    return shared_settings(FILES[suite], suite, profile, lab)


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
            return f"{what}lab {labname!r} has no {item} ({lab_file(lab)}: has)".strip()
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


class RowWorkload(Workload):
    """A suite whose criteria map, row by row, to the parameters of one command template (the settings'
    `command`); criteria with the same command share one run, and a criterion that maps to none is not measured,
    with the reason. Subclasses give what differs: the parser (`tool`), how a criterion maps to parameters
    (`params`, None when it cannot; `unmapped` says why), the parser key it reads (`key`), the run's `label`, and
    the `note` saying how the suite measures; `command`, `run_timeout` and `note_for` where those are not plain."""

    tool: str = ""
    timeout: float = 600.0  # seconds, when the settings give no `timeout`
    note: str = ""

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        raise NotImplementedError

    def unmapped(self, c: Criterion, s: dict) -> str:
        return f"row {c.row!r} maps to no {self.tool} command"

    def key(self, c: Criterion) -> str:
        return "fps"

    def label(self, c: Criterion, params: dict[str, str]) -> str:
        return self.tool

    def command(self, s: dict, params: dict[str, str]) -> str:
        return fill(s["command"], {**s, **params})

    def run_timeout(self, s: dict, params: dict[str, str]) -> float:
        return float(s.get("timeout", self.timeout))

    def note_for(self, s: dict) -> str:
        return self.note

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(self.suite, profile, lab).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(self.suite, profile, lab)
        runs: dict[str, Run] = {}
        for c in criteria:
            p = self.params(c, s)
            if p is None:
                continue
            cmd = self.command(s, p)
            if cmd not in runs:
                runs[cmd] = Run(self.tool, cmd, timeout=self.run_timeout(s, p), label=self.label(c, p))
            runs[cmd].keys.setdefault(self.key(c), []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        s = settings(self.suite, ctx.profile, ctx.lab)
        ctx.note(self.note_for(s))
        out = super().measure(criteria, ctx)
        for c in criteria:
            if self.params(c, s) is None:
                out.missing[c.id] = self.unmapped(c, s)
        return out
