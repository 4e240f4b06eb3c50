"""A Robot variable's value for the gate's libraries, or a default outside a robot run (a Python test, a script)."""

from __future__ import annotations

from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError


def var(name: str, default: object = None) -> object:
    """`${name}`'s value in the running robot; `default` when it is not set, or when no robot is running."""
    try:
        return BuiltIn().get_variable_value("${" + name + "}", default)
    except RobotNotRunningError:
        return default
