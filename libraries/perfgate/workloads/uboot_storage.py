"""U-Boot storage throughput (suites uboot_emmc, uboot_mmcsd, uboot_ospi, uboot_ufs), measured at the U-Boot prompt.

Rows are file sizes in hex (`400000`); columns are write and read throughput in KB/s. For each size the workload
writes then reads that many bytes with the medium's commands from the board profile (`uboot_storage.<medium>`:
`setup`, `write`, `read`, `block_size`, and the board's `dev`, `part`, `blk`, `offset`, `file`), which the lab's
`storage.uboot_<medium>` keys override. Only a medium the lab names is ever written; virtual labs name all of them.
The parser (perfgate.tools.uboot) turns `N bytes read in M ms` / `time: x seconds` into KB/s as the guides do.

The setup runs first, and every write and read names it (Run.setup): what it did lives in U-Boot only (a probed SPI
flash, the selected MMC device), so when U-Boot starts afresh mid-medium (a reset, a power-cycle after a lost
prompt) the board runs it again before the next transfer, and says so in the log. A transfer that still cannot run
fails its own criteria with the reason; the others keep what they measured.
"""

from __future__ import annotations

import re

from perfgate.board.traits import no_uboot_reason
from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, run_all

PLACEHOLDER = re.compile(r"(?<!\$)\{(\w+)\}")


def fill(template: str, values: dict[str, object], where: str) -> str:
    """Replace {name} (not U-Boot's ${name}) by values[name]; DataError naming `where` when one is missing."""

    def one(m: re.Match) -> str:
        if m.group(1) not in values:
            raise DataError(f"{where}: no value for {{{m.group(1)}}} in {template!r} (known: {', '.join(values)})")
        return str(values[m.group(1)])

    return PLACEHOLDER.sub(one, template)


def direction(c: Criterion) -> str | None:
    text = f"{c.metric} {c.table}".lower()
    return "write" if "write" in text else "read" if "read" in text else None


def size_of(c: Criterion) -> int:
    try:
        return int(c.row.split("/")[0].strip(), 16)
    except ValueError:
        raise DataError(f"{c.id}: row {c.row!r} is not a size in hex", c.source or None) from None


class UbootStorage(Workload):
    def __init__(self, medium: str) -> None:
        self.medium = medium
        self.suite = f"uboot_{medium}"

    def _media(self, profile: dict, lab: dict) -> tuple[dict, dict]:
        media = (profile.get("uboot_storage") or {}).get(self.medium)
        where = (lab.get("storage") or {}).get(self.suite)
        return media or {}, where if isinstance(where, dict) else {}

    def _named(self, lab: dict) -> bool:
        return self.suite in (lab.get("storage") or {})

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        no_uboot = no_uboot_reason(profile)
        if no_uboot:
            return no_uboot
        media, _ = self._media(profile, lab)
        if not media:
            return f"board profile {profile.get('name')} has no uboot_storage.{self.medium} commands"
        if not self._named(lab):
            return (
                f"lab {lab.get('name')} names no storage.{self.suite}: this medium is never written "
                "unless the lab says where (device, block or offset)"
            )
        return None

    def _values(self, size: int, media: dict, where: dict, profile: dict) -> dict[str, object]:
        block = int(media.get("block_size") or 1)
        return {
            "addr": (profile.get("uboot") or {}).get("loadaddr", "0x82000000"),
            "size": f"0x{size:x}",
            "blocks": f"0x{(size + block - 1) // block:x}",
            "dev": 0,
            "part": 1,
            "blk": "0x0",
            "offset": "0x0",
            "file": "perfgate.bin",
            **{k: v for k, v in media.items() if k in ("dev", "part", "blk", "offset", "file")},  # the board's
            **where,  # the lab's say last
        }

    def setup(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[str]:
        media, where = self._media(profile, lab)
        values = self._values(0, media, where, profile)
        return [fill(c, values, f"uboot_storage.{self.medium}.setup") for c in media.get("setup") or []]

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        media, where = self._media(profile, lab)
        timeout = float((profile.get("timeouts") or {}).get("uboot_command", 120))
        setup = tuple(self.setup(criteria, profile, lab))
        sizes: dict[int, dict[str, list[str]]] = {}
        for c in criteria:
            d = direction(c)
            if d:
                sizes.setdefault(size_of(c), {"write": [], "read": []})[d].append(c.id)
        runs = []
        for size, ids in sizes.items():
            values = self._values(size, media, where, profile)
            for d in ("write", "read"):  # always write first: a read needs the file (FAT) or the data
                command = fill(media[d], values, f"uboot_storage.{self.medium}.{d}")
                keys = {f"{d} (KB/s)": ids[d]} if ids[d] else {}
                runs.append(Run("uboot", command, keys, where="uboot", timeout=timeout, label=f"{d}-{size:x}",
                                setup=setup))  # fmt: skip
        return runs

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        timeout = float((ctx.profile.get("timeouts") or {}).get("uboot_command", 120))
        for i, command in enumerate(self.setup(criteria, ctx.profile, ctx.lab)):
            try:
                ctx.run(command, timeout=timeout, label=f"setup-{i}", where="uboot")
            except AssertionError as e:  # each transfer tries it again first, and fails with the reason
                ctx.note(f"the medium's setup `{command}` did not run: {e}")
                break
        out = Measurements()
        for run in self.plan(criteria, ctx.profile, ctx.lab):
            try:
                out.merge(run_all([run], ctx))
            except AssertionError as e:  # this transfer could not run: its criteria say why, the others stay
                ids = [cid for group in run.keys.values() for cid in group]
                out.missing.update(dict.fromkeys(ids, f"`{run.command}` did not run: {e}"))
                if not ids:
                    ctx.note(f"`{run.command}` did not run: {e}")
        return out

    def _rates(self, run: Run, criteria: list[Criterion]) -> dict[str, float]:
        return {f"{direction(c)} (KB/s)": c.value for c in criteria if direction(c)} or {"write (KB/s)": 1000.0}
