"""The QEMU lab's data: how QEMU runs (`qemu:`) and what the image is made of (`image:`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from perfgate import paths
from perfgate.datafile import load_mapping
from perfgate.errors import DataError

LAB = "qemu"


@dataclass(frozen=True)
class Machine:
    binary: str
    machine: str
    cpu: str
    smp: int
    memory: int
    accel: str
    firmware: str
    append: str
    devices: tuple[str, ...]
    model: str
    hostname: str
    boot_timeout: float
    disk_mb: int = 0  # a virtio-blk disk of this size (0: none)
    disk_fs: str = "ext4"
    disk_mount: str = ""


@dataclass(frozen=True)
class Image:
    release: str
    archive: tuple[str, ...]
    kernel: str
    packages: tuple[str, ...]
    binaries: tuple[str, ...]
    modules: tuple[str, ...]
    fio_source: str
    fio_configure: tuple[str, ...]
    fio_install: str


def lab_file(lab: str = LAB) -> Path:
    """A lab name of variables/labs/, or a lab file's path (another build of the board: `perfgate ab --b LAB:<file>`,
    whose `start` passes `qemu serve --lab <file>`)."""
    if lab.endswith((".yaml", ".yml")) or "/" in lab:
        return Path(lab)
    return paths.labs() / f"{lab}.yaml"


def load_lab(lab: str = LAB) -> tuple[dict, Path]:
    path = lab_file(lab)
    if not path.exists():
        raise DataError("no such lab file", path)
    return load_mapping(path, "a lab (a mapping)"), path


def _section(data: dict, key: str, path: Path) -> dict:
    section = data.get(key)
    if not isinstance(section, dict):
        raise DataError(f"missing mapping '{key}:'", path, _line_of(path, key))
    return section


def _line_of(path: Path, key: str) -> int | None:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(f"{key}:"):
            return n
    return None


def _get(section: dict, key: str, kind: type, path: Path, where: str):
    if key not in section:
        raise DataError(f"missing key '{where}.{key}'", path, _line_of(path, where))
    value = section[key]
    if kind is tuple:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise DataError(f"'{where}.{key}' must be a list of strings", path, _line_of(path, key))
        return tuple(value)
    if kind in (int, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DataError(f"'{where}.{key}' must be a number, not {value!r}", path, _line_of(path, key))
        return kind(value)
    if not isinstance(value, str) or not value:
        raise DataError(f"'{where}.{key}' must be a non-empty string", path, _line_of(path, key))
    return value


def machine(lab: str = LAB) -> Machine:
    data, path = load_lab(lab)
    q = _section(data, "qemu", path)
    return Machine(
        binary=_get(q, "binary", str, path, "qemu"),
        machine=_get(q, "machine", str, path, "qemu"),
        cpu=_get(q, "cpu", str, path, "qemu"),
        smp=_get(q, "smp", int, path, "qemu"),
        memory=_get(q, "memory", int, path, "qemu"),
        accel=_get(q, "accel", str, path, "qemu"),
        firmware=_get(q, "firmware", str, path, "qemu"),
        append=_get(q, "append", str, path, "qemu"),
        devices=_get(q, "devices", tuple, path, "qemu"),
        model=_get(q, "model", str, path, "qemu"),
        hostname=_get(q, "hostname", str, path, "qemu"),
        boot_timeout=_get(q, "boot_timeout", float, path, "qemu"),
        **_disk(q, path),
    )


def _disk(q: dict, path: Path) -> dict:
    disk = q.get("disk")
    if disk is None:
        return {}
    if not isinstance(disk, dict):
        raise DataError("'qemu.disk' must be a mapping {size_mb, fs, mount}", path, _line_of(path, "disk"))
    return {
        "disk_mb": _get(disk, "size_mb", int, path, "disk"),
        "disk_fs": _get(disk, "fs", str, path, "disk"),
        "disk_mount": _get(disk, "mount", str, path, "disk"),
    }


def image(lab: str = LAB) -> Image:
    data, path = load_lab(lab)
    i = _section(data, "image", path)
    fio = i.get("fio")
    if not isinstance(fio, dict):
        raise DataError("missing mapping 'image.fio:'", path, _line_of(path, "image"))
    return Image(
        release=_get(i, "release", str, path, "image"),
        archive=_get(i, "archive", tuple, path, "image"),
        kernel=_get(i, "kernel", str, path, "image"),
        packages=_get(i, "packages", tuple, path, "image"),
        binaries=_get(i, "binaries", tuple, path, "image"),
        modules=_get(i, "modules", tuple, path, "image"),
        fio_source=_get(fio, "source", str, path, "fio"),
        fio_configure=_get(fio, "configure", tuple, path, "fio"),
        fio_install=_get(fio, "install", str, path, "fio"),
    )
