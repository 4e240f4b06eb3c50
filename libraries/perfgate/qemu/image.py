"""Build the QEMU board's image into build/qemu/ from Debian packages, and rebuild it only when an input changed.

Inputs (all in the stamp): the lab's `image:` and `qemu:` data, the versions of every arm64 package and of fio's
source, the host tools that shape the result (QEMU, U-Boot, the cross compiler, dropbear's key tool, cpio), and
the source of this package. Outputs: `Image` (kernel), `initramfs.cpio.gz`, `board.dtb` (QEMU's own device tree
with a board-like model string), `id_ed25519` (root's SSH key), `manifest.json` and `stamp.json`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from perfgate import paths
from perfgate.errors import PerfgateError
from perfgate.qemu import apt, fio, launch, recipe, rootfs

Say = Callable[[str], None]


class BuildError(PerfgateError):
    """The image could not be built."""


@dataclass(frozen=True)
class Built:
    folder: Path
    kernel: Path
    initrd: Path
    dtb: Path
    key: Path
    stamp: str  # short hash of the inputs; names the image in provenance lines
    rebuilt: bool
    seconds: float

    def image(self) -> launch.Image:
        return launch.Image(kernel=self.kernel, initrd=self.initrd, dtb=self.dtb)


def folder() -> Path:
    return paths.build() / "qemu"


def outputs(out: Path | None = None) -> dict[str, Path]:
    out = out or folder()
    return {
        "kernel": out / "Image",
        "initrd": out / "initramfs.cpio.gz",
        "dtb": out / "board.dtb",
        "key": out / "id_ed25519",
        "disk": out / "disk.img",
        "manifest": out / "manifest.json",
        "stamp": out / "stamp.json",
    }


def current(out: Path | None = None) -> Built:
    """The image already built, or BuildError telling how to build it."""
    o = outputs(out)
    missing = [str(p) for k, p in o.items() if not p.exists()]
    if missing:
        raise BuildError(
            "the QEMU image is not built (run `python -m perfgate qemu build`); missing: " + ", ".join(missing)
        )
    stamp = json.loads(o["stamp"].read_text(encoding="utf-8"))
    return Built(o["kernel"].parent, o["kernel"], o["initrd"], o["dtb"], o["key"], stamp["hash"][:12], False, 0.0)


def _host_version(cmd: list[str]) -> str:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=30)
    except FileNotFoundError:
        raise BuildError(f"{cmd[0]} is not installed (see the README's Debian packages)") from None
    return (p.stdout or p.stderr).strip().splitlines()[0] if (p.stdout or p.stderr).strip() else ""


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "missing"


def _code_hash() -> str:
    h = hashlib.sha256()
    for f in sorted(Path(__file__).parent.glob("*.py")):
        if f.name in {"supervisor.py"}:
            continue  # the supervisor does not shape the image
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def inputs(a: apt.PrivateApt, img: recipe.Image, m: recipe.Machine) -> dict:
    kernel = next((d for d in a.depends(img.kernel) if d.startswith("linux-image-")), None)
    if not kernel:
        raise BuildError(f"{img.kernel} depends on no linux-image-* package", recipe.lab_file())
    packages = [kernel, *img.packages]
    return {
        "kernel_package": kernel,
        "packages": a.versions(packages),
        "fio_source": a.version(img.fio_source),
        "image": asdict(img),
        "qemu": asdict(m),
        "host": {
            "qemu": _host_version([m.binary, "--version"]),
            "firmware": _file_hash(Path(m.firmware)),
            "cc": _host_version(["aarch64-linux-gnu-gcc", "--version"]),
            "cpio": _host_version(["cpio", "--version"]),
            "dropbearkey": _file_hash(Path(shutil.which("dropbearkey") or "/nonexistent")),
        },
        "code": _code_hash(),
    }


def _digest(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def build(force: bool = False, say: Say = print, out: Path | None = None) -> Built:
    started = time.monotonic()
    out = out or folder()
    out.mkdir(parents=True, exist_ok=True)
    o = outputs(out)
    img, m = recipe.image(), recipe.machine()
    if not Path(m.firmware).exists():
        raise BuildError(f"no U-Boot at {m.firmware} (install u-boot-qemu)", recipe.lab_file())
    a = apt.PrivateApt(out / "apt", img.archive)
    try:
        if a.update():
            say("refreshed the arm64 package lists")
    except apt.AptError as e:
        if force or not all(p.exists() for p in o.values()):
            raise
        say(f"cannot refresh the arm64 package lists, keeping the image built before: {e}")
        return current(out)
    wanted = inputs(a, img, m)
    digest = _digest(wanted)
    if not force and o["stamp"].exists() and all(p.exists() for p in o.values()):
        old = json.loads(o["stamp"].read_text(encoding="utf-8"))
        if old.get("hash") == digest:
            say(f"image {digest[:12]} is up to date in {out}")
            return Built(
                out, o["kernel"], o["initrd"], o["dtb"], o["key"], digest[:12], False, time.monotonic() - started
            )
        changed = sorted(k for k in wanted if old.get("inputs", {}).get(k) != wanted[k])
        say("inputs changed: " + ", ".join(changed))

    o["stamp"].unlink(missing_ok=True)
    # fio's cross build is the longest step: it runs beside the downloads and the initramfs
    with ThreadPoolExecutor(max_workers=1) as pool:
        fio_job = pool.submit(_fio, a, img, wanted, out, say)
        release, tree, programs, load = _assemble(a, img, m, wanted, out, o, say)
        fio_bin = fio_job.result()
    fio.install(fio_bin, tree / img.fio_install.lstrip("/"))
    host_keys = sorted(f"/etc/dropbear/{k.name}" for k in (out / "keys").glob("dropbear_*_host_key"))
    for k in (out / "keys").glob("dropbear_*_host_key"):
        (tree / "etc/dropbear").mkdir(parents=True, exist_ok=True)
        shutil.copy2(k, tree / "etc/dropbear" / k.name)
    guest = rootfs.Guest(m.hostname, release, tuple(load), m.model, m.disk_mount if m.disk_mb else "", m.disk_fs)
    rootfs.write_files(tree, rootfs.files(guest, host_keys, (out / "id_ed25519.pub").read_text()))
    rootfs.cpio(tree, o["initrd"])
    say(f"initramfs {o['initrd'].stat().st_size / 1e6:.1f} MB ({len(programs)} programs and libraries)")
    _dtb(m, o, out)
    _disk(m, o["disk"])
    _finish(out, o, digest, wanted, release, programs, img, tree, started, say)
    seconds = time.monotonic() - started
    return Built(out, o["kernel"], o["initrd"], o["dtb"], o["key"], digest[:12], True, seconds)


def _assemble(
    a: apt.PrivateApt, img: recipe.Image, m: recipe.Machine, wanted: dict, out: Path, o: dict[str, Path], say: Say
) -> tuple[str, Path, list[str], list[str]]:
    """Packages downloaded and unpacked, the kernel, the keys, and the initramfs tree (without fio)."""
    t = time.monotonic()
    debs = a.download(list(wanted["packages"]), out / "debs")
    say(f"{len(debs)} arm64 packages in {out / 'debs'} ({time.monotonic() - t:.0f} s)")
    sysroot = out / "sysroot"
    shutil.rmtree(sysroot, ignore_errors=True)
    for package, deb in debs.items():
        only = rootfs.module_patterns(img.modules) if package == wanted["kernel_package"] else None
        apt.extract(deb, sysroot, only)
    release = _kernel_release(sysroot, wanted["kernel_package"])
    _install_kernel(sysroot, release, o["kernel"])
    _keys(out)
    tree = out / "rootfs"
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir()
    rootfs.install_busybox(sysroot, tree)
    programs = rootfs.install_programs(sysroot, list(img.binaries), tree)
    sftp = tree / "usr/lib/openssh/sftp-server"
    if sftp.exists():
        (tree / "usr/lib/sftp-server").symlink_to("openssh/sftp-server")
    load = rootfs.install_modules(sysroot, release, img.modules, tree)
    return release, tree, programs, load


def _finish(
    out: Path, o: dict[str, Path], digest: str, wanted: dict, release: str, programs: list[str],
    img: recipe.Image, tree: Path, started: float, say: Say,
) -> None:  # fmt: skip
    manifest = {
        "stamp": digest[:12],
        "kernel_release": release,
        "packages": wanted["packages"],
        "fio": wanted["fio_source"],
        "files": {p: (tree / p).stat().st_size for p in [*programs, img.fio_install.lstrip("/")]},
        "initramfs_bytes": o["initrd"].stat().st_size,
    }
    o["manifest"].write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    seconds = time.monotonic() - started
    stamp = {
        "hash": digest,
        "inputs": wanted,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(seconds, 1),
    }
    o["stamp"].write_text(json.dumps(stamp, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    say(f"image {digest[:12]} built in {seconds:.0f} s in {out}")


def _kernel_release(sysroot: Path, package: str) -> str:
    release = package.removeprefix("linux-image-").removesuffix("-unsigned")
    if not (sysroot / "boot" / f"vmlinuz-{release}").exists():
        raise BuildError(f"{package} has no /boot/vmlinuz-{release}", sysroot)
    return release


def _install_kernel(sysroot: Path, release: str, dest: Path) -> None:
    """Debian's arm64 vmlinuz is a gzip-compressed Image: store it decompressed for U-Boot's booti."""
    data = (sysroot / "boot" / f"vmlinuz-{release}").read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data[56:60] != b"ARM\x64":
        raise BuildError("the kernel is not an arm64 Image (no ARM\\x64 magic)", sysroot / "boot")
    dest.write_bytes(data)


def _fio(a: apt.PrivateApt, img: recipe.Image, wanted: dict, out: Path, say: Say) -> Path:
    key = _digest({"fio": wanted["fio_source"], "configure": img.fio_configure, "cc": wanted["host"]["cc"]})[:12]
    cached = out / "fio" / key / "fio"
    if cached.exists():
        return cached
    say(f"building a static fio {wanted['fio_source']} from Debian's source")
    src = out / "src"
    shutil.rmtree(src, ignore_errors=True)
    tree = a.source(img.fio_source, src)
    binary = fio.build(tree, img.fio_configure, out / "fio-build.log")
    cached.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(binary, cached)
    shutil.rmtree(src, ignore_errors=True)
    return cached


def _keys(out: Path) -> None:
    """Root's SSH key (OpenSSH format, for paramiko/SSHLibrary) and dropbear's host keys, made once on the host."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = out / "id_ed25519"
    if not key.exists() or not (out / "id_ed25519.pub").exists():
        k = Ed25519PrivateKey.generate()
        key.write_bytes(
            k.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()
            )
        )
        key.chmod(0o600)
        pub = k.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        (out / "id_ed25519.pub").write_text(pub.decode() + " perfgate-qemu\n", encoding="utf-8")
    keys = out / "keys"
    keys.mkdir(exist_ok=True)
    for kind in ("ed25519", "ecdsa"):
        f = keys / f"dropbear_{kind}_host_key"
        if not f.exists():
            p = subprocess.run(["dropbearkey", "-t", kind, "-f", str(f)], capture_output=True, text=True, check=False)
            if p.returncode != 0:
                raise BuildError(f"dropbearkey -t {kind} failed: {p.stderr.strip()} (install dropbear-bin)")


def _disk(m: recipe.Machine, dest: Path) -> None:
    """An empty file system image for the board's virtio-blk disk (sparse; each board process copies it)."""
    dest.unlink(missing_ok=True)
    with dest.open("wb") as f:
        f.truncate(max(m.disk_mb, 1) * 1024 * 1024)
    if not m.disk_mb:
        return
    tool = shutil.which("mkfs." + m.disk_fs, path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    if tool is None:  # Debian keeps mkfs in /usr/sbin, which a plain user's PATH lacks
        raise BuildError(f"mkfs.{m.disk_fs} not found on PATH, /usr/sbin or /sbin (install e2fsprogs)", dest)
    p = subprocess.run([tool, "-q", "-F", "-L", "perfgate", str(dest)], capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise BuildError(f"mkfs.{m.disk_fs} failed: {p.stderr.strip()} (install e2fsprogs)", dest)


def _dtb(m: recipe.Machine, o: dict[str, Path], out: Path) -> None:
    """QEMU's own device tree for this exact command line, with the board's model string."""
    raw = out / "virt.dtb"
    cmd = launch.argv(m, launch.Image(o["kernel"], o["initrd"]), serial_port=None, ssh_port=None, dumpdtb=raw)
    p = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=60)
    if p.returncode != 0 or not raw.exists():
        raise BuildError(f"QEMU could not dump its device tree: {p.stderr.strip()}")
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(raw)], capture_output=True, text=True, check=False)
    if dts.returncode != 0:
        raise BuildError(f"dtc could not read {raw}: {dts.stderr.strip()} (install device-tree-compiler)")
    text, n = re.subn(r'(\n\tmodel = )"[^"]*";', rf'\1"{m.model}";', dts.stdout, count=1)
    if n != 1:
        raise BuildError("QEMU's device tree has no root model property", raw)
    p = subprocess.run(
        ["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(o["dtb"])],
        input=text,
        text=True,
        capture_output=True,
        check=False,
    )
    if p.returncode != 0:
        raise BuildError(f"dtc could not write the board's device tree: {p.stderr.strip()}")
