"""What `uboot` prints on the simulated board: the renderer for perfgate.tools.uboot's parser.

Moved here from perfgate/tools/uboot.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.tools.uboot import _int, command_size


def _size_for(command: str) -> tuple[str, int]:
    words = command.split()
    if words and words[0] in ("fatload", "load", "ext4load", "fatwrite", "save", "ext4write"):
        direction = "read" if words[0] in ("fatload", "load", "ext4load") else "write"
        return direction, _int(words[5]) if len(words) > 5 else 0x400000
    return command_size(command)


def print_size(size: int, suffix: str = "") -> str:
    """U-Boot's print_size (lib/display_options.c): one rounded decimal, left out when it is 0 (`320 MiB/s`)."""
    for unit, bits in (("EiB", 60), ("PiB", 50), ("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        scale = 1 << bits
        if size >= scale:
            n = size >> bits
            m = (10 * (size - (n << bits)) + (scale >> 1)) >> bits
            if m >= 10:
                m -= 10
                n += 1
            return f"{n}.{m} {unit}{suffix}" if m else f"{n} {unit}{suffix}"
    return f"{size} Bytes{suffix}"


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """What U-Boot prints for `command` when the transfer runs at about values['read (KB/s)'/'write (KB/s)']."""
    direction, size = _size_for(command)
    rate = values.get(f"{direction} (KB/s)") or next(iter(values.values()), 1000.0)
    rate *= 1 + rng.uniform(-0.01, 0.03)
    ms = max(1, round((size / 1024) / rate * 1000))
    words = command.split()
    timed = words[0] == "time"
    body = words[1:] if timed else words
    if body[0] in ("fatload", "load", "ext4load", "fatwrite", "save", "ext4write"):
        verb = "read" if direction == "read" else "written"
        return f"{size} bytes {verb} in {ms} ms ({print_size(size // ms * 1000, '/s')})\n"
    if body[0] == "sf":
        out = f"SF: {size} bytes @ {body[3]} {'Read' if direction == 'read' else 'Written'}: OK\n"
        if body[1] == "update":
            out = f"{size} bytes written, 0 bytes skipped in {ms / 1000:.3f}s, speed {int(size * 1000 / ms)} B/s\n"
    else:
        name = {"mmc": "MMC", "scsi": "SCSI"}.get(body[0], body[0].upper())
        dev = "dev # 0," if body[0] == "mmc" else "device 0"
        count = _int(body[4])
        verb = "read" if direction == "read" else "written"
        out = f"\n{name} {direction}: {dev} block # {_int(body[3])}, count {count} ... {count} blocks {verb}: OK\n"
    if timed:
        out += f"\ntime: {ms // 1000}.{ms % 1000:03d} seconds\n"
    return out
