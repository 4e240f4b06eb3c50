"""A `kind: labgrid-env` lab's board through labgrid itself: the user's environment file (the one their
pytest-labgrid tests use) read by labgrid's Environment, its target's drivers activated in this process.

- power: the target's PowerProtocol driver (ExternalPowerDriver, NetworkPowerDriver with any of labgrid's PDU
  backends, PDUDaemonDriver, TasmotaPowerDriver, USBPowerDriver, YKUSHPowerDriver, ModbusCoilDriver...), as a
  perfgate.board.power.PowerDriver the board strategy takes in place of the lab's `power`;
- console: the target's ConsoleProtocol driver (SerialDriver on a RawSerialPort or a NetworkSerialPort,
  ExternalConsoleDriver...) read by perfgate's Console (one reader thread, host time stamps, serial.log), through a
  pyserial-like port over the driver's read/write.

`check()` reads the file and the target without activating anything (perfgate lab check, robot --dryrun).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

import yaml

from perfgate.board import lab_labgrid_env
from perfgate.board.console import Console
from perfgate.board.power import DriverPower, PowerError
from perfgate.errors import DataError

# labgrid records each driver call as a step on one stack for the whole process: the console's reader thread and
# the strategy's power calls must not interleave their steps, so every driver call here holds this lock (a console
# read holds it at most 50 ms).
CALLS = threading.Lock()


def _environment(path: Path):
    from labgrid import Environment

    if not path.is_file():
        raise DataError(f"no such labgrid environment file {str(path)!r}")
    try:
        return Environment(config_file=str(path))
    except Exception as e:  # labgrid's own message names what it could not read
        raise DataError(f"labgrid cannot read this environment file: {type(e).__name__}: {e}", path) from None


def _target(env, name: str, path: Path):
    targets = sorted((env.config.data.get("targets") or {}).keys())
    if name not in targets:
        raise DataError(f"no target {name!r} in the environment file (targets: {', '.join(targets) or 'none'})", path)
    try:
        return env.get_target(name)
    except Exception as e:
        raise DataError(f"labgrid cannot set up target {name!r}: {type(e).__name__}: {e}", path) from None


# driver attributes that are command lines labgrid runs on this host (shlex.split, then subprocess)
COMMANDS = {"ExternalPowerDriver": ("cmd_on", "cmd_off", "cmd_cycle"), "ExternalConsoleDriver": ("cmd",)}


def check(lab, command_problem: Callable[[object], str | None]) -> list[DataError]:
    """The environment file, the target, a console driver, the local serial devices it names and the commands its
    external drivers run (`command_problem` says what is wrong with one): without activating a driver (nothing is
    opened, powered or connected). Each problem in the environment file names its line and key."""
    from labgrid.protocol import ConsoleProtocol

    path = lab_labgrid_env.env_file(lab)
    name = lab_labgrid_env.target(lab)
    try:
        env = _environment(path)
    except DataError as e:  # no file: said at the lab's key; labgrid's own complaints: at the environment file
        return [e] if e.path else [lab.error(e.message, "labgrid_env", "file")]
    targets = sorted((env.config.data.get("targets") or {}).keys())
    if name not in targets:
        return [lab.error(f"no target {name!r} in {str(path)!r} (targets: {', '.join(targets) or 'none'})",
                          "labgrid_env", "target")]  # fmt: skip
    try:
        target = _target(env, name, path)
    except DataError as e:
        return [e]
    lines = _lines(path)

    def problem(message: str, *key: str) -> DataError:
        where = ("targets", name, *key)
        return DataError(f"{'.'.join(where)}: {message}", path, _line(lines, where))

    problems: list[DataError] = []
    try:
        target.get_driver(ConsoleProtocol, activate=False)
    except Exception:
        problems.append(problem("the target has no console driver (ConsoleProtocol: SerialDriver...)", "drivers"))
    for resource in target.resources:
        port = getattr(resource, "port", None)
        kind = type(resource).__name__
        if kind == "RawSerialPort" and isinstance(port, str) and not os.path.exists(port):
            problems.append(problem(f"{port!r} does not exist on this host", "resources", kind, "port"))
    for driver in target.drivers:
        kind = type(driver).__name__
        for attribute in COMMANDS.get(kind, ()):
            command = getattr(driver, attribute, None)
            said = command_problem(command) if isinstance(command, str) and command.strip() else None
            if said:
                problems.append(problem(said, "drivers", kind, attribute))
    return problems


def _lines(path: Path) -> dict[tuple, int]:
    """Each key path of a YAML file (list items left out of the path: labgrid takes `drivers:` as a mapping or as
    a list of one-key mappings) -> its line."""
    lines: dict[tuple, int] = {}

    def walk(node: yaml.Node, where: tuple) -> None:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                lines.setdefault((*where, str(k.value)), k.start_mark.line + 1)
                walk(v, (*where, str(k.value)))
        elif isinstance(node, yaml.SequenceNode):
            for v in node.value:
                walk(v, where)

    with contextlib.suppress(OSError, yaml.YAMLError):
        node = yaml.compose(path.read_text(encoding="utf-8"))
        if node is not None:
            walk(node, ())
    return lines


def _line(lines: dict[tuple, int], key: tuple) -> int | None:
    while key:
        if key in lines:
            return lines[key]
        key = key[:-1]
    return None


class LabgridEnv:
    """The target of a labgrid environment file, its drivers activated on demand, deactivated by close()."""

    def __init__(self, path: Path, target: str) -> None:
        self.path = path
        self.env = _environment(path)
        self.target = _target(self.env, target, path)

    @classmethod
    def from_lab(cls, lab) -> LabgridEnv:
        return cls(lab_labgrid_env.env_file(lab), lab_labgrid_env.target(lab))

    def power(self) -> LabgridEnvPower | None:
        """The target's power driver, activated; None when the target has none (the lab's `power` then)."""
        from labgrid.protocol import PowerProtocol

        try:
            driver = self.target.get_driver(PowerProtocol, activate=False)
        except Exception:
            return None
        try:
            with CALLS:
                self.target.activate(driver)
        except Exception as e:
            raise PowerError(f"labgrid {type(driver).__name__} of target {self.target.name} ({self.path}): "
                             f"{type(e).__name__}: {e}") from None  # fmt: skip
        return LabgridEnvPower(driver, self.target.name)

    def console(self, baud: int = 115200, transcript: Path | None = None) -> Console:
        """perfgate's console over the target's console driver (opened by Console.open())."""
        from labgrid.protocol import ConsoleProtocol

        try:
            driver = self.target.get_driver(ConsoleProtocol, activate=False)
        except Exception as e:
            raise DataError(f"target {self.target.name!r} has no console driver: {e}", self.path) from None
        return LabgridConsole(self.target, driver, baud, transcript)

    def close(self) -> None:
        with CALLS, contextlib.suppress(Exception):  # the drivers' own clean-up failing: nothing a run can do
            self.target.deactivate_all_drivers()


class LabgridEnvPower(DriverPower):
    """on/off/cycle through a labgrid PowerProtocol driver (a perfgate.board.power.PowerDriver)."""

    lock = CALLS

    def __init__(self, driver, target: str) -> None:
        self.driver = driver
        self.target = target
        self.name = f"labgrid {type(driver).__name__}"

    def where(self) -> str:
        return f"labgrid target {self.target} ({type(self.driver).__name__})"


class _DriverPort:
    """What perfgate's Console reads and writes, over a labgrid ConsoleProtocol driver."""

    in_waiting = 0  # the driver reads whatever is waiting (up to max_size) itself

    def __init__(self, target, driver) -> None:
        self.target = target
        self.driver = driver

    def read(self, size: int = 1) -> bytes:
        from pexpect import TIMEOUT

        try:
            with CALLS:
                return self.driver.read(size=1, timeout=0.05, max_size=4096)
        except TIMEOUT:
            return b""
        except Exception as e:  # Console's reader ends on OSError, naming it
            raise OSError(f"labgrid {type(self.driver).__name__}: {type(e).__name__}: {e}") from None

    def write(self, data: bytes) -> None:
        try:
            with CALLS:
                self.driver.write(data)
        except Exception as e:
            raise OSError(f"labgrid {type(self.driver).__name__}: {type(e).__name__}: {e}") from None

    def flush(self) -> None:
        """The driver writes at once."""

    def close(self) -> None:
        with CALLS, contextlib.suppress(Exception):
            self.target.deactivate(self.driver)


class LabgridConsole(Console):
    """perfgate's Console whose port is a labgrid target's console driver."""

    def __init__(self, target, driver, baud: int = 115200, transcript: Path | None = None) -> None:
        super().__init__(f"labgrid {type(driver).__name__} of target {target.name}", baud, transcript)
        self.target = target
        self.driver = driver

    def _connect(self):
        try:
            with CALLS:
                self.target.activate(self.driver)
        except Exception as e:
            raise OSError(f"{type(e).__name__}: {e}") from None
        return _DriverPort(self.target, self.driver)
