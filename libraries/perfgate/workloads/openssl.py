"""OpenSSL (suite openssl): `time -v openssl speed -elapsed -evp <alg>` once per algorithm of the board's tables.

Criteria: throughput per algorithm and block size (rows `aes-128-cbc / 1024`, or the AM57x guide's flat names
`aes-128-cbc_throughput_16_byte (KBytes/s)`), CPU load per algorithm (GNU time's "Percent of CPU this job got"),
and the AM57x guide's `<alg>_system_time (s)` / `<alg>_user_time (s)`. Commands, aliases for guide names that are
not OpenSSL names, and per-algorithm options are data (variables/workloads/crypto.yaml).
"""

from __future__ import annotations

import re
from pathlib import Path

from perfgate import paths
from perfgate.errors import ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import openssl as tool
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.network import assign, fill, grouped
from perfgate.workloads.peripherals import clean
from perfgate.workloads.settings import settings as shared_settings

SUITE = "openssl"
FLAT = re.compile(r"^(?P<alg>[\w-]+?)_(?:throughput_(?P<size>\d+)_\w*|(?P<what>cpu_util|system_time|user_time))\b")
TIMES = {"cpu_util": tool.CPU, "system_time": tool.SYSTEM, "user_time": tool.USER}
TIMED = (tool.CPU, tool.USER, tool.SYSTEM)  # the figures GNU time prints


def data_path() -> Path:
    return paths.variables() / "workloads" / "crypto.yaml"


def settings(profile: dict, lab: dict) -> dict:
    """variables/workloads/crypto.yaml `openssl:`, then the board profile's and the lab's workloads.openssl."""
    return shared_settings("crypto", SUITE, profile, lab)


def without_elapsed(command: str) -> str:
    """Why a command without -elapsed is not run: its rates would be per CPU second of openssl, not per second."""
    return (
        f"`{command}` lacks -elapsed: openssl speed would report bytes per CPU second of its own process, not per "
        f"second (far too high, or `infk`, with a hardware engine); workloads.openssl in {data_path()} or the "
        "board's or lab's override must keep -elapsed"
    )


def classify(c: Criterion, conf: dict) -> tuple[str, str] | str:
    """(algorithm as OpenSSL names it, parser metric) of a criterion, or why it fits none."""
    aliases = {str(k).casefold(): str(v) for k, v in (conf.get("aliases") or {}).items()}
    row, metric = clean(c.row), clean(c.metric)
    flat = FLAT.match(row)
    if flat and not metric:
        alg = aliases.get(flat.group("alg"), flat.group("alg"))
        if flat.group("size"):
            return alg, tool.key(alg, flat.group("size"))
        return alg, TIMES[flat.group("what")]
    parts = [p.strip() for p in row.split("/")]
    alg = aliases.get(parts[0], parts[0])
    if not re.fullmatch(r"[\w-]+", alg):
        return f"no algorithm in row {c.row!r}"
    if "cpu" in metric or "load" in metric:
        return alg, tool.CPU
    if len(parts) == 2 and parts[1].isdigit() and ("throughput" in metric or "kbytes" in metric or not metric):
        return alg, tool.key(alg, parts[1])
    return f"neither a throughput per block size nor a CPU load: {c.row!r} / {c.metric!r}"


class OpenSSL(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return None  # openssl runs on the CPU of any board; a board without it shows as a missing tool

    def groups(self, criteria: list[Criterion], conf: dict) -> tuple[dict[str, dict[str, list[str]]], dict[str, str]]:
        return grouped(criteria, lambda c: classify(c, conf))

    def command(self, alg: str, keys: dict[str, list[str]], conf: dict, lab: dict, timed: bool = True) -> str:
        by_kind = conf.get("seconds") or {}
        seconds = by_kind.get(str((lab or {}).get("kind") or "hardware")) if isinstance(by_kind, dict) else by_kind
        if tool.USER in keys or tool.SYSTEM in keys:
            seconds = None  # published CPU seconds are those of openssl's default run length
        values = {"time": conf.get("time", "/usr/bin/time"), "openssl": conf.get("openssl", "openssl"), "alg": alg,
                  "seconds": f" -seconds {int(seconds)}" if seconds else "",
                  "extra": (conf.get("extra") or {}).get(alg, "")}  # fmt: skip
        template = str(conf["command"] if timed else conf.get("command_untimed", conf["command"]))
        return fill(template, values, "openssl ", data_path())

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        conf = settings(profile, lab)
        groups, _ = self.groups(criteria, conf)
        return [Run("openssl", self.command(alg, keys, conf, lab), keys, timeout=600, label=f"openssl-{alg}")
                for alg, keys in sorted(groups.items())]  # fmt: skip

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        conf = settings(ctx.profile, ctx.lab)
        groups, bad = self.groups(criteria, conf)
        out = Measurements(missing=dict(bad))
        ctx.note("openssl speed per algorithm; CPU load from GNU time -v (Percent of CPU this job got)")
        timer = str(conf.get("time", "/usr/bin/time"))
        no_timer = ""
        for alg, keys in sorted(groups.items()):
            ids = [cid for g in keys.values() for cid in g]
            cmd = self.command(alg, keys, conf, ctx.lab, timed=not no_timer)
            if tool.elapsed_in(cmd) is False:
                out.missing.update(dict.fromkeys(ids, without_elapsed(cmd)))
                continue
            try:
                text = ctx.run(cmd, timeout=600, label=f"openssl-{alg}")
            except ToolMissing as e:
                if no_timer or timer.rsplit("/", 1)[-1] not in str(e) or "openssl" in str(e).split("(")[-1]:
                    out.unavailable.update(dict.fromkeys(ids, str(e)))
                    continue
                no_timer = f"{timer} is not on the board ({e}): no CPU load or CPU seconds"
                ctx.note(f"{no_timer}; openssl runs without it")
                cmd = self.command(alg, keys, conf, ctx.lab, timed=False)
                if tool.elapsed_in(cmd) is False:
                    out.missing.update(dict.fromkeys(ids, without_elapsed(cmd)))
                    continue
                try:
                    text = ctx.run(cmd, timeout=600, label=f"openssl-{alg}")
                except ToolMissing as e2:
                    out.unavailable.update(dict.fromkeys(ids, str(e2)))
                    continue
            evidence = getattr(ctx, "last_evidence", "")
            try:
                metrics = tool.parse(text, command=cmd)
            except ParseError as e:  # openssl failed (an error, an interrupted run): an INVALID run
                out.set_invalid(ids, f"openssl output not recognised: {e}", evidence)
                continue
            for warning in tool.warnings(text, command=cmd):
                ctx.note(f"{warning} (evidence {evidence or 'not kept'})")
            assign(out, ctx, keys, metrics, "openssl", evidence, f"`{cmd}`")
            for cid in [cid for k in TIMED if no_timer for cid in keys.get(k, []) if cid in out.missing]:
                out.unavailable[cid] = no_timer  # not printed: the board has no GNU time
                del out.missing[cid]
        return out


WORKLOAD = OpenSSL()
