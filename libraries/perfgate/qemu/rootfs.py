"""The busybox initramfs: init scripts, users and keys, programs with their ELF library closure, cpio archive.

The tree is made fresh at every build from the extracted arm64 packages (the sysroot); nothing here runs arm64
code on the host: busybox installs its applet links itself at boot (`busybox --install -s`).
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from perfgate.errors import PerfgateError

READELF = "aarch64-linux-gnu-readelf"
LIB_DIRS = ("lib/aarch64-linux-gnu", "usr/lib/aarch64-linux-gnu", "lib", "usr/lib")


class RootfsError(PerfgateError):
    """The initramfs cannot be assembled (a missing program, library or module)."""


@dataclass(frozen=True)
class Guest:
    """What the init scripts need to know."""

    hostname: str
    kernel_release: str  # e.g. 6.1.0-56-arm64
    modules: tuple[str, ...]  # module names, loaded in this order
    model: str
    disk_mount: str = ""  # where the virtio-blk disk /dev/vda is mounted ("" = no disk)
    disk_fs: str = "ext4"


INIT = """#!/bin/busybox sh
# perfgate QEMU board: mount the kernel file systems, install busybox's applets, hand over to busybox init.
/bin/busybox mkdir -p /proc /sys /dev /tmp /run /var/log /var/run
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox --install -s
exec /sbin/init
"""

INITTAB = """::sysinit:/etc/init.d/rcS
ttyAMA0::respawn:/sbin/getty -L 115200 ttyAMA0 vt100
::ctrlaltdel:/sbin/reboot
::shutdown:/bin/umount -a -r
"""

RCS = """#!/bin/sh
# Bring the board up: file systems, network modules, DHCP from QEMU's user network, the SSH server.
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o size=64m tmpfs /dev/shm
mount -t tmpfs -o size=192m tmpfs /tmp
# cgroup v1 cpuset, for the real-time suite's cpu shield (TI's shielded use cases)
mount -t tmpfs cgroup /sys/fs/cgroup && mkdir -p /sys/fs/cgroup/cpuset \
    && mount -t cgroup -o cpuset cpuset /sys/fs/cgroup/cpuset || echo "rcS: no cpuset cgroup" >&2
hostname {hostname}
for m in {modules}; do
    insmod /lib/modules/{kernel_release}/$m.ko 2>>/var/log/modules.log || echo "rcS: cannot load $m" >&2
done
{disk}ip link set lo up
udhcpc -i eth0 -q -n -t 5 -s /usr/share/udhcpc/default.script >/var/log/udhcpc.log 2>&1 \\
    || echo "rcS: no DHCP lease on eth0" >&2
dropbear -F -E -B -p 22 {host_keys} >/var/log/dropbear.log 2>&1 &
"""

UDHCPC_SCRIPT = """#!/bin/sh
# busybox udhcpc: configure the interface from the lease.
case "$1" in
    deconfig) ip addr flush dev "$interface"; ip link set "$interface" up ;;
    bound|renew)
        ip addr flush dev "$interface"
        ip addr add "$ip/${mask:-24}" dev "$interface"
        ip link set "$interface" up
        for r in $router; do ip route add default via "$r" dev "$interface"; done
        : > /etc/resolv.conf
        for d in $dns; do echo "nameserver $d" >> /etc/resolv.conf; done ;;
esac
exit 0
"""

PROFILE = """export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
export PS1='\\u@\\h:\\w\\$ '
cd "$HOME" 2>/dev/null
"""


def files(guest: Guest, host_keys: list[str], authorized_key: str) -> dict[str, tuple[str, int]]:
    """The guest's configuration files: path -> (content, mode)."""
    keys = " ".join(f"-r {k}" for k in host_keys)
    return {
        "init": (INIT, 0o755),
        "etc/inittab": (INITTAB, 0o644),
        "etc/init.d/rcS": (
            RCS.format(
                hostname=guest.hostname,
                modules=" ".join(guest.modules),
                kernel_release=guest.kernel_release,
                host_keys=keys,
                disk=(
                    f"mkdir -p {guest.disk_mount} && mount -t {guest.disk_fs} /dev/vda {guest.disk_mount} "
                    f"|| echo 'rcS: cannot mount /dev/vda on {guest.disk_mount}' >&2\n"
                    if guest.disk_mount
                    else ""
                ),
            ),
            0o755,
        ),
        "usr/share/udhcpc/default.script": (UDHCPC_SCRIPT, 0o755),
        "etc/profile": (PROFILE, 0o644),
        # busybox's static getpwuid() skips a passwd line with an empty password field: keep it in shadow.
        "etc/passwd": ("root:x:0:0:root:/root:/bin/sh\n", 0o644),
        "etc/shadow": ("root::19000:0:99999:7:::\n", 0o600),
        "etc/nsswitch.conf": ("passwd: files\ngroup: files\nshadow: files\nhosts: files dns\n", 0o644),
        "etc/group": ("root:x:0:\n", 0o644),
        "etc/shells": ("/bin/sh\n/bin/ash\n", 0o644),
        "etc/hostname": (guest.hostname + "\n", 0o644),
        "etc/hosts": (f"127.0.0.1 localhost\n127.0.1.1 {guest.hostname}\n", 0o644),
        "etc/os-release": (
            f'NAME="perfgate QEMU board"\nPRETTY_NAME="{guest.model} (busybox, Debian arm64 packages)"\n',
            0o644,
        ),
        "root/.ssh/authorized_keys": (authorized_key.strip() + "\n", 0o600),
    }


def write_files(root: Path, content: dict[str, tuple[str, int]]) -> None:
    for rel, (text, mode) in content.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        p.chmod(mode)
    (root / "root").chmod(0o700)
    (root / "root" / ".ssh").chmod(0o700)


def _readelf(path: Path) -> tuple[list[str], str | None]:
    """NEEDED libraries and the ELF interpreter of an arm64 binary."""
    p = subprocess.run([READELF, "-d", "-l", "-W", str(path)], capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise RootfsError(f"not an ELF file: {p.stderr.strip()}", path)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", p.stdout)
    interp = re.search(r"Requesting program interpreter: ([^\]]+)\]", p.stdout)
    return needed, interp.group(1) if interp else None


def _find_lib(sysroot: Path, name: str) -> str | None:
    for d in LIB_DIRS:
        if (sysroot / d / name).exists():
            return f"{d}/{name}"
    return None


def copy_resolved(sysroot: Path, rel: str, root: Path) -> None:
    """Copy sysroot/rel to root/rel, following symbolic links inside the sysroot."""
    src = sysroot / rel
    seen = 0
    while src.is_symlink() and seen < 16:
        target = os.readlink(src)
        src = (sysroot / target.lstrip("/")) if target.startswith("/") else src.parent / target
        seen += 1
    if not src.exists():
        raise RootfsError(f"{rel} points to {src}, which the packages do not contain", sysroot / rel)
    dest = root / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dest)


def install_programs(sysroot: Path, programs: list[str], root: Path) -> list[str]:
    """Copy programs and the closure of their libraries; returns every path copied (relative to root)."""
    copied: list[str] = []
    todo = [p.lstrip("/") for p in programs]
    seen: set[str] = set()
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        src = sysroot / rel
        if not src.exists() and not src.is_symlink():
            raise RootfsError(f"/{rel} is in no downloaded package (add its package to image.packages)", sysroot)
        copy_resolved(sysroot, rel, root)
        copied.append(rel)
        needed, interp = _readelf(root / rel)
        if interp:
            todo.append(interp.lstrip("/"))
        for lib in needed:
            found = _find_lib(sysroot, lib)
            if not found:
                raise RootfsError(
                    f"/{rel} needs {lib}, which no downloaded package provides (add it to image.packages)",
                    sysroot,
                )
            todo.append(found)
    return sorted(copied)


def module_patterns(names: tuple[str, ...]) -> list[str]:
    """tar wildcards for the kernel package members the image needs (kernel, builtin list, named modules)."""
    return ["./boot/vmlinuz-*", "./lib/modules/*/modules.builtin", *(f"*/{n}.ko" for n in names)]


def install_modules(sysroot: Path, release: str, names: tuple[str, ...], root: Path) -> list[str]:
    """Copy the named kernel modules flat into /lib/modules/<release>/<name>.ko; returns the names to load
    (those built into the kernel, per modules.builtin, are left out)."""
    tree = sysroot / "lib" / "modules" / release
    if not tree.is_dir():
        raise RootfsError(f"the kernel package has no modules for {release}", tree)
    builtin_list = tree / "modules.builtin"
    builtin = {Path(line).stem for line in builtin_list.read_text().split()} if builtin_list.exists() else set()
    index = {p.name: p for p in tree.rglob("*.ko")}
    dest = root / "lib" / "modules" / release
    dest.mkdir(parents=True, exist_ok=True)
    load = []
    for name in names:
        if name in builtin:
            continue
        src = index.get(f"{name}.ko")
        if src is None:
            raise RootfsError(f"no module {name}.ko in the kernel package", tree)
        shutil.copy2(src, dest / f"{name}.ko")
        load.append(name)
    return load


def install_busybox(sysroot: Path, root: Path) -> None:
    src = sysroot / "bin" / "busybox"
    if not src.exists():
        raise RootfsError("busybox-static did not provide /bin/busybox", sysroot)
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "dev", "proc", "sys", "tmp", "var/log", "var/run", "var/empty"):
        (root / d).mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, root / "bin" / "busybox")
    (root / "bin" / "sh").symlink_to("busybox")
    (root / "tmp").chmod(0o1777)


def cpio(root: Path, out: Path, compress: bool = True) -> None:
    """A newc cpio archive of the tree, entries sorted, owned by root, optionally gzip-compressed."""
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    listing = "\n".join([".", *names]) + "\n"
    p = subprocess.run(
        ["cpio", "--quiet", "-o", "-H", "newc", "--owner", "0:0", "--reproducible"],
        cwd=root, input=listing.encode(), capture_output=True, check=False,
    )  # fmt: skip
    if p.returncode != 0:
        raise RootfsError(f"cpio failed: {p.stderr.decode(errors='replace').strip()}", root)
    data = gzip.compress(p.stdout, compresslevel=6, mtime=0) if compress else p.stdout
    out.write_bytes(data)


def is_executable(path: Path) -> bool:
    return path.is_file() and bool(path.stat().st_mode & stat.S_IXUSR)
