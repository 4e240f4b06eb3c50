"""Low power (suite low_power): per-rail power (mW) and the total in each low-power mode of the guide's tables
(Deep sleep, MCU only), read through the lab's power meter.

The lab's `power_meter` is a command run on the gate host that prints `<rail> <value> [mW|W|uW]` lines, or the
word `board`: the board's INA sensors, read on the board with the suite's `ina_command`. Without one, the suite
is skipped with the reason. For each mode the board is put to sleep in the background (it wakes by itself from
the RTC). The meter is read only once the board has entered the mode: the console must show the kernel's suspend
messages (the suite's `entered`), within a bounded wait; evidence that never comes fails the mode's criteria as
not measured, and a board that was already awake again when the reading ended fails them too. Then the gate waits
for the resume (`resumed`) and for the board to answer again.

Resume latency (the guides' "LPM Resume Latency Performance") is measured by the gate's stated method, as data
(power.yaml `resume_latency`: the method's name and description, its command per mode), which the log and each
row's `tool` in the report name; no power meter is needed for it (perfgate.tools.resume reads its output).
"""

from __future__ import annotations

import re

from perfgate.board.traits import no_console_reason
from perfgate.errors import BoardLost, DataError, ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import parse
from perfgate.tools.power import rail_key
from perfgate.workloads.base import Context, Measurements, Run, Workload, lab_file, run_all
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
    return str(m), "host"  # run once the console showed the board asleep (LowPower.measure), never after a guess


def evidence(s: dict, mode: dict, key: str) -> dict:
    """The suite's `entered` or `resumed` evidence, the mode's own on top: console patterns (in order), abort
    patterns, quiet and timeout seconds. A missing or malformed setting is a DataError naming the key."""
    e = {**(s.get(key) or {}), **(mode.get(key) or {})}
    where = f"variables/workloads/power.yaml: low_power.{key}"
    console = e.get("console")
    if not isinstance(console, list) or not console or not all(isinstance(p, str) for p in console):
        raise DataError(f"{where}.console must be a list of regular expressions (the kernel's messages)")
    for p in [*console, *(e.get("abort") or [])]:
        try:
            re.compile(p)
        except re.error as err:
            raise DataError(f"{where}: {p!r} is not a regular expression: {err}") from None
    try:
        timeout, quiet = float(e["timeout"]), float(e.get("quiet", 0))
    except (KeyError, TypeError, ValueError):
        raise DataError(f"{where}.timeout must be a number of seconds (and quiet, when given)") from None
    return {"console": console, "abort": list(e.get("abort") or []), "quiet": quiet, "timeout": timeout}


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


RTC_MODES = {"standby", "freeze", "mem", "disk", "off", "no", "on", "disable", "show"}  # rtcwake(8) -m


def resume_mode(c: Criterion, s: dict) -> dict | None:
    """The resume_latency entry for a row (`Deep Sleep`, `MCU Only`...)."""
    for m in (s.get("resume_latency") or {}).get("modes") or []:
        if re.search(str(m.get("match", "")), clean(c.row or c.name)):
            return m
    return None


def resume_run(c: Criterion, s: dict) -> Run | str:
    """The run that measures one resume-latency row by the stated method, or why it cannot be measured."""
    rl = s.get("resume_latency") or {}
    where = "variables/workloads/power.yaml (or the lab): low_power.resume_latency"
    mode = resume_mode(c, s)
    if mode is None or not rl.get("command"):
        return f"resume latency of {c.row!r}: no method for this mode ({where}.modes, .command)"
    seconds, rtc_mode = rl.get("seconds"), str(mode.get("rtc_mode", "mem"))
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= 3600:
        raise DataError(f"{where}.seconds: must be a whole number of seconds 1..3600, not {seconds!r}")
    if rtc_mode not in RTC_MODES:
        raise DataError(
            f"{where}.modes: rtc_mode {rtc_mode!r} is not one of rtcwake's modes ({', '.join(sorted(RTC_MODES))})"
        )
    method = str(rl.get("method") or "stated")
    if not re.fullmatch(r"[\w.-]+", method):
        raise DataError(f"{where}.method: must be one word (letters, digits, . - _), not {method!r}")
    prepare = str(mode.get("prepare") or "").strip().rstrip(";")
    label = re.sub(r"[^a-z0-9]+", "-", clean(c.row)).strip("-")
    values = {**s, **rl, **mode, "seconds": seconds, "rtc_mode": rtc_mode, "method": method,
              "prepare": f"{prepare};" if prepare else "", "mode": label}  # fmt: skip
    return Run("resume", fill(str(rl["command"]), values), {"Total Resume Latency (ms)": [c.id]},
               timeout=float(rl.get("timeout", 120)) + seconds, label=f"resume-{label}")  # fmt: skip


def keys_of(c: Criterion) -> list[str]:
    """A rail row like `vdd_lpddr4/vdd_ddr4` is read under either name."""
    if clean(c.row) == "total":
        return ["total (mW)"]
    return [rail_key(part) for part in c.row.split("/")]


class LowPower(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        """Skipped when the board or lab lacks what the suite requires, or when the lab has no power meter and
        no criterion is a resume latency (which needs none), or when the gate cannot watch the console."""
        if no_console_reason(profile):
            return no_console_reason(profile)
        s = settings(SUITE, profile, lab)
        if meter(lab, s) is None and not any(is_resume_latency(c, s) for c in criteria):
            return no_meter(lab)
        return missing(s.get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        """Per mode: enter it (no metric), then read the meter (one key per rail). measure() sequences them with
        the wake-up in between; the plan tells the simulated board what each command answers."""
        s = settings(SUITE, profile, lab)
        runs: list[Run] = [r for c in criteria if is_resume_latency(c, s) and isinstance(r := resume_run(c, s), Run)]
        for mode in s.get("modes") or []:
            crits = [c for c in criteria if mode_of(c, s) is mode]
            m = meter(lab, s, mode)
            if not crits or m is None:
                continue
            label = re.sub(r"[^a-z0-9]+", "-", mode["match"]).strip("-")
            runs.append(Run("power", fill(mode["enter"], {**s, **mode}), {}, label=f"enter-{label}"))
            keys: dict[str, list[str]] = {}
            for c in crits:
                keys.setdefault(keys_of(c)[0], []).append(c.id)
            runs.append(Run("power", m[0], keys, where=m[1], timeout=float(s.get("timeout", 120)),
                            label=f"power-{label}"))  # fmt: skip
        return runs

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        s = settings(SUITE, ctx.profile, ctx.lab)
        out = Measurements()
        resume = [c for c in criteria if is_resume_latency(c, s)]
        if resume:
            self._measure_resume(ctx, s, resume, out)
        has_meter = meter(ctx.lab, s) is not None
        if has_meter and len(resume) < len(criteria):
            ctx.note(f"power per rail by the lab's power meter ({ctx.lab.get('power_meter')})")
        modes: dict[str, list[Criterion]] = {}
        for c in criteria:
            mode = mode_of(c, s)
            if is_resume_latency(c, s):
                continue
            if not has_meter:
                out.skipped[c.id] = no_meter(ctx.lab)
                continue
            if mode is None:
                out.missing[c.id] = f"no low-power mode for table {c.table!r} (variables/workloads/power.yaml: modes)"
                continue
            modes.setdefault(mode["match"], []).append(c)
        for match, crits in modes.items():
            mode = next(x for x in s["modes"] if x["match"] == match)
            self._measure_mode(ctx, s, mode, crits, out)
        return out

    @staticmethod
    def _measure_resume(ctx: Context, s: dict, crits: list[Criterion], out: Measurements) -> None:
        """Each resume-latency row by the stated method (one suspend per row), named in the log and the report."""
        rl = s.get("resume_latency") or {}
        method = str(rl.get("method") or "stated")
        ctx.note(f"resume latency by the gate's own method ({method}), the guide not saying how TI timed it: "
                 f"{' '.join(str(rl.get('describe') or '').split())}")  # fmt: skip
        runs = []
        for c in crits:
            r = resume_run(c, s)
            if isinstance(r, str):
                out.missing[c.id] = r
            else:
                runs.append(r)
        got = run_all(runs, ctx)
        for cid in got.tools:
            got.tools[cid] = f"resume ({method} method)"
        out.merge(got)

    def _measure_mode(self, ctx: Context, s: dict, mode: dict, crits: list[Criterion], out: Measurements) -> None:
        """Enter the mode; read the meter once the console showed the board asleep, and only then; wait for the
        resume and for the board to answer again."""
        values = {**s, **mode}
        label = re.sub(r"[^a-z0-9]+", "-", mode["match"]).strip("-")
        name = mode.get("name", mode["match"])
        m = meter(ctx.lab, s, mode)
        assert m is not None  # applicable() said so
        command, where = m
        entered, resumed = evidence(s, mode, "entered"), evidence(s, mode, "resumed")
        ids = [c.id for c in crits]
        try:
            since = ctx.console_mark()
            ctx.run(fill(mode["enter"], values), timeout=30, label=f"enter-{label}")
            try:
                ctx.await_console(entered["console"], since=since, timeout=entered["timeout"], abort=entered["abort"],
                                  quiet=entered["quiet"], label=f"entered-{label}")  # fmt: skip
            except AssertionError as e:
                if isinstance(e, BoardLost):
                    raise
                why = (f"the board never showed it entered {name!r}, so the meter was not read "
                       f"(variables/workloads/power.yaml: low_power.entered): {e}")  # fmt: skip
                out.missing.update(dict.fromkeys(ids, why))
                self._evidence(out, ids, ctx)
                ctx.note(why)
                self._wake(ctx, s, mode, values, label)
                return
            self._evidence(out, ids, ctx)  # what the console showed of the entry
            asleep = ctx.console_mark()
            text = ctx.run(command, timeout=float(s.get("timeout", 120)), label=f"power-{label}", where=where)
            self._evidence(out, ids, ctx)
            read = ctx.console_mark()
            woke = self._resumed(ctx, resumed, mode, asleep, label)
            if woke is not None:
                self._evidence(out, ids, ctx)
            self._wake(ctx, s, mode, values, label)
            if woke is not None and woke < read:
                why = (f"the board left {name!r} before the power meter's reading ended (the console showed the "
                       f"resume during `{command}`): the reading is not of the mode")  # fmt: skip
                out.missing.update(dict.fromkeys(ids, why))
                return
            readings = parse("power", text, command=command)
        except ToolMissing as e:
            out.unavailable.update(dict.fromkeys(ids, str(e)))
            return
        except ParseError as e:  # the meter's read failed: an INVALID run
            out.set_invalid(ids, f"power meter output not recognised: {e}", getattr(ctx, "last_evidence", ""))
            return
        for c in crits:
            key = next((k for k in keys_of(c) if k in readings), None)
            if key is None:
                out.missing[c.id] = f"the power meter printed no rail {c.row!r} ({', '.join(readings)})"
            else:
                out.values[c.id] = readings[key]
                out.tools[c.id] = "power"

    @staticmethod
    def _evidence(out: Measurements, ids: list[str], ctx: Context) -> None:
        """The file the last run or console wait was kept in, for each criterion of the mode."""
        path = getattr(ctx, "last_evidence", "")
        for cid in ids if path else []:
            out.evidence.setdefault(cid, []).append(path)

    @staticmethod
    def _resumed(ctx: Context, resumed: dict, mode: dict, since: int, label: str) -> int | None:
        """Where on the console the board said it resumed (None: it did not say so within the mode's seconds and
        the `resumed` timeout; the gate goes on to its wake-up check)."""
        try:
            return ctx.await_console(resumed["console"], since=since, label=f"resumed-{label}",
                                     timeout=float(mode.get("seconds", 30)) + resumed["timeout"])  # fmt: skip
        except AssertionError as e:
            if isinstance(e, BoardLost):
                raise
            ctx.note(f"no resume on the console after {mode.get('name', mode['match'])!r}: {e}")
            return None

    @staticmethod
    def _wake(ctx: Context, s: dict, mode: dict, values: dict, label: str) -> None:
        ctx.run(fill(str(s.get("wake", "uptime")), values), timeout=float(mode.get("seconds", 30)) + 120,
                label=f"wake-{label}")  # fmt: skip


def no_meter(lab: dict) -> str:
    name = (lab or {}).get("name", "the lab")
    return f"lab {name!r} has no power meter ({lab_file(lab)}: power_meter)"


WORKLOAD = LowPower()
