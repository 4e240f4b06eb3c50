"""Files: cat, grep, head, tail, wc, ls, rm/mkdir/touch/cp/mv/chmod/ln over the files redirections wrote, and the
board's /proc and /sys files (from its data)."""

from __future__ import annotations

import re
import time

from perfgate.sim.programs.base import Out, Shell, program
from perfgate.sim.shared import Board


@program("cat")
async def _cat(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    files = [a for a in args if not a.startswith("-")]
    if not files:
        await out.write(stdin or "")
        return 0
    status = 0
    for f in files:
        path = f if f.startswith("/") else f"{s.cwd}/{f}"
        text = s.board.files.get(path)
        if text is None:
            text = proc_file(s.board, path)
        if text is None:
            await out.write(f"cat: can't open '{f}': No such file or directory\n", True)
            status = 1
        else:
            await out.write(text)
    return status


@program("rm", "mkdir", "touch", "cp", "mv", "chmod", "ln")
async def _files(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    paths = [a if a.startswith("/") else f"{s.cwd}/{a}" for a in args if not a.startswith("-")]
    if s.current == "rm":
        for p in paths:
            s.board.files.pop(p, None)
    elif s.current == "touch":
        for p in paths:
            s.board.files.setdefault(p, "")
    return 0


@program("ls")
async def _ls(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    where = next((a for a in args if not a.startswith("-")), s.cwd).rstrip("/")
    names = sorted(p[len(where) + 1 :] for p in s.board.files if p.startswith(where + "/"))
    await out.write("".join(n + "\n" for n in names if "/" not in n))
    return 0


@program("grep")
async def _grep(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    flags = [a for a in args if a.startswith("-")]
    rest = [a for a in args if not a.startswith("-")]
    if not rest:
        return 2
    pattern, files = rest[0], rest[1:]
    text = stdin or ""
    for f in files:
        text += s.board.files.get(f) or proc_file(s.board, f) or ""
    try:
        rx = re.compile(pattern, re.IGNORECASE if "-i" in flags else 0)
    except re.error:
        rx = re.compile(re.escape(pattern))
    lines = [ln for ln in text.splitlines() if bool(rx.search(ln)) != ("-v" in flags)]
    if "-c" in flags:
        await out.write(f"{len(lines)}\n")
    elif "-q" not in flags:
        await out.write("".join(ln + "\n" for ln in lines))
    return 0 if lines else 1


@program("head", "tail")
async def _head(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    n = 10
    for i, a in enumerate(args):
        if a == "-n" and i + 1 < len(args):
            n = int(args[i + 1])
        elif re.fullmatch(r"-\d+", a):
            n = int(a[1:])
    lines = (stdin or "").splitlines(keepends=True)
    await out.write("".join(lines[:n] if s.current == "head" else lines[-n:]) if n else "")
    return 0


@program("wc")
async def _wc(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    text = stdin or ""
    await out.write(f"{text.count(chr(10))}\n" if "-l" in args else f"{len(text.split())}\n")
    return 0


# -- files of /proc and /sys ---------------------------------------------------------------------------------
def cpu_khz(board: Board) -> int:
    for c in board.data.criteria:
        if "cpu_clock" in c.name or "cpu_clock" in c.metric or "cpu_clock" in c.row:
            return int(c.value * 1000)
    m = re.search(r"(\d+(?:\.\d+)?)\s*GHz", str(board.data.profile.get("description", "")), re.IGNORECASE)
    return int(float(m.group(1)) * 1_000_000) if m else 1_000_000


def proc_file(board: Board, path: str) -> str | None:
    d = board.data
    if path == "/proc/cpuinfo":
        one = (
            "processor\t: {n}\nBogoMIPS\t: 400.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid\n"
            "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd03\n"
            "CPU revision\t: 4\n\n"
        )
        return "".join(one.format(n=n) for n in range(int(d.profile.get("cpus") or 2)))
    if re.fullmatch(r"/sys/devices/system/cpu/cpu\d+/cpufreq/(cpuinfo|scaling)_(cur|max)_freq", path):
        return f"{cpu_khz(board)}\n"
    if path == "/proc/version":
        return f"Linux version {d.linux['kernel_release']} (perfgate simulated {d.board}) #1 SMP PREEMPT\n"
    if path == "/etc/hostname":
        return d.hostname + "\n"
    if path == "/etc/os-release":
        return 'ID=arago\nNAME="Arago"\nVERSION="2024.04 (perfgate simulated board)"\n'
    if path == "/proc/uptime":
        up = (time.monotonic() - board.booted_at) * board.speed
        return f"{up:.2f} {up * 3.5:.2f}\n"
    if path == "/proc/loadavg":
        return "0.08 0.03 0.01 1/123 1234\n"
    if path == "/proc/meminfo":
        return "MemTotal:        1897772 kB\nMemFree:         1645312 kB\nMemAvailable:    1702344 kB\n"
    return None
