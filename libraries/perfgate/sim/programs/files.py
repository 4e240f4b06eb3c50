"""Files: cat, grep, head, tail, wc, ls, rm/mkdir/touch/cp/mv/chmod/ln over the files redirections wrote, and the
board's /proc and /sys files (from its data)."""

from __future__ import annotations

import re
import time

from perfgate.sim import condition
from perfgate.sim.programs.base import Out, Shell, program
from perfgate.sim.shared import Board


def expand(board: Board, args: list[str]) -> list[str]:
    """The shell's globs (`*`) over the files the board has (written ones, /proc and /sys); a glob that matches
    nothing stays as it is, as sh leaves it."""
    out: list[str] = []
    for a in args:
        if "*" not in a or a.startswith("-"):
            out.append(a)
            continue
        known = set(board.files) | set(state_files(board))
        rx = re.compile("[^/]*".join(re.escape(p) for p in a.split("*")) + r"\Z")
        out += sorted(p for p in known if rx.match(p)) or [a]
    return out


@program("cat")
async def _cat(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    files = [a for a in expand(s.board, args) if not a.startswith("-")]
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
    _read(s.board, files)
    return status


def _read(board: Board, paths: list[str]) -> None:
    """The board's state was read (the gate does after each command): a spoilt state recovers afterwards."""
    if any(p.startswith(("/sys/class/thermal/", "/sys/devices/system/cpu/", "/sys/class/net/")) for p in paths):
        condition.settle(condition.of(board))


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
    flags = {"-" + ch for a in args if a.startswith("-") for ch in a[1:]}  # -Hs: -H and -s
    rest = [a for a in args if not a.startswith("-")]
    if not rest:
        return 2
    pattern, files = rest[0], expand(s.board, rest[1:])
    try:
        rx = re.compile(pattern, re.IGNORECASE if "-i" in flags else 0)
    except re.error:
        rx = re.compile(re.escape(pattern))
    named = "-H" in flags or len(files) > 1  # each line after its file's name, as grep does with several files
    text, status = stdin or "", 0
    for f in files:
        got = s.board.files.get(f)
        got = got if got is not None else proc_file(s.board, f)
        if got is None:
            status = 2
            if "-s" not in flags:
                await out.write(f"grep: {f}: No such file or directory\n", True)
            continue
        text += "".join(f"{f}:{ln}\n" if named else ln + "\n" for ln in got.splitlines())
    _read(s.board, files)
    lines = [
        ln for ln in text.splitlines() if bool(rx.search(ln.partition(":")[2] if named else ln)) != ("-v" in flags)
    ]
    if "-c" in flags:
        await out.write(f"{len(lines)}\n")
    elif "-q" not in flags:
        await out.write("".join(ln + "\n" for ln in lines))
    return 0 if lines else max(1, status)


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
def state_files(board: Board) -> dict[str, str]:
    """The /proc and /sys files that say the board's state (its condition: perfgate.sim.condition): boot id, each
    CPU's cpufreq, two thermal zones and a cooling device, eth0's link, the storage devices' names."""
    cond = condition.of(board)
    out = {"/proc/sys/kernel/random/boot_id": condition.boot_id(board.booted_at) + "\n"}
    for n in range(int(board.data.profile.get("cpus") or 2)):
        d = f"/sys/devices/system/cpu/cpu{n}/cpufreq/"
        out.update({d + "scaling_cur_freq": f"{cond.khz()}\n", d + "cpuinfo_cur_freq": f"{cond.khz()}\n",
                    d + "scaling_max_freq": f"{cond.max_khz}\n", d + "cpuinfo_max_freq": f"{cond.max_khz}\n",
                    d + "cpuinfo_min_freq": f"{min(condition.MIN_KHZ, cond.max_khz)}\n",
                    d + "scaling_governor": cond.governor + "\n"})  # fmt: skip
    for n, base in enumerate((46_000, 44_000)):  # a K3 SoC's two thermal zones (constructed figures)
        out[f"/sys/class/thermal/thermal_zone{n}/temp"] = f"{base + 40_000 * bool(cond.cooling)}\n"
    c = "/sys/class/thermal/cooling_device0/"
    out.update({c + "type": "thermal-cpufreq-0\n", c + "max_state": "2\n", c + "cur_state": f"{cond.cooling}\n",
                c + "stats/total_trans": f"{cond.cooling_trans}\n"})  # fmt: skip
    n = "/sys/class/net/eth0/"
    out.update({n + "speed": f"{cond.link_mbps}\n", n + "duplex": "full\n", n + "operstate": "up\n",
                n + "carrier_changes": f"{cond.carrier_changes}\n"})  # fmt: skip
    has = board.data.profile.get("has") or []
    for dev, what, name in (("mmcblk0", "emmc", "8GTF4R"), ("mmcblk1", "mmcsd", "SD16G")):  # constructed names
        if what in has:
            out[f"/sys/block/{dev}/device/name"] = name + "\n"
    return out


def proc_file(board: Board, path: str) -> str | None:
    d = board.data
    if path == "/proc/cpuinfo":
        one = (
            "processor\t: {n}\nBogoMIPS\t: 400.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid\n"
            "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd03\n"
            "CPU revision\t: 4\n\n"
        )
        return "".join(one.format(n=n) for n in range(int(d.profile.get("cpus") or 2)))
    if path.startswith(("/sys/", "/proc/sys/")):
        return state_files(board).get(path)
    if path == "/proc/mounts":
        root = "/dev/mmcblk1p2" if "mmcsd" in (d.profile.get("has") or []) else "/dev/root"
        return f"{root} / ext4 rw,relatime 0 0\nproc /proc proc rw,relatime 0 0\nsysfs /sys sysfs rw,relatime 0 0\n"
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
