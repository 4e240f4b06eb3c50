"""Boot time (suite boot_time), as the guides define it: from `Starting kernel ...` on the console to the Linux
prompt, host-side timestamps, averaged over BOOT_CYCLES boots (the guides used 20).

Rows: the default rootfs (to the login prompt) and the `init=/bin/sh` variant (to the shell prompt; any row whose
text mentions init and /bin/sh). One run per variant: the command `boot-time <variant>` with where="boot" asks the
board library to boot the board BOOT_CYCLES times and return the timestamped console log (perfgate.tools.boot
format); the parser averages it. The mean is the measurement; min and max go to the log. The gate knows each value
is the mean of that many boots (Measurements.averaged): its noise is one boot's over the square root of their number.
"""

from __future__ import annotations

import re

from perfgate import runvars
from perfgate.board.traits import no_console_reason, no_uboot_reason
from perfgate.errors import BoardLost
from perfgate.model import Criterion
from perfgate.tools import parse
from perfgate.workloads.base import Context, Measurements, Run, Workload

INIT_SH = re.compile(r"init\s*(?:is|=)\s*/bin/sh", re.I)
VARIANTS = ("default", "init_sh")


def variant(c: Criterion) -> str:
    return "init_sh" if INIT_SH.search(f"{c.row} {c.name} {c.context}") else "default"


class BootTime(Workload):
    suite = "boot_time"
    averaged_over = ("BOOT_CYCLES", runvars.BOOT_CYCLES)

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        """Boot time is read from the console as the board boots: skipped where the gate cannot watch it."""
        return no_console_reason(profile)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        timeout = float((profile.get("timeouts") or {}).get("boot", 180))
        runs = []
        for v in VARIANTS:
            ids = [c.id for c in criteria if variant(c) == v]
            if ids:
                runs.append(Run("boot", f"boot-time {v}", {"boot time (sec)": ids}, "boot", timeout, f"boot-{v}"))
        return runs

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        out = Measurements()
        no_uboot = no_uboot_reason(ctx.profile)
        for run in self.plan(criteria, ctx.profile, ctx.lab):
            ids = run.keys["boot time (sec)"]
            if no_uboot and run.command.endswith("init_sh"):  # init=/bin/sh is set at the U-Boot prompt
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
                + "; the guides average 20 cycles"
            )
            for cid in ids:
                out.values[cid] = m["boot time (sec)"]
                out.tools[cid] = "boot"
                out.averaged[cid] = int(m["cycles"])  # its noise is one boot's over sqrt(cycles)
        return out


WORKLOAD = BootTime()
