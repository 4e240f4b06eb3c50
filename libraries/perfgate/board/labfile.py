"""A lab file's data as the gate holds it (`Lab`), and the templates its values may hold (`expand`).

What the drivers (ssh, network, power, strategy, the launcher) and the lab kinds (perfgate.labkinds) read of a lab:
it imports nothing that dispatches to a lab kind. Loading and validating the file is perfgate.board.lab's.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfgate.errors import DataError

TEMPLATE = re.compile(r"\{(python|board|state|sim_speed|faults|sim_seed|sim_spread|sim_noise|lab)(?:\.(\w+))?\}")


@dataclass
class Lab:
    name: str
    path: Path
    data: dict[str, Any]  # the validated lab, per-board overrides applied
    profile_overrides: dict[str, Any] = field(default_factory=dict)
    lines: dict[tuple, int] = field(default_factory=dict)
    describe: Callable[[Lab], str | None] | None = field(default=None, repr=False)  # its kind's banner

    @property
    def kind(self) -> str:
        return self.data["kind"]

    @property
    def virtual(self) -> bool:
        return bool(self.data.get("virtual"))

    @property
    def console_only(self) -> bool:
        """`ssh: none`: the board is reached over its serial console only (no network, no SSH)."""
        return self.data.get("ssh") == "none"

    @property
    def launched(self) -> bool:
        """The gate starts the board itself (sim, qemu): the lab has a `start` command."""
        return bool(self.data.get("start"))

    @property
    def power_mode(self) -> str:
        p = self.data.get("power")
        return p if isinstance(p, str) else "command"

    def banner(self) -> str:
        """What the console, the log and the report say of the lab: its kind's words (perfgate.labkinds), else
        whether it is hardware."""
        said = self.describe(self) if self.describe is not None else None
        if said:
            return said
        if self.virtual:
            return f"LAB={self.name}: virtual board (the lab says so), not hardware"
        return f"LAB={self.name}: hardware lab ({self.data.get('description') or self.path.name})"

    def file(self, value: str) -> Path:
        """A path the lab names (ssh.key, ssh.known_hosts, labgrid_env.file): `~` expanded, a relative one read
        from the lab file's folder."""
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.path.parent / p

    def error(self, message: str, *key: str | int) -> DataError:
        return DataError(f"{'.'.join(map(str, key))}: {message}" if key else message, self.path, _line(self.lines, key))


def _line(lines: dict[tuple, int], key: tuple) -> int | None:
    key = tuple(str(k) for k in key)
    while key:
        if key in lines:
            return lines[key]
        key = key[:-1]
    return lines.get(()) if lines else None


def expand(value: Any, context: dict[str, Any], quote: bool = False) -> Any:
    """Fill {python}, {board}, {state}, {state.<key>}, {sim_speed}, {faults}, {sim_seed}, {sim_spread}, {sim_noise} into
    strings.
    A leading bare `python` in a command becomes this interpreter, so commands run in the gate's environment.
    `quote`: the strings are shell commands (power, stop): every value filled in is shell-quoted."""
    if isinstance(value, dict):
        return {k: expand(v, context, quote) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v, context, quote) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match) -> str:
        text = _value(m)
        return shlex.quote(text) if quote and text else text

    def _value(m: re.Match) -> str:
        name, sub = m.group(1), m.group(2)
        if name == "python":
            return sys.executable
        if name == "state" and sub:
            state = context.get("state_data") or {}
            if sub not in state:
                raise DataError(f"the board's state file has no {sub!r} (it has {', '.join(state) or 'nothing'})")
            return str(state[sub])
        v = context.get(name)
        return "" if v is None else str(v)

    out = TEMPLATE.sub(one, value)
    if out.startswith("python ") or out.startswith("python3 "):
        out = shlex.quote(sys.executable) + out[out.index(" ") :]
    return out
