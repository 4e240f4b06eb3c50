"""The `kind: labgrid` lab file's `labgrid:` mapping: where the coordinator is and which place to take.

    name: farm
    kind: labgrid
    labgrid: {coordinator: lab-host:20408, tags: {board: "{board}"}}

`labgrid:` keys: `coordinator` (HOST:PORT; absent: LG_COORDINATOR, else 127.0.0.1:20408), `place` (a place name)
and/or `tags` (tag filters, `{board}` is the gate's BOARD; neither: `board=<BOARD>`), `wait` (seconds to wait for
a free place, default 600), `power_delay` (seconds off in a power-cycle, labgrid's default 2).
The console and the power come from the place's resources; `serial.baud`, `power`, `ssh` in the lab are used only
when the place does not have them (no power resource: the lab's `power`, default a soft reboot).

Lab data, not the farm: lab.py validates it with the rest of the lab file, and the farm (perfgate.farm) reads it
when it takes a place. It knows the lab only as LabFile (its data and how it names an error), so it imports no
other module of perfgate.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from perfgate.errors import DataError

KEYS = ("coordinator", "place", "tags", "wait", "power_delay")
TAG_KEY = re.compile(r"[a-z][a-z0-9_]+")  # labgrid.remote.common.TAG_KEY, matched whole
TAG_VALUE = re.compile(r"[^\s=]+")
DEFAULT_WAIT = 600.0
FROM_PLACE = "labgrid-place"  # the serial port until the place's NetworkSerialPort is known


class LabFile(Protocol):
    """What this module reads of a lab (perfgate.board.lab.Lab)."""

    data: dict[str, Any]

    def error(self, message: str, *key: str | int) -> DataError: ...


def validate(lab: LabFile) -> None:
    """Check `labgrid:` (only in a labgrid lab) and fill what the place will give (serial port, power)."""
    d = lab.data
    lg = d.get("labgrid")
    if d.get("kind") != "labgrid":
        if lg is not None:
            raise lab.error("only a `kind: labgrid` lab takes its board from a labgrid coordinator", "labgrid")
        return
    if lg is None:
        lg = {}
    if not isinstance(lg, dict):
        raise lab.error("must be a mapping {coordinator: HOST:PORT, place: <name> or tags: {key: value}}", "labgrid")
    unknown = sorted(set(map(str, lg)) - set(KEYS))
    if unknown:
        raise lab.error(f"unknown key (known: {', '.join(KEYS)})", "labgrid", unknown[0])
    coordinator = lg.get("coordinator")
    if coordinator is not None and not (isinstance(coordinator, str) and re.fullmatch(r"\S+", coordinator)):
        raise lab.error(f"must be HOST:PORT, not {coordinator!r}", "labgrid", "coordinator")
    place = lg.get("place")
    if place is not None and not (isinstance(place, str) and TAG_VALUE.fullmatch(place)):
        raise lab.error(f"must be a place name, not {place!r}", "labgrid", "place")
    tags = lg.get("tags") or {}
    if not isinstance(tags, dict):
        raise lab.error("must be a mapping of tag filters, e.g. {board: am62xx_sk}", "labgrid", "tags")
    for key, value in tags.items():
        if not TAG_KEY.fullmatch(str(key)):
            raise lab.error("a labgrid tag key is lower-case letters, digits and _", "labgrid", "tags", key)
        if not isinstance(value, str | int) or not TAG_VALUE.fullmatch(str(value)):
            raise lab.error(f"must be a tag value without spaces or `=`, not {value!r}", "labgrid", "tags", key)
    lg["tags"] = {str(k): str(v) for k, v in tags.items()}
    for key, default in (("wait", DEFAULT_WAIT), ("power_delay", 2.0)):
        value = lg.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0 or (key == "wait" and not value):
            raise lab.error(f"must be a number of seconds{' above 0' if key == 'wait' else ''}, not {value!r}",
                            "labgrid", key)  # fmt: skip
        lg[key] = float(value)
    d["labgrid"] = lg
    serial = d.get("serial") or {}
    if not isinstance(serial, dict):
        raise lab.error("must be a mapping {baud: <rate>} (the place gives the port)", "serial")
    if serial.get("port") not in (None, FROM_PLACE):
        raise lab.error("a labgrid lab's console is the place's NetworkSerialPort: give no port here", "serial",
                        "port")  # fmt: skip
    d["serial"] = {**serial, "port": FROM_PLACE}


def filters(lab: LabFile, board: str) -> dict[str, str]:
    """The reservation's tag filters: the lab's tags ({board} filled in), plus name=<place>; neither: board=BOARD."""
    lg = lab.data.get("labgrid") or {}
    out = {k: v.replace("{board}", board) for k, v in (lg.get("tags") or {}).items()}
    if lg.get("place"):
        out["name"] = lg["place"]
    return out or {"board": board}


def settings(lab: LabFile) -> dict[str, Any]:
    return dict(lab.data.get("labgrid") or {})
