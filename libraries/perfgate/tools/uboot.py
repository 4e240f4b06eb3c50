"""U-Boot storage timings, computed the way the guides compute KB/s: (size / 1024) / (ms / 1000).

What U-Boot prints (u-boot/u-boot):
- `load`/`fatload`/`ext4load` (fs/fs.c do_load): `4194304 bytes read in 72 ms (55.6 MiB/s)`; a load too small for
  the millisecond timer prints `178 bytes read in 0 ms` and no rate: an error here, not a number
- `save`/`fatwrite` (fs/fs.c do_save): `4194304 bytes written in 104 ms (38.5 MiB/s)`
- `time <command>` (cmd/time.c report_time): `time: 0.192 seconds` or `time: 1 minutes, 2.345 seconds`
  (after the command's own output: `MMC read: dev # 0, block # 0, count 65536 ... 65536 blocks read: OK`,
  `SF: 4194304 bytes @ 0x0 Read: OK`, `SCSI read: device 0 block # 0, count 1024 ... 1024 blocks read: OK`).

One output with several transfers (a console log of `fatload` after `fatload`, as BeagleBadge's flashing steps in
TI's docs) holds several measurements: an error naming their lines, not the first one read.

`time` lines carry no size: it comes from the command (`sf read/write/update <addr> <offset> <len>` -> len bytes;
`mmc read/write <addr> <blk> <cnt>` -> cnt x 512; `scsi read/write <addr> <blk> <cnt>` -> cnt x 4096, the logical
block size of UFS LUs; `ufs` and `mmc` likewise). Metrics: `read (KB/s)` or `write (KB/s)`, plus `bytes` and `ms`.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import ESCAPES

BYTES_RE = re.compile(r"^\s*(\d+) bytes (read|written) in (\d+) ms", re.M)
TIME_RE = re.compile(r"^\s*time:\s*(?:(\d+) minutes?,\s*)?(\d+(?:\.\d+)?) seconds", re.M)
# what U-Boot prints when a command did not do its transfer (cmd/sf.c: `No SPI flash selected. Please run `sf probe'`,
# `Failed to initialize SPI flash at 0:0 (error -19)`; common/command.c: `Unknown command 'x' - try 'help'`)
U_BOOT_ERROR = re.compile(r"\b(?:ERROR|[Ee]rror|[Ff]ailed|not found|Unknown command|No SPI flash selected)\b")
BLOCK_SIZES = {"mmc": 512, "scsi": 4096, "ufs": 4096, "usb": 512, "sata": 512, "nand": 1}


def _int(text: str) -> int:
    """U-Boot numbers are hex, with or without 0x."""
    return int(text, 16)


def command_size(command: str) -> tuple[str, int]:
    """(`read` | `write`, bytes) for a timed block or flash command; ParseError when the command has no size."""
    words = command.split()
    if words and words[0] == "time":
        words = words[1:]
    if len(words) >= 5 and words[0] == "sf" and words[1] in ("read", "write", "update"):
        return ("read" if words[1] == "read" else "write"), _int(words[4])
    if len(words) >= 5 and words[0] in BLOCK_SIZES and words[1] in ("read", "write"):
        return words[1], _int(words[4]) * BLOCK_SIZES[words[0]]
    raise ParseError(f"cannot tell the transfer size of U-Boot command {command!r}")


def kbps(size: int, ms: float) -> float:
    if ms <= 0:
        raise ParseError(f"transfer of {size} bytes took {ms} ms: no throughput")
    return round((size / 1024) / (ms / 1000), 2)


def parse(text: str, command: str | None = None) -> dict[str, float]:
    text = ESCAPES.sub("", text).replace("\r", "")
    found = list(BYTES_RE.finditer(text))
    if len(found) > 1:
        at = [text.count("\n", 0, f.start()) + 1 for f in found]
        raise ParseError(
            f"{len(found)} transfers in one U-Boot output (lines {', '.join(map(str, at))}): which one is the result?",
            line=at[1],
        )
    m = found[0] if found else None
    if m:
        size, ms = int(m.group(1)), int(m.group(3))
        direction = "read" if m.group(2) == "read" else "write"
        if ms == 0:
            raise ParseError(
                f"`{m.group(0).strip()}` is not a rate: U-Boot's millisecond timer saw no time pass (it prints no "
                "MiB/s then); time a transfer large enough to take many milliseconds",
                line=text.count("\n", 0, m.start()) + 1,
            )
        return {f"{direction} (KB/s)": kbps(size, ms), "bytes": float(size), "ms": float(ms)}
    t = TIME_RE.search(text)
    if t:
        if not command:
            raise ParseError("a `time:` line without the command that produced it: no size to divide by")
        direction, size = command_size(command)
        ms = (int(t.group(1) or 0) * 60 + float(t.group(2))) * 1000
        if U_BOOT_ERROR.search(text):
            raise ParseError(f"U-Boot reported an error for {command!r}: {text.strip()[:200]}")
        return {f"{direction} (KB/s)": kbps(size, ms), "bytes": float(size), "ms": ms}
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("=> ")]
    said = " | ".join(lines[:3]) if lines else "(nothing)"
    raise ParseError(f"no `bytes read/written in` or `time:` line in U-Boot output; it printed: {said!r}")


CARD = Card("uboot", parse)
