"""Fixtures that say where they come from: a header of `# ` lines, then the output kept verbatim.

The first header line is `# real: made here with <command> ...` (the real tool, run on the build host) or
`# constructed: reproduces <trait> described in <source>` (a trait Debian's tools cannot produce here). `capture()`
checks that label and returns the output below the header, byte for byte."""

from __future__ import annotations

from pathlib import Path

LABELS = ("# real: made here with ", "# constructed: reproduces ")


def capture(path: Path) -> str:
    """The verbatim output in a labelled fixture (the header and the blank line after it removed)."""
    text = path.read_bytes().decode("utf-8")
    lines = text.splitlines(keepends=True)
    assert lines and lines[0].startswith(LABELS), f"{path}: the first line must be one of {LABELS}"
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    assert n < len(lines) and lines[n].strip() == "", f"{path}: a blank line must end the header"
    return "".join(lines[n + 1 :])
