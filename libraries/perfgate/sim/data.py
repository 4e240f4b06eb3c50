"""What the simulated board knows about itself: the board profile (with defaults for what it lacks, said out
loud), the lab's per-board overrides, and its criteria (the only source of its numbers), degraded by faults."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from perfgate import boards, criteria, paths
from perfgate.datafile import load_mapping, merge
from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.sim import values
from perfgate.sim.faults import Faults
from perfgate.sim.spread import RowNoise, Spread
from perfgate.tools import TOOLS

MEDIA = ("emmc", "mmcsd", "ospi", "ufs")

# Used only when the board publishes no figure of its own (said in `notes`).
DEFAULT_BOOT_S = {"default": 15.0, "init_sh": 4.5}
DEFAULT_KBPS = {  # medium -> (write, read) KB/s, typical of TI K3 boards in the guides
    "emmc": (60000.0, 170000.0),
    "mmcsd": (20000.0, 70000.0),
    "ospi": (350.0, 250000.0),
    "ufs": (95000.0, 500000.0),
}


@dataclass(frozen=True)
class Figure:
    """A published number the sim reproduces outside the workload tools (boot time, U-Boot KB/s)."""

    value: float
    direction: str = "lower"
    lo: float | None = None
    hi: float | None = None
    source: str = "default"  # the criterion id, or "default" when the board publishes none


@dataclass
class BoardData:
    board: str
    profile: dict
    lab: dict
    criteria: list[Criterion]
    faults: Faults
    notes: list[str] = field(default_factory=list)
    # the criteria as published, before any degradation: where the sim finds the min/max that are not spreads
    # (perfgate.decision.artefacts), which it draws with their class spread instead
    published: list[Criterion] = field(default_factory=list)

    # -- boot time -----------------------------------------------------------------------------------------
    def boot_figure(self, variant: str) -> Figure:
        """`default` (to the login prompt) or `init_sh` (init=/bin/sh, to the shell prompt)."""
        rows = [c for c in self.criteria if c.suite == "boot_time"]
        wanted = [c for c in rows if ("/bin/sh" in c.row or "/bin/sh" in c.name) == (variant == "init_sh")]
        if not wanted:
            return Figure(DEFAULT_BOOT_S[variant])
        # Several rows for one variant (the AM62x guide repeats one): the fastest keeps every row passing.
        best = min(wanted, key=lambda c: c.value)
        return Figure(best.value, "lower", best.min, best.max, best.id)

    def figure_noise(self, fig: Figure, spread: Spread) -> RowNoise:
        """How the sim draws a figure: as its criterion's row, else from the figure's own range."""
        c = next((c for c in self.criteria if c.id == fig.source), None)
        return spread.figure(fig.value, fig.lo, fig.hi, c)

    # -- U-Boot storage ------------------------------------------------------------------------------------
    def storage_figure(self, medium: str, op: str, size: int) -> Figure:
        """KB/s of a U-Boot `op` (read|write) of `size` bytes on `medium`: the published row of the nearest
        size, or a default typical of the medium."""
        rows: dict[int, Criterion] = {}
        for c in self.criteria:
            if c.suite != f"uboot_{medium}" or op not in c.metric.lower():
                continue
            n = _hex_size(c.row)
            if n:
                rows[n] = c
        if not rows:
            write, read = DEFAULT_KBPS.get(medium, (10000.0, 50000.0))
            return Figure(write if op == "write" else read, "higher")
        nearest = min(rows, key=lambda n: abs(n - size))
        c = rows[nearest]
        return Figure(c.value, c.direction, c.min, c.max, c.id)

    # -- profile shortcuts ---------------------------------------------------------------------------------
    @property
    def uboot(self) -> dict:
        return self.profile["uboot"]

    @property
    def linux(self) -> dict:
        return self.profile["linux"]

    @property
    def hostname(self) -> str:
        return str(self.profile["hostname"])

    @property
    def network(self) -> bool:
        return bool(self.profile.get("network", True))

    def mmc_medium(self, dev: int) -> str | None:
        """Which medium `mmc dev <dev>` is: from profile uboot_storage.<medium>.dev, else eMMC 0 and SD 1.
        A board without eMMC has none at any dev: the defaults' `emmc: {dev: 0}` must not turn the SD card of
        a board that has it on mmc 0 (AM437x GP EVM) into an eMMC at the default eMMC speed."""
        has = set(self.profile.get("has") or [])
        has_emmc = "emmc" in has or any(c.suite in ("uboot_emmc", "emmc") for c in self.criteria)
        storage = self.profile.get("uboot_storage") or {}
        devs = {m: int(c["dev"]) for m in ("emmc", "mmcsd") if isinstance(c := storage.get(m), dict) and "dev" in c}
        if not has_emmc:
            devs.pop("emmc", None)
        if devs:
            return next((m for m, d in devs.items() if d == dev), None)
        if has_emmc:
            return {0: "emmc", 1: "mmcsd"}.get(dev)
        return {0: "mmcsd"}.get(dev)


def _hex_size(row: str) -> int | None:
    m = re.fullmatch(r"\s*(?:0x)?([0-9a-fA-F]+)\s*", row)
    return int(m.group(1), 16) if m else None


def _family(board: str) -> str:
    return board.split("_")[0]


def with_defaults(board: str, profile: dict, notes: list[str]) -> dict:
    """The profile with every key the sim uses filled in; each default is noted."""
    fam = _family(board)

    def need(section: dict, key: str, default: object, where: str) -> None:
        if section.get(key) in (None, ""):
            section[key] = default
            notes.append(f"profile has no {where}{key}: using {default!r}")

    p = dict(profile)
    need(p, "hostname", f"{fam}-evm", "")
    need(p, "soc", fam.upper(), "")
    need(p, "description", f"{board} (no description in its profile)", "")
    need(p, "cpus", 2, "")
    p["uboot"] = dict(p.get("uboot") or {})
    need(p["uboot"], "prompt", "=> ", "uboot.")
    need(p["uboot"], "autoboot", "Hit any key to stop autoboot", "uboot.")
    need(p["uboot"], "version", "U-Boot 2024.04", "uboot.")
    need(p["uboot"], "bootdelay", 2, "uboot.")
    p["linux"] = dict(p.get("linux") or {})
    host = p["hostname"]
    need(p["linux"], "kernel_start", "Starting kernel ...", "linux.")
    need(p["linux"], "login_prompt", "login:", "linux.")
    need(p["linux"], "user", "root", "linux.")
    need(p["linux"], "prompt", f"root@{host}:~# ", "linux.")
    need(p["linux"], "init_sh_bootargs", "init=/bin/sh", "linux.")
    need(p["linux"], "sh_prompt", "# ", "linux.")
    need(p["linux"], "console", "ttyS2", "linux.")
    need(p["linux"], "kernel_release", "6.6.32-ti", "linux.")
    # the board data may list several strings the gate accepts: the simulated board prints the first
    for section, key in ((p["uboot"], "autoboot"), (p["linux"], "kernel_start")):
        if isinstance(section[key], list):
            section[key] = section[key][0] if section[key] else None
        if isinstance(section[key], dict):  # an autoboot entry naming its key: {line: ..., key: ...}
            section[key] = section[key].get("line")
    for key in ("prompt", "sh_prompt", "login_prompt"):
        p["linux"][key] = str(p["linux"][key]).replace("{hostname}", host)
    p.setdefault("network", True)
    p.setdefault("has", [])
    p.setdefault("workloads", {})
    return p


def load_lab(name: str = "sim") -> dict:
    path = paths.labs() / f"{name}.yaml"
    if not path.exists():
        return {"name": name, "kind": "sim", "virtual": True}
    return load_mapping(path, "a lab (a mapping)")


def load(board_name: str, faults: Faults, lab_name: str = "sim", release: str | None = None) -> BoardData:
    """Everything the sim needs for one board; raises UnknownBoard / DataError with file and line."""
    board = boards.resolve(board_name)
    notes: list[str] = []
    if not (paths.boards() / f"{board}.yaml").exists():
        notes.append(f"no board profile {Path('variables/boards') / (board + '.yaml')}: defaults from the name")
    lab = load_lab(lab_name)
    profile = boards.profile(board)
    override = ((lab.get("boards") or {}).get(board)) or {}
    if isinstance(override, dict) and override:
        profile = merge(profile, override)  # type: ignore[assignment]
    profile = with_defaults(board, profile, notes)
    # the release the gate judges against (it sets PERFGATE_RELEASE for its child processes); default: the newest
    crits = criteria.select(board, release or os.environ.get("PERFGATE_RELEASE")).criteria
    if not crits:
        notes.append(f"no criteria for {board} under variables/thresholds: workloads print nothing measured")
    degraded = [values.degrade(c, faults.degradation(c.id)) for c in crits]
    for glob, pct in faults.degrade:
        hits = [c.id for c in crits if fnmatchcase(c.id, glob)]
        if not hits:  # a fault that changes nothing would let a broken gate run green
            example = f" (ids look like {crits[0].id})" if crits else ""
            raise DataError(f"fault degrade:{glob}:{pct:g} matches none of {board}'s {len(crits)} criteria{example}",
                            "FAULTS")  # fmt: skip
        notes.append(f"fault degrade:{glob}:{pct:g} matches {len(hits)} criteria")
    with_tool = {k: {what} for k, (what, _) in faults.conditions.items() if k in ("invalid-run", "throttle")}
    for kind, named in (("missing-tool", faults.missing_tool), ("ssh-drop", faults.ssh_drop), *with_tool.items()):
        for tool in sorted(set(named) - set(TOOLS)):
            raise DataError(f"fault {kind}:{tool}: no such tool (tools: {', '.join(TOOLS)})", "FAULTS")
    return BoardData(board, profile, lab, degraded, faults, notes, published=crits)


def say(notes: list[str]) -> None:
    for n in notes:
        print(f"perfgate sim: {n}", file=sys.stderr)
