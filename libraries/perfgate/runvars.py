"""The run's own variables (`robot -v NAME:value`, or an argument file), checked before anything is measured.

A bad value is a `VariableError` that names the variable, the value given and what it must be, so that the console
says `variable REPEAT: ... not 'abc'` instead of a bare ValueError somewhere in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Iterable

from perfgate.errors import DataError


class VariableError(DataError):
    """A run variable with a value the gate cannot use."""


BOOT_CYCLES = 3  # boots per boot-time value when the BOOT_CYCLES variable is unset (the guides used 20)


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
