"""What the simulated board answers to the commands of perfgate.workloads.low_power: which tool prints the
answer and around which published values (moved from LowPower.expected: the judge never asks the sim).

Only the meter is answered here. Entering a mode (`(sleep N; rtcwake ...) &`) and the wake-up check run in the
simulated shell as they would on a board: the job goes to the background, and the board suspends N s later,
printing the kernel's messages (perfgate.sim.board.SimBoard.suspend). A resume-latency row's command (the gate's
stated method) is answered by perfgate.sim.tools.resume, around the row's published latency."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads.base import Run, same_command
from perfgate.workloads.low_power import SUITE, LowPower, is_resume_latency, keys_of, meter, mode_of, resume_run
from perfgate.workloads.peripherals import settings


@expects("perfgate.workloads.low_power.LowPower")
def expected(wl: LowPower, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    s = settings(SUITE, profile, lab)
    for c in criteria:
        run = resume_run(c, s) if is_resume_latency(c, s) else None
        if isinstance(run, Run) and same_command(run.command, command):
            return Expected("resume", {k: c.value for k in run.keys})
    for mode in s.get("modes") or []:
        m = meter(lab, s, mode)
        if m is not None and same_command(m[0], command):
            return Expected("power", {keys_of(c)[0]: c.value for c in criteria if mode_of(c, s) is mode})
    return None
