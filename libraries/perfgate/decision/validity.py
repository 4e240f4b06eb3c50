"""Whether a sample may be judged at all: the board's state around the command that measured it, and values that
say the tool measured nothing (issue 28).

Before and after each command on the board's Linux the gate reads its state with one short shell command
(`read_command`, the files of variables/board_state.yaml): CPU clock and governor, thermal zones and cooling
devices, the link's speed, duplex and carrier changes, the block devices' models and mounts, the boot id. A sample
taken while throttled, at a clock below the board profile's (`board_state.cpu_mhz`), under a governor that holds the
clock low, over a link slower than the guide's (`board_state.link_mbps`) or one that went down during the run, or
across a reboot is INVALID with that reason (`problems`): set aside, never averaged, run again within the budget.
A file that is not there says nothing: only a positive sign of trouble invalidates.

A value can say so too (`failed_run`, `implausible`): TI's own published means average failed runs in as zeros
(lat_mem_rd, netperf and UDP cells with min 0.00); a throughput or a latency of exactly zero where the guide publishes
a number is a run that failed (a dropped connection, a tool that printed 0), not a slow one: the runner sets it aside
and the judge (decision.judge) asks it of every sample too.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.errors import DataError
from perfgate.model import Criterion

INTERFACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,14}")  # a Linux interface name (IFNAMSIZ 16)


def settings_path() -> Path:
    return paths.variables() / "board_state.yaml"


def settings() -> dict:
    data = load_mapping(settings_path(), "the board-state settings (a mapping)")
    if not isinstance(data.get("files"), list) or not all(isinstance(f, str) for f in data["files"]):
        raise DataError("files: must be a list of paths", settings_path(), None)
    return data


def _glob_quoted(path: str) -> str:
    """`path` shell-quoted except its `*`, which the board's shell expands."""
    return "*".join(shlex.quote(part) if part else "" for part in path.split("*"))


def read_command(interface: str, conf: dict | None = None) -> str:
    """The one command that reads the board's state: `path:value` lines, then the block devices' mounts."""
    conf = conf or settings()
    if not INTERFACE.fullmatch(interface):
        raise DataError(f"interface {interface!r} is not an interface name", settings_path(), None)
    files = [_glob_quoted(str(f).replace("{interface}", interface)) for f in conf["files"]]
    mounts = shlex.quote(str(conf.get("mounts", "^/dev/")))
    return f"grep -Hs . {' '.join(files)}; grep -Hs {mounts} /proc/mounts; true"


@dataclass
class State:
    """The board's state as one read found it (what was not there stays empty)."""

    boot_id: str = ""
    cpu_khz: list[int] = field(default_factory=list)
    governors: list[str] = field(default_factory=list)
    max_khz: list[int] = field(default_factory=list)
    temps_mc: list[int] = field(default_factory=list)
    cooling: list[int] = field(default_factory=list)  # each cooling device's cur_state
    cooling_trans: int | None = None  # the cooling devices' state changes so far
    speed: int | None = None  # Mb/s (-1: no link)
    duplex: str = ""
    carrier_changes: int | None = None
    storage: dict[str, str] = field(default_factory=dict)  # block device -> its model
    mounts: list[str] = field(default_factory=list)  # `/dev/mmcblk1p2 / ext4`
    raw: str = ""  # what the read printed (kept as evidence)

    def summary(self) -> dict:
        """The state in a few fields (metrics.json, the log); absent ones left out."""
        out: dict = {}
        if self.boot_id:
            out["boot"] = self.boot_id[:8]
        if self.cpu_khz:
            out["cpu_mhz"] = min(self.cpu_khz) // 1000
        if self.governors:
            out["governor"] = ",".join(sorted(set(self.governors)))
        if self.temps_mc:
            out["temp_c"] = round(max(self.temps_mc) / 1000, 1)
        if self.cooling:
            out["throttle"] = sum(self.cooling)
        if self.speed is not None:
            out["link"] = f"{self.speed}/{self.duplex or '?'}"
        return out

    def describe(self) -> str:
        return describe(self.summary())

    def entry(self) -> dict:
        """run.json's state of the board: the summary, its storage devices and their mounts."""
        return {**self.summary(), "storage": self.storage, "mounts": self.mounts}


def describe(s: dict) -> str:
    """A state summary (State.summary) in words: `CPU 1400 MHz, performance, 46 °C, link 1000/full`."""
    parts = [f"CPU {s['cpu_mhz']} MHz" if "cpu_mhz" in s else "CPU clock unknown", s.get("governor", "")]
    parts += [f"{s['temp_c']:g} °C" if "temp_c" in s else "", f"throttle {s.get('throttle')}" if s.get("throttle")
              else "", f"link {s['link']}" if "link" in s else ""]  # fmt: skip
    if s.get("storage"):
        parts.append("storage " + ", ".join(f"{dev} {model}" for dev, model in s["storage"].items()))
    if s.get("mounts"):
        parts.append("mounted " + ", ".join(s["mounts"]))
    return ", ".join(p for p in parts if p)


def _int(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def parse(text: str) -> State:
    """A read's output (`path:value` lines; /proc/mounts lines) as a State; lines it does not know are ignored."""
    s = State()
    trans: list[int] = []
    for line in text.splitlines():
        path, sep, value = line.partition(":")
        if not sep:
            continue
        value, name = value.strip(), path.rsplit("/", 1)[-1]
        number = _int(value)
        if path == "/proc/mounts":
            words = value.split()
            if len(words) >= 3:
                s.mounts.append(" ".join(words[:3]))
        elif name == "boot_id":
            s.boot_id = value
        elif name == "scaling_governor":
            s.governors.append(value)
        elif name == "duplex":
            s.duplex = value
        elif path.startswith("/sys/block/") and name in ("model", "name"):
            s.storage[path.split("/")[3]] = value
        elif number is None:
            continue
        elif name == "scaling_cur_freq":
            s.cpu_khz.append(number)
        elif name == "cpuinfo_max_freq":
            s.max_khz.append(number)
        elif name == "temp" and "thermal_zone" in path:
            s.temps_mc.append(number)
        elif name == "cur_state" and "cooling_device" in path:
            s.cooling.append(number)
        elif name == "total_trans" and "cooling_device" in path:
            trans.append(number)
        elif name == "speed":
            s.speed = number
        elif name == "carrier_changes":
            s.carrier_changes = number
    s.cooling_trans = sum(trans) if trans else None
    return s


def problems(before: State | None, after: State | None, expect: dict, rules: dict, suite: str) -> list[str]:
    """Why a sample taken between the reads `before` and `after` is INVALID (empty: nothing says so)."""
    out: list[str] = []
    margin = 1 - float(rules.get("clock_margin_pct", 5)) / 100
    mhz = expect.get("cpu_mhz")
    link = expect.get("link_mbps")
    for when, s in (("before", before), ("after", after)):
        if s is None:
            continue
        if any(s.cooling):
            temp = f", {max(s.temps_mc) / 1000:g} °C" if s.temps_mc else ""
            out.append(f"throttled (cooling device state {max(s.cooling)}{temp}) {when} the run")
        bad = sorted(set(s.governors) & set(rules.get("bad_governors") or []))
        if bad:
            out.append(f"CPU governor {', '.join(bad)} {when} the run")
        pinned = set(s.governors) and set(s.governors) <= set(rules.get("pinned_governors") or [])
        if mhz and s.cpu_khz and pinned and min(s.cpu_khz) < mhz * 1000 * margin:
            out.append(f"CPU clock {min(s.cpu_khz) // 1000} MHz {when} the run, below the board profile's {mhz} MHz")
        if mhz and s.max_khz and max(s.max_khz) < mhz * 1000 * margin:
            out.append(f"the CPU's highest clock is {max(s.max_khz) // 1000} MHz, below the board profile's {mhz} MHz")
        if suite in (rules.get("link_suites") or []):
            if link and s.speed is not None and 0 < s.speed < link:
                out.append(f"link at {s.speed} Mb/s {when} the run, slower than the guide's {link} Mb/s")
            if s.duplex == "half" and expect.get("link_duplex", "full") == "full":
                out.append(f"link at half duplex {when} the run")
    if before is not None and after is not None:
        throttled = _rise(before.cooling_trans, after.cooling_trans)
        if throttled:
            out.append(f"throttled during the run (cooling devices changed state {throttled} times)")
        relinked = _rise(before.carrier_changes, after.carrier_changes)
        if relinked and suite in (rules.get("link_suites") or []):
            out.append(f"the link went down during the run ({relinked} carrier changes)")
        if before.boot_id and after.boot_id and before.boot_id != after.boot_id:
            out.append("the board rebooted during the run")
    return list(dict.fromkeys(out))


def _rise(before: int | None, after: int | None) -> int:
    """How much a counter rose between two reads (0 when either read lacks it)."""
    return after - before if before is not None and after is not None and after > before else 0


TIME_UNITS = {"us", "usec", "usecs", "ns", "ms", "s", "sec", "seconds"}


def failed_run(c: Criterion, value: float) -> str | None:
    """Why `value` is no measurement of `c` (None: it is one): zero (or less) where the guide publishes a positive
    value in a quantity never zero on a working board: a throughput or a rate, a latency (0 % CPU load or 0 % loss
    are fine results)."""
    if c.direction == "match" or c.value <= 0 or value > 0:
        return None
    if c.direction == "lower" and c.unit.lower() not in TIME_UNITS:
        return None
    return f"measured {value:g} {c.unit} where the guide publishes {c.value:g} {c.unit}: the run measured nothing"


def implausible(c: Criterion, value: float) -> str | None:
    """Why a value says the tool measured nothing (0 throughput, 0 latency, 100 % loss) where the guide's value is
    far from it, or None: such a run is INVALID, not a slow one."""
    name = f"{c.metric} {c.row} {c.unit}".lower()
    zero = failed_run(c, value)
    if zero:
        return zero
    if "loss" in name and "%" in c.unit and value >= 100 and c.value < 50:
        return f"{value:g} % loss where the guide publishes {c.value:g} %: nothing got through"
    return None
