"""Boot time (suite boot_time), as the guides define it: from `Starting kernel ...` on the console to the Linux
prompt, host-side timestamps, avg (min, max) over the guide's boot cycles ("Boot time numbers [avg, min, max] are
measured from "Starting kernel" to Linux prompt across 20 boot cycles", guides/current/linux-11.02-j7.rst:455).

How many cycles is data: the count a criterion's own text states ("(20 boot cycles)" in the J7 row names), else
variables/workloads/boot.yaml `cycles` (20). A lab may lower it (its `workloads.boot_time.cycles`, or
-v BOOT_CYCLES:<n>); the measurement then carries its length beside the guide's (Measurements.lengths, unit
`boot cycles`), and a value within the threshold from fewer boots than the guide's is INCONCLUSIVE
(perfgate.decision.sequential.short_run), never a clean pass.

Rows: the default rootfs (to the login prompt) and the `init=/bin/sh` variant (to the shell prompt; any row whose
text mentions init and /bin/sh). One run per variant: the command `boot-time <variant> <cycles>` with where="boot"
asks the board library to boot the board that many times and return the timestamped console log (perfgate.tools.boot
format); the parser averages it. The mean is the measurement; min and max go to the log. The gate knows each value
is the mean of that many boots (Measurements.averaged): its noise is one boot's over the square root of their number.
The plan counts each cycle as one boot of lab time (variables/budget.yaml `seconds: boot`).
"""

from __future__ import annotations

import re

from perfgate import runvars
from perfgate.board.traits import no_console_reason, no_uboot_reason
from perfgate.decision.sequential import RunLength
from perfgate.errors import BoardLost, DataError
from perfgate.model import Criterion
from perfgate.robot.robotvars import var
from perfgate.tools import parse
from perfgate.workloads.base import Context, Measurements, Run, Workload, lab_file
from perfgate.workloads.settings import settings

INIT_SH = re.compile(r"init\s*(?:is|=)\s*/bin/sh", re.I)
VARIANTS = ("default", "init_sh")
STATED = re.compile(r"\b(\d+)\s+boot\s+cycles?\b", re.I)  # "(20 boot cycles)" in a row's name or notes
UNIT = "boot cycles"


def variant(c: Criterion) -> str:
    return "init_sh" if INIT_SH.search(f"{c.row} {c.name} {c.context}") else "default"


def default_cycles(profile: dict | None = None, lab: dict | None = None) -> int:
    """variables/workloads/boot.yaml `boot_time.cycles`, with the board profile's and the lab's on top."""
    conf = settings("boot", "boot_time", profile, lab)
    n = conf.get("cycles")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise DataError(f"workloads.boot_time `cycles` must be a whole number of 1 or more, not {n!r} (in "
                        f"variables/workloads/boot.yaml, the board profile or {lab_file(lab)})")  # fmt: skip
    return n


def guide_cycles(c: Criterion, profile: dict | None = None) -> int:
    """How many boot cycles the guide averaged for this criterion: the count its text states, else the data's (the
    board profile's where it says how its own published numbers were measured: a baseline board's)."""
    m = STATED.search(f"{c.row} {c.name} {c.context}")
    return int(m.group(1)) if m else default_cycles(profile)


def cycles(crits: list[Criterion], profile: dict | None = None, lab: dict | None = None,
           override: object = None) -> int:  # fmt: skip
    """Boots per value of one variant: -v BOOT_CYCLES (`override`), else the lab's own `cycles` (a lab that lowers
    it), else the most any of its criteria's guide averaged."""
    if not runvars.unset(override):
        return runvars.whole("BOOT_CYCLES", override, 1)
    own = default_cycles(profile, lab)
    if own != default_cycles(profile):
        return own
    return max((guide_cycles(c, profile) for c in crits), default=own)


def run_length(c: Criterion, ran: int, profile: dict | None = None) -> RunLength:
    """The boots averaged beside the guide's: fewer is a shorter (noisier) measurement than the guide's."""
    return RunLength(float(ran), float(guide_cycles(c, profile)), UNIT, detail="the mean of that many boots")


class BootTime(Workload):
    suite = "boot_time"

    @property
    def averaged_over(self) -> tuple[str, int]:  # type: ignore[override]
        return ("BOOT_CYCLES", default_cycles())

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        """Boot time is read from the console as the board boots: skipped where the gate cannot watch it."""
        return no_console_reason(profile)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        timeout = float((profile.get("timeouts") or {}).get("boot", 180))
        runs = []
        for v in VARIANTS:
            mine = [c for c in criteria if variant(c) == v]
            if mine:
                n = cycles(mine, profile, lab, var("BOOT_CYCLES"))
                runs.append(Run("boot", f"boot-time {v} {n}", {"boot time (sec)": [c.id for c in mine]}, "boot",
                                timeout * n, f"boot-{v}", times=n))  # fmt: skip
        return runs

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        out = Measurements()
        no_uboot = no_uboot_reason(ctx.profile)
        for run in self.plan(criteria, ctx.profile, ctx.lab):
            ids = run.keys["boot time (sec)"]
            if no_uboot and run.command.split()[1] == "init_sh":  # init=/bin/sh is set at the U-Boot prompt
                out.skipped.update(dict.fromkeys(ids, f"the init=/bin/sh boot needs the U-Boot prompt: {no_uboot}"))
                continue
            try:
                text = ctx.run(run.command, timeout=run.timeout, label=run.label, where=run.where)
                m = parse("boot", text, command=run.command)
            except BoardLost as e:  # the board is gone: nothing more can be measured
                out.missing.update(dict.fromkeys(ids, f"{run.command}: {e}"))
                continue
            except Exception as e:  # a boot that does not reach the prompt: an INVALID run, with the reason
                out.set_invalid(ids, f"{run.command}: {e}", getattr(ctx, "last_evidence", ""))
                continue
            scale = m.get("time scale", 1.0)
            ctx.note(
                f"{run.command}: mean {m['boot time (sec)']:.3f} s (min {m['boot time min (sec)']:.3f}, "
                f"max {m['boot time max (sec)']:.3f}) over {int(m['cycles'])} boot cycles"
                + (f"; host seconds x {scale:g} (the board ran {scale:g}x faster than real time)" if scale != 1 else "")
            )
            by_id = {c.id: c for c in criteria}
            lengths = {cid: run_length(by_id[cid], int(m["cycles"]), ctx.profile) for cid in ids}
            short = sorted({r.describe() for r in lengths.values() if r.short})
            if short:
                ctx.note(f"{run.command}: {'; '.join(short)}: fewer boots than the guide's, so a value within the "
                         "threshold reads INCONCLUSIVE, not pass")  # fmt: skip
            for cid in ids:
                out.values[cid] = m["boot time (sec)"]
                out.tools[cid] = "boot"
                out.averaged[cid] = int(m["cycles"])  # its noise is one boot's over sqrt(cycles)
                out.lengths[cid] = lengths[cid]  # fewer boots than the guide's: a weaker measurement
        return out


WORKLOAD = BootTime()
