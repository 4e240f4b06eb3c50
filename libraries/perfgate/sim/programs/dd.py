"""dd: writes its output file, takes the time a 60 MB/s copy takes, and reports like GNU dd on stderr."""

from __future__ import annotations

import asyncio

from perfgate.sim.programs.base import Out, Shell, program


@program("dd")
async def _dd(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    opts = dict(a.split("=", 1) for a in args if "=" in a)
    units = {"": 1, "k": 1024, "K": 1024, "M": 1 << 20, "G": 1 << 30}
    bs_text = opts.get("bs", "512")
    bs = int(bs_text.rstrip("kKMG") or 0) * units.get(bs_text[-1:] if not bs_text[-1:].isdigit() else "", 1)
    count = int(opts.get("count", "1"))
    if "of" in opts:
        path = opts["of"] if opts["of"].startswith("/") else f"{s.cwd}/{opts['of']}"
        s.board.files[path] = ""
    secs = max(bs * count / 60e6, 0.001)
    await asyncio.sleep(min(secs / s.board.speed, s.board.max_wait))
    await out.write(f"{count}+0 records in\n{count}+0 records out\n{bs * count} bytes copied, {secs:.4f} s, "
                    f"{bs * count / secs / 1e6:.1f} MB/s\n", True)  # fmt: skip
    return 0
