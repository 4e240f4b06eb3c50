"""The run variables that shape the verdict (REPEAT, AGGREGATE, INCONCLUSIVE, ON_MISSING_TOOL, the noise model),
and the check of every other run variable the gate reads, before anything runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from perfgate import runvars
from perfgate.decision import budget, sequential
from perfgate.decision.budget import Budget

Vars = Callable[..., object]  # var(name, default=None): a run variable (a Robot variable's value)


def no_vars(name: str, default: object = None) -> object:
    """No run variable set: each its default."""
    return default


@dataclass
class Settings:
    """The run variables that shape the verdict, checked (a bad one names itself)."""

    repeat: int | None = None  # REPEAT: the user's cap on any command's runs (None: the budget's own)
    aggregate: str = "median"
    inconclusive: str = "fail"
    on_missing_tool: str = "fail"
    noise: sequential.NoiseModel | None = None
    budget: Budget | None = None  # how many runs a command may take (variables/budget.yaml, capped by REPEAT)
    calibrate: int = 0  # CALIBRATE: every command runs this many times (an A/A calibration run)
    baseline_gates: bool = False  # BASELINE_GATES: a criterion worse than its baseline run fails its test

    @classmethod
    def read(cls, var: Vars) -> Settings:
        """Every run variable the gate reads, checked before anything runs (a bad one names itself)."""
        checked = runvars.read(var)  # the one check of every run variable (robot --dryrun uses it too)
        return cls(repeat=checked.repeat, aggregate=checked.aggregate, inconclusive=checked.inconclusive,
                   on_missing_tool=checked.on_missing_tool, noise=sequential.load(),
                   budget=budget.load(repeat=checked.repeat), calibrate=checked.calibrate,
                   baseline_gates=checked.baseline_gates)  # fmt: skip
