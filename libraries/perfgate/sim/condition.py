"""The simulated board's condition, as its /sys files show it (perfgate.sim.programs.files), and the faults that spoil
a run (perfgate.sim.faults: invalid-run, throttle, link, governor).

When a workload tool starts, `start` applies the faults that hit this run: the tool fails as the real one fails
(`invalid-run`: variables/sim_failures.yaml), or the board throttles (cooling device state 2, its state-change
count up, the tool's numbers 30 % worse), its link renegotiates at a lower speed (carrier changes up; throughput
capped at 95 % of that speed), or its governor holds the clock at its lowest (the numbers worse by the clock's
ratio). A spoilt state shows in the /sys files from the tool's start until the board's state is next read after the
tool ended (what the gate reads after each command), then the board recovers (`settle`).
"""

from __future__ import annotations

import dataclasses
import re
import shlex
import uuid
from dataclasses import dataclass, field

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.sim.answers import Answer
from perfgate.sim.faults import Faults
from perfgate.sim.shared import Board

NETWORK_TOOLS = frozenset({"iperf3", "iperf", "netperf"})
THROTTLED = 0.7  # a throttled board's numbers, of its own (constructed: only has to be clearly worse)
MIN_KHZ = 400_000  # the lowest clock governor:powersave holds (TI K3 boards' lowest OPP, 400 MHz)
SLOW = re.compile(r"(mbits|throughput|bits/sec|kpps)", re.IGNORECASE)  # what a slow link caps


@dataclass
class Condition:
    """What the board's /sys files say now."""

    max_khz: int
    governor: str = "performance"
    cur_khz: int = 0  # 0: max_khz
    cooling: int = 0  # the cooling device's cur_state
    cooling_trans: int = 0
    link_mbps: int = 1000
    carrier_changes: int = 1  # the link came up once at boot
    spoilt: list[str] = field(default_factory=list)  # what a fault changed, undone at the next state read
    ran: bool = False  # a spoilt tool has ended since: the next state read sees it, then the board recovers

    def khz(self) -> int:
        return self.cur_khz or self.max_khz


def of(board: Board) -> Condition:
    """The board's condition (made at its first use, at the board's full clock)."""
    if board.condition is None:
        board.condition = Condition(cpu_khz(board))
    return board.condition  # type: ignore[no-any-return]


def cpu_khz(board: Board) -> int:
    """The board's highest CPU clock: its guide's cpu_clock row, else its profile's, else its description's."""
    for c in board.data.criteria:
        if "cpu_clock" in c.name or "cpu_clock" in c.metric or "cpu_clock" in c.row:
            return int(c.value * 1000)
    mhz = (board.data.profile.get("board_state") or {}).get("cpu_mhz")
    if mhz:
        return int(mhz) * 1000
    m = re.search(r"(\d+(?:\.\d+)?)\s*GHz", str(board.data.profile.get("description", "")), re.IGNORECASE)
    return int(float(m.group(1)) * 1_000_000) if m else 1_000_000


def boot_id(booted_at: float) -> str:
    """/proc/sys/kernel/random/boot_id: one per boot."""
    return str(uuid.uuid5(uuid.NAMESPACE_OID, f"perfgate-sim-boot-{booted_at!r}"))


def _hits(faults: Faults, kind: str, tool: str) -> bool:
    """Whether the condition `kind` hits this run of `tool` (its first run, or every run with `:all`)."""
    if kind not in faults.conditions:
        return False
    what, every = faults.conditions[kind]
    if kind == "invalid-run" or kind == "throttle":
        if what != tool:
            return False
    elif kind == "link" and tool not in NETWORK_TOOLS:
        return False
    key = f"{kind}:{tool}"
    if every or key not in faults.fired:
        faults.fired.add(key)
        return True
    return False


def _worse(answer: Answer, factor: float, only: re.Pattern | None = None, cap: float | None = None) -> Answer:
    out = {}
    for k, v in answer.values.items():
        if only is not None and not only.search(k):
            out[k] = v
        elif cap is not None:
            out[k] = min(v, cap)
        elif (answer.directions.get(k) or "higher") == "lower":
            out[k] = v / factor
        else:
            out[k] = v * factor
    return dataclasses.replace(answer, values=out)


def start(cond: Condition, faults: Faults, answer: Answer) -> tuple[Answer, tuple[str, int] | None]:
    """A workload tool starts: (its answer as the faults leave it, (output, status) when this run fails)."""
    tool = answer.tool
    if _hits(faults, "invalid-run", tool):
        return answer, failure(tool, answer.command)
    if _hits(faults, "throttle", tool):
        cond.cooling, cond.cooling_trans = 2, cond.cooling_trans + 1
        cond.spoilt.append("throttle")
        answer = _worse(answer, THROTTLED)
    if _hits(faults, "link", tool):
        mbps = int(faults.conditions["link"][0])
        cond.link_mbps, cond.carrier_changes = mbps, cond.carrier_changes + 2  # down, up at the lower speed
        cond.spoilt.append("link")
        answer = _worse(answer, 1.0, SLOW, cap=mbps * 0.95)
    if _hits(faults, "governor", tool):
        cond.governor = faults.conditions["governor"][0]
        cond.cur_khz = min(MIN_KHZ, cond.max_khz)
        cond.spoilt.append("governor")
        answer = _worse(answer, cond.cur_khz / cond.max_khz)
    return answer, None


def ended(cond: Condition) -> None:
    """The tool ended: the next read of the board's state sees what it spoilt."""
    cond.ran = bool(cond.spoilt)


def settle(cond: Condition) -> None:
    """The board's state was read after a spoilt run: it recovers (cooler, the link back at full speed, the governor
    restored)."""
    if not cond.ran:
        return
    if "throttle" in cond.spoilt:
        cond.cooling, cond.cooling_trans = 0, cond.cooling_trans + 1
    if "link" in cond.spoilt:
        cond.link_mbps, cond.carrier_changes = 1000, cond.carrier_changes + 2
    if "governor" in cond.spoilt:
        cond.governor, cond.cur_khz = "performance", 0
    cond.spoilt, cond.ran = [], False


def failure(tool: str, command: str) -> tuple[str, int]:
    """What `tool` prints when its run fails, and its exit status (variables/sim_failures.yaml)."""
    data = load_mapping(paths.variables() / "sim_failures.yaml", "the simulated tools' failures (a mapping)")
    entry = data.get(tool) or data["default"]
    text = entry.get("json") if " -J" in f" {command}" and entry.get("json") else entry["output"]
    try:
        words = shlex.split(command) if command else []
    except ValueError:
        words = []
    peer = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-c", "-H")), "127.0.0.1")
    return str(text).replace("{peer}", peer), int(entry.get("status", 1))
