"""The run's own variables (`robot -v NAME:value`, or an argument file), checked before anything is measured.

A bad value is a `VariableError` that names the variable, the value given and what it must be, so that the console
says `variable REPEAT: ... not 'abc'` instead of a bare ValueError somewhere in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from perfgate.errors import DataError, PerfgateError
from perfgate.squad import target as squad_target


class VariableError(DataError):
    """A run variable with a value the gate cannot use."""


BOOT_CYCLES = 20  # boots per boot-time value when neither the command nor BOOT_CYCLES says (the guides: 20)


def unset(value: object) -> bool:
    return value is None or (isinstance(value, str) and value.strip().upper() in ("", "NONE", "${NONE}"))


def _bad(name: str, value: object, what: str) -> VariableError:
    return VariableError(f"variable {name}: must be {what}, not {str(value)!r} (-v {name}:{value})")


def whole(name: str, value: object, default: int, minimum: int = 1) -> int:
    """A whole number >= minimum (REPEAT, BOOT_CYCLES); unset gives the default."""
    if unset(value):
        return default
    text = str(value).strip()
    try:
        n = int(text)
    except ValueError:
        raise _bad(name, value, f"a whole number of {minimum} or more") from None
    if n < minimum:
        raise _bad(name, value, f"a whole number of {minimum} or more")
    return n


def choice(name: str, value: object, default: str, choices: Iterable[str]) -> str:
    """One of `choices`, case-insensitive (AGGREGATE, ON_MISSING_TOOL); unset gives the default."""
    if unset(value):
        return default
    options = list(choices)
    text = str(value).strip().lower()
    if text not in options:
        raise _bad(name, value, " or ".join(options))
    return text


def positive(name: str, value: object, what: str = "a positive number") -> float | None:
    """A positive number (DURATION in seconds, SIM_SPEED as a factor); unset gives None."""
    if unset(value):
        return None
    try:
        n = float(str(value).strip())
    except ValueError:
        raise _bad(name, value, what) from None
    if not 0 < n < float("inf"):
        raise _bad(name, value, what)
    return n


def integer(name: str, value: object) -> int | None:
    """Any whole number (SIM_SEED); unset gives None."""
    if unset(value):
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise _bad(name, value, "a whole number") from None


# Every variable the gate reads from the command line (`robot -v NAME:value`), with what it is: the one list the
# check of command-line names and the README's table follow.
KNOWN: dict[str, str] = {
    "BOARD": "the board (any of the guide's names)",
    "LAB": "the lab (a name in variables/labs, or a lab file); default sim",
    "RELEASE": "the release judged against (default: the newest; a,b mixes)",
    "REPEAT": "a cap on the runs of any command (default: variables/budget.yaml: up to 20 for a command of "
    "seconds, 3 for one of minutes)",
    "AGGREGATE": "median or best",
    "INCONCLUSIVE": "fail or pass",
    "TOLERANCE": "one tolerance for every criterion",
    "TOLERANCES": "<glob>=<fraction>,... per criterion",
    "BOOT_CYCLES": "boots per boot-time value (default: the guide's, 20; fewer never passes)",
    "DURATION": "network test seconds",
    "ON_MISSING_TOOL": "fail or skip",
    "FAULTS": "faults the simulated board injects",
    "SIM_SPEED": "the simulated board's speed (auto or a factor)",
    "SIM_SEED": "the simulated board's random seed",
    "SIM_SPREAD": "the simulated board's widest relative spread",
    "CALIBRATE": "an A/A calibration run: every command runs this many times (2 or more) on a known-good board",
    "SIM_NOISE": "the simulated board's noise regime (variables/sim.yaml: quiet, realistic, published, harsh)",
    "BOARD_WAIT": "seconds a gate waits for a board another gate drives (default 0: refuse at once, naming it)",
    "SQUAD": "publish the finished run to SQUAD: a project's URL, lab (the lab's squad section) or off",
    "BASELINE": "the run each criterion is also compared with: last-accepted (default), a run, or none",
    "BASELINE_GATES": "true: a criterion worse than its baseline fails (default false: reported)",
}
# Set by pabot in each of its robot processes (PABOTQUEUEINDEX, PABOTLASTLEVEL, ... and CALLER_ID).
PABOT = ("CALLER_ID",)
PABOT_PREFIX = "PABOT"
# A user's own command-line variable that no suite of the run declares: name it with this prefix.
USER_PREFIX = "USER_"


def _norm(name: str) -> str:
    """Robot's own normalisation of a variable name: case, spaces and underscores do not count."""
    return name.strip().removeprefix("${").removesuffix("}").lower().replace(" ", "").replace("_", "")


def cli_name(option: str) -> str:
    """The name in a `-v` option's value (`NAME:value`, `NAME: type:value`, or a bare `NAME`)."""
    return option.split(":", 1)[0].strip()


def unknown_names(given: Iterable[str], declared: Iterable[str] = ()) -> list[str]:
    """The command-line variable names the gate does not know, that no suite or resource of the run declares in
    its Variables section, and that do not carry the USER_ prefix."""
    known = {_norm(n) for n in (*KNOWN, *PABOT, *declared)}
    return [n for n in given if _norm(n) not in known and not n.strip().upper().startswith((USER_PREFIX, PABOT_PREFIX))]


def check_names(given: Iterable[str], declared: Iterable[str] = ()) -> None:
    """A `-v` name the gate does not know is an error that lists the known ones (a misspelled REPEAT would
    otherwise be ignored)."""
    unknown = unknown_names(given, declared)
    if unknown:
        names = ", ".join(f"-v {n}" for n in unknown)
        raise VariableError(
            f"unknown variable {names}: the gate reads {', '.join(KNOWN)} (your own suites' variables: declare "
            f"them in a *** Variables *** section, or name them {USER_PREFIX}<name>)"
        )


@dataclass(frozen=True)
class RunVars:
    repeat: int | None  # None: the budget decides (variables/budget.yaml)
    aggregate: str
    inconclusive: str
    on_missing_tool: str
    boot_cycles: int
    duration: float | None
    calibrate: int = 0  # CALIBRATE: every command runs this many times in this boot, whatever it decides (A/A)
    baseline_gates: bool = False


def read(get: Callable[[str], object]) -> RunVars:
    """Every run variable's value checked (`get(name)` reads one: Robot's variables in a run), before anything
    runs: the gate's Open Run and `robot --dryrun` use this one check. A bad value names itself."""
    speed = get("SIM_SPEED")
    if str(speed).strip().lower() != "auto":  # the simulated board's own default, said as a word
        positive("SIM_SPEED", speed, "auto or a positive factor (how much faster than real time)")
    integer("SIM_SEED", get("SIM_SEED"))
    spread = get("SIM_SPREAD")
    if not unset(spread):
        try:
            ok = 0 <= float(str(spread).strip()) < 10
        except ValueError:
            ok = False
        if not ok:
            raise _bad("SIM_SPREAD", spread, "a relative spread from 0 up to 10 (1 = each guide's own min/max)")
    if not unset(get("SIM_NOISE")):
        from perfgate.decision.noiseclass import regime_from

        try:
            regime_from(str(get("SIM_NOISE")))
        except PerfgateError as e:
            raise _bad("SIM_NOISE", get("SIM_NOISE"), str(e).split(": ", 1)[-1]) from None
    whole("BOARD_WAIT", get("BOARD_WAIT"), 0, minimum=0)  # read where the board is taken (perfgate.robot.board)
    squad = get("SQUAD")  # `lab` needs the lab: the board library checks it when the lab loads
    if not unset(squad) and str(squad).strip().lower() not in ("lab", *squad_target.OFF_WORDS):
        squad_target.from_project_url(str(squad))
    return RunVars(
        repeat=None if unset(get("REPEAT")) else whole("REPEAT", get("REPEAT"), 1),
        aggregate=choice("AGGREGATE", get("AGGREGATE"), "median", ("best", "median")),
        inconclusive=choice("INCONCLUSIVE", get("INCONCLUSIVE"), "fail", ("fail", "pass")),
        on_missing_tool=choice("ON_MISSING_TOOL", get("ON_MISSING_TOOL"), "fail", ("fail", "skip")),
        boot_cycles=whole("BOOT_CYCLES", get("BOOT_CYCLES"), BOOT_CYCLES),
        duration=positive("DURATION", get("DURATION"), "a positive number of seconds"),
        calibrate=0 if unset(get("CALIBRATE")) else whole("CALIBRATE", get("CALIBRATE"), 2),
        baseline_gates=choice("BASELINE_GATES", get("BASELINE_GATES"), "false", ("true", "false")) == "true",
    )
