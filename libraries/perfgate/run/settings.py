"""The run variables that shape the verdict (REPEAT, AGGREGATE, INCONCLUSIVE, ON_MISSING_TOOL, the noise model),
and the check of every other run variable the gate reads, before anything runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from perfgate import runvars, sequential

Vars = Callable[..., object]  # var(name, default=None): a run variable (a Robot variable's value)


def no_vars(name: str, default: object = None) -> object:
    """No run variable set: each its default."""
    return default


@dataclass
class Settings:
    """The run variables that shape the verdict, checked (a bad one names itself)."""

    repeat: int = 3
    aggregate: str = "median"
    inconclusive: str = "fail"
    on_missing_tool: str = "fail"
    noise: sequential.NoiseModel | None = None

    @classmethod
    def read(cls, var: Vars) -> Settings:
        """Every run variable the gate reads, checked before anything runs (a bad one names itself)."""
        s = cls(
            repeat=runvars.whole("REPEAT", var("REPEAT"), 3),
            aggregate=runvars.choice("AGGREGATE", var("AGGREGATE"), "median", ("best", "median")),
            inconclusive=runvars.choice("INCONCLUSIVE", var("INCONCLUSIVE"), "fail", ("fail", "pass")),
        )
        s.noise = sequential.load()
        s.on_missing_tool = runvars.choice("ON_MISSING_TOOL", var("ON_MISSING_TOOL"), "fail", ("fail", "skip"))
        runvars.whole("BOOT_CYCLES", var("BOOT_CYCLES"), runvars.BOOT_CYCLES)
        runvars.positive("DURATION", var("DURATION"), "a positive number of seconds")
        speed = var("SIM_SPEED")
        if str(speed).strip().lower() != "auto":  # the simulated board's own default, said as a word
            runvars.positive("SIM_SPEED", speed, "auto or a positive factor (how much faster than real time)")
        runvars.integer("SIM_SEED", var("SIM_SEED"))
        return s
