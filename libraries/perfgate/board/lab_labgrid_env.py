"""The `kind: labgrid-env` lab file's `labgrid_env:` mapping: the user's own labgrid environment file and target.

    name: bench
    kind: labgrid-env
    labgrid_env: {file: env.yaml, target: main}    # file: relative to this lab file (or absolute)

Power and console come from the target's labgrid drivers (a PowerProtocol driver, a ConsoleProtocol driver),
activated in this process through labgrid's Environment and Target API (perfgate.board.labgrid_env): every power
backend labgrid has works as the lab's own pytest-labgrid tests use it. A target with no power driver falls back
to the lab's `power` (default: a soft reboot). `serial.baud`, `login`, `ssh`, `tester`, `has`, `storage`,
`timeouts`, `boards` are the lab's, as in any lab; `serial.port` is the target's and is not given here.

Lab data only: lab.py validates it with the rest of the lab file (no labgrid import here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from perfgate.errors import DataError

KIND = "labgrid-env"
KEY = "labgrid_env"
KEYS = ("file", "target")
FROM_ENV = "labgrid-env"  # the serial port until the target's console driver is active


class LabFile(Protocol):
    """What this module reads of a lab (perfgate.board.lab.Lab)."""

    data: dict[str, Any]
    path: Path

    def error(self, message: str, *key: str | int) -> DataError: ...


def validate(lab: LabFile) -> None:
    """Check `labgrid_env:` (only in a labgrid-env lab, and required there) and fill the serial port's placeholder."""
    d = lab.data
    env = d.get(KEY)
    if d.get("kind") != KIND:
        if env is not None:
            raise lab.error(f"only a `kind: {KIND}` lab takes its board from a labgrid environment file", KEY)
        return
    if not isinstance(env, dict):
        raise lab.error("must be a mapping {file: <labgrid environment file>, target: <target name>}", KEY)
    unknown = sorted(set(map(str, env)) - set(KEYS))
    if unknown:
        raise lab.error(f"unknown key (known: {', '.join(KEYS)})", KEY, unknown[0])
    file = env.get("file")
    if not isinstance(file, str) or not file.strip():
        raise lab.error("must name the labgrid environment file (relative to the lab file, or absolute)", KEY, "file")
    target = env.get("target", "main")
    if not isinstance(target, str) or not target.strip():
        raise lab.error(f"must be a target name of the environment file, not {target!r}", KEY, "target")
    d[KEY] = {"file": file, "target": target}
    serial = d.get("serial") or {}
    if not isinstance(serial, dict):
        raise lab.error("must be a mapping {baud: <rate>} (the target's console driver gives the port)", "serial")
    if serial.get("port") not in (None, FROM_ENV):
        raise lab.error("a labgrid-env lab's console is its target's console driver: give no port here", "serial",
                        "port")  # fmt: skip
    d["serial"] = {**serial, "port": FROM_ENV}


def env_file(lab: LabFile) -> Path:
    """The environment file, a relative name read from the lab file's folder."""
    p = Path(str(lab.data[KEY]["file"])).expanduser()
    return p if p.is_absolute() else lab.path.parent / p


def target(lab: LabFile) -> str:
    return str(lab.data[KEY]["target"])
