"""Low power (suite low_power): per-rail power (mW) and the total in each low-power mode of the guide's tables
(Deep sleep, MCU only), read through the lab's power meter.

The lab's `power_meter` is a command run on the gate host that prints `<rail> <value> [mW|W|uW]` lines, or the
word `board`: the board's INA sensors, read on the board with the suite's `ina_command`. Without one, the suite
is skipped with the reason. For each mode the board is put to sleep in the background (it wakes by itself from
the RTC), the meter is read while it sleeps, then the gate waits for the board to answer again.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import parse
from perfgate.tools.power import rail_key
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, fill, missing, settings

SUITE = "low_power"


def meter(lab: dict, s: dict, mode: dict | None = None) -> tuple[str, str] | None:
    """(command, where) of the lab's power meter in a mode, or None. On the board, the command first echoes the
    mode (a `#` line the parser skips), so the evidence says which mode each reading is."""
    m = (lab or {}).get("power_meter")
    if not m:
        return None
    if str(m).strip() == "board":
        label = f"echo '# {mode.get('name', mode['match'])}'; " if mode else ""
        return label + fill(str(s["ina_command"]), s), "shell"
    wait = int(s.get("settle", 5)) + 2  # the board is asleep by then
    return f"sleep {wait} && {m}", "host"


def metric_key(c: Criterion) -> str:
    row = clean(c.row)
    if row == "total":
        return "total (mW)"
    return rail_key(c.row)


def is_resume_latency(c: Criterion, s: dict) -> bool:
    rx = (s.get("resume_latency") or {}).get("match")
    return bool(rx) and bool(re.search(rx, clean(f"{c.table} {c.metric}")))


def mode_of(c: Criterion, s: dict) -> dict | None:
    if is_resume_latency(c, s):
        return None
    for m in s.get("modes") or []:
        if re.search(m["match"], clean(c.table)) or re.search(m["match"], clean(c.name)):
            return m
    return None


def keys_of(c: Criterion) -> list[str]:
    """A rail row like `vdd_lpddr4/vdd_ddr4` is read under either name."""
    if clean(c.row) == "total":
        return ["total (mW)"]
    return [rail_key(part) for part in c.row.split("/")]


class LowPower(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        s = settings(SUITE, profile, lab)
        if meter(lab, s) is None:
            name = (lab or {}).get("name", "the lab")
            return f"lab {name!r} has no power meter (variables/labs/{name}.yaml: power_meter)"
        return missing(s.get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        """Per mode: enter it (no metric), then read the meter (one key per rail). measure() sequences them with
        the wake-up in between; the plan tells the simulated board what each command answers."""
        s = settings(SUITE, profile, lab)
        runs: list[Run] = []
        for mode in s.get("modes") or []:
            crits = [c for c in criteria if mode_of(c, s) is mode]
            m = meter(lab, s, mode)
            if not crits or m is None:
                continue
            label = re.sub(r"[^a-z0-9]+", "-", mode["match"]).strip("-")
            runs.append(Run("power", fill(mode["enter"], {**s, **mode}), {"entered": []}, label=f"enter-{label}"))
            keys: dict[str, list[str]] = {}
            for c in crits:
                keys.setdefault(keys_of(c)[0], []).append(c.id)
            runs.append(Run("power", m[0], keys, where=m[1], timeout=float(s.get("timeout", 120)),
                            label=f"power-{label}"))  # fmt: skip
        return runs

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        s = settings(SUITE, ctx.profile, ctx.lab)
        out = Measurements()
        ctx.note(f"power per rail by the lab's power meter ({ctx.lab.get('power_meter')})")
        modes: dict[str, list[Criterion]] = {}
        for c in criteria:
            mode = mode_of(c, s)
            if is_resume_latency(c, s):
                out.missing[c.id] = (
                    "resume latency is not measured: the guide does not say how TI measured it, and no command "
                    "for it is in variables/workloads/power.yaml"
                )
                continue
            if mode is None:
                out.missing[c.id] = f"no low-power mode for table {c.table!r} (variables/workloads/power.yaml: modes)"
                continue
            modes.setdefault(mode["match"], []).append(c)
        for match, crits in modes.items():
            mode = next(x for x in s["modes"] if x["match"] == match)
            values = {**s, **mode}
            label = re.sub(r"[^a-z0-9]+", "-", match).strip("-")
            m = meter(ctx.lab, s, mode)
            assert m is not None  # applicable() said so
            command, where = m
            try:
                ctx.run(fill(mode["enter"], values), timeout=30, label=f"enter-{label}")
                text = ctx.run(command, timeout=float(s.get("timeout", 120)), label=f"power-{label}", where=where)
                ctx.run(fill(str(s.get("wake", "uptime")), values), timeout=float(mode.get("seconds", 30)) + 120,
                        label=f"wake-{label}")  # fmt: skip
                readings = parse("power", text, command=command)
            except ToolMissing as e:
                out.unavailable.update({c.id: str(e) for c in crits})
                continue
            except ParseError as e:
                out.missing.update({c.id: f"power meter output not recognised: {e}" for c in crits})
                continue
            for c in crits:
                key = next((k for k in keys_of(c) if k in readings), None)
                if key is None:
                    out.missing[c.id] = f"the power meter printed no rail {c.row!r} ({', '.join(readings)})"
                else:
                    out.values[c.id] = readings[key]
                    out.tools[c.id] = "power"
        return out


WORKLOAD = LowPower()
