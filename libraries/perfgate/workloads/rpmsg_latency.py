"""IPC / RPMsg round-trip latency: rpmsg_char_benchmark, one run per remote core and message size.

Each guide row is `<core> / <message size>` (the AM64x RT guide: `R5F0_0 / 1`, `M4F / 490`), the core named as TI's
docs name it. Settings (variables/workloads/ipc.yaml `rpmsg_latency:`, under the board profile's and the lab's
`workloads.rpmsg_latency`): TI's command template, the number of messages, and `cores`, the board's map from the
guide's core name to the rproc id the tool's `-r` takes (SoC-specific: board data). A row whose core the board data
does not map, or whose size the tool cannot send, is not measured, naming the key to set.
"""

from __future__ import annotations

import shlex

from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.tools import rpmsg
from perfgate.tools.rpmsg import keys_for
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all
from perfgate.workloads.settings import settings

SUITE = "rpmsg_latency"
KEY = f"workloads.{SUITE}"


def _whole(value: object, what: str, low: int, high: int | None = None) -> int:
    """A whole number for the command line (nothing else from data reaches the shell)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f"{low} or more"
        raise DataError(f"{KEY}.{what}: must be a whole number {bound}, not {value!r}")
    return value


def row_core_size(c: Criterion) -> tuple[str, str]:
    """`R5F0_0 / 490` -> (`R5F0_0`, `490`)."""
    core, _, size = (c.row or "").rpartition(" / ")
    return core.replace("\\_", "_").strip(), size.strip()


class RpmsgLatency(Workload):
    suite = SUITE

    def plan_with_missing(self, criteria: list[Criterion], profile: dict, lab: dict) -> tuple[list[Run], dict]:
        s = settings("ipc", SUITE, profile, lab)
        messages = _whole(s.get("messages"), "messages", 1)
        max_size = _whole(s.get("max_size", 496), "max_size", 1)
        workdir = str(s.get("workdir") or "/tmp")
        if not workdir.startswith("/"):
            raise DataError(f"{KEY}.workdir: must be an absolute path, not {workdir!r}")
        cores = s.get("cores") or {}
        if not isinstance(cores, dict):
            raise DataError(f"{KEY}.cores: must map the guide's core names to rproc ids, not {cores!r}")
        board = profile.get("name", "the board")
        metric_keys = {k.lower(): k for k in keys_for()}
        runs: dict[tuple[int, int], Run] = {}
        missing: dict[str, str] = {}
        for c in criteria:
            core, size_text = row_core_size(c)
            key = metric_keys.get((c.metric or "").lower())
            if key is None:
                missing[c.id] = f"rpmsg_char_benchmark prints no metric named like {c.metric!r}"
                continue
            if cores.get(core) is None:
                missing[c.id] = (
                    f"not measured: no rproc id for the remote core {core!r} (variables/boards/{board}.yaml or the "
                    f"lab: {KEY}.cores.{core})"
                )
                continue
            rproc = _whole(cores[core], f"cores.{core}", 0)
            if not size_text.isdigit() or not 1 <= int(size_text) <= max_size:
                missing[c.id] = f"not measured: message size {size_text!r} is not one rpmsg_char_benchmark sends " \
                                f"(1..{max_size} bytes)"  # fmt: skip
                continue
            size = int(size_text)
            run = runs.get((rproc, size))
            if run is None:
                command = str(s["command"]).format(
                    rproc=rproc, messages=messages, size=size, workdir=shlex.quote(workdir)
                )
                run = runs[(rproc, size)] = Run(
                    "rpmsg", command, {}, timeout=float(s.get("timeout", 600)), label=f"rpmsg-{core}-{size}"
                )
            run.keys.setdefault(key, []).append(c.id)
        return list(runs.values()), missing

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        return self.plan_with_missing(criteria, profile, lab)[0]

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        runs, missing = self.plan_with_missing(criteria, ctx.profile, ctx.lab)
        kept = _Kept(ctx)
        out = run_all(runs, kept)  # type: ignore[arg-type]
        for cid, why in missing.items():
            out.missing.setdefault(cid, why)
        for run in runs:
            ctx.note(f"`{run.command}`: {', '.join(run.keys)} by rpmsg_char_benchmark")
            text = kept.texts.get(run.command)
            for warning in rpmsg.warnings(text, run.command) if text else []:
                ctx.note(f"{run.label}: {warning}")
        return out


class _Kept:
    """The context, keeping what each command printed (for the parser's warnings after run_all)."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self.texts: dict[str, str] = {}

    def __getattr__(self, name: str) -> object:
        return getattr(self._ctx, name)

    def run(self, command: str, **kwargs: object) -> str:
        text = self._ctx.run(command, **kwargs)  # type: ignore[arg-type]
        self.texts[command] = text
        return text


WORKLOAD = RpmsgLatency()
