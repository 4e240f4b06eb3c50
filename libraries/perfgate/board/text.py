"""Console text: terminal escape sequences out, line ends normalised, kernel messages recognised."""

from __future__ import annotations

import re

ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][A-Za-z0-9]|[=>78cDEHM])")
PARTIAL_ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*|\][^\x07\x1b]*|[()])?$")
KERNEL_LINE = re.compile(r"^\s*\[\s*\d+\.\d+\]\s")
KERNEL_INLINE = re.compile(r"\[\s*\d+\.\d{6}\][^\n]*")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def strip_escapes(text: str) -> str:
    """Remove ANSI/VT100 escape sequences (busybox ash sends ESC[6n at each prompt) and carriage returns."""
    return CONTROL.sub("", ESCAPE.sub("", text).replace("\r", ""))


def split_partial(text: str) -> tuple[str, str]:
    """(complete, pending): an escape sequence cut at the end of a chunk is kept for the next chunk."""
    m = PARTIAL_ESCAPE.search(text)
    if m and m.start() >= len(text) - 64:
        return text[: m.start()], text[m.start() :]
    return text, ""


def without_kernel_messages(text: str) -> str:
    """Command output with the kernel's console messages taken out (whole lines, or glued to the end of one)."""
    out = []
    for line in text.split("\n"):
        if KERNEL_LINE.match(line):
            continue
        out.append(KERNEL_INLINE.sub("", line) if "[" in line else line)
    return "\n".join(out)
