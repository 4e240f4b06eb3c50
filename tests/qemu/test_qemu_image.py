"""The QEMU image: lab data, QEMU's command line, the initramfs pieces, and the build cache."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate.errors import DataError
from perfgate.qemu import image, launch, recipe, rootfs
from testpaths import ROOT

REPO = ROOT


@pytest.fixture
def lab_root(tmp_path, monkeypatch) -> Path:
    (tmp_path / "variables" / "labs").mkdir(parents=True)
    shutil.copy(REPO / "variables/labs/qemu.yaml", tmp_path / "variables/labs/qemu.yaml")
    monkeypatch.setenv("PERFGATE_ROOT", str(tmp_path))
    return tmp_path / "variables/labs/qemu.yaml"


def test_lab_data_reads(lab_root):
    m = recipe.machine()
    assert (m.machine, m.cpu, m.smp, m.memory) == ("virt", "cortex-a53", 2, 512)
    assert m.devices == ("virtio-net-pci,netdev=n0", "virtio-rng-pci")
    img = recipe.image()
    assert img.kernel == "linux-image-arm64" and "dropbear-bin" in img.packages
    assert "/usr/bin/cyclictest" in img.binaries and img.fio_install == "/usr/bin/fio"
    assert any(a.startswith("deb-src ") for a in img.archive)  # apt-get source fio needs it


def test_bad_lab_data_names_file_and_line(lab_root):
    text = lab_root.read_text().replace("  smp: 2\n", "  smp: two\n")
    lab_root.write_text(text)
    with pytest.raises(DataError) as e:
        recipe.machine()
    line = text.splitlines().index("  smp: two") + 1
    assert str(e.value).startswith(f"{lab_root}:{line}: ") and "qemu.smp" in str(e.value)
    lab_root.write_text(text.replace("  smp: two\n", "  smp: 2\n").replace("  kernel: linux-image-arm64", ""))
    with pytest.raises(DataError, match=r"missing key 'image.kernel'"):
        recipe.image()


def test_qemu_command_line(lab_root, tmp_path):
    m = recipe.machine()
    img = launch.Image(Path("/b/Image"), Path("/b/initrd"), Path("/b/board.dtb"))
    cmd = launch.argv(m, img, serial_port=4000, ssh_port=4001, serial_log=tmp_path / "s.log")
    joined = " ".join(cmd)
    assert cmd[0] == "qemu-system-aarch64" and "-no-reboot" in cmd and "-dtb /b/board.dtb" in joined
    assert f"socket,id=ser0,host=127.0.0.1,port=4000,server=on,wait=on,logfile={tmp_path / 's.log'}" in joined
    assert "user,id=n0,hostfwd=tcp:127.0.0.1:4001-:22" in cmd
    assert "-bios /usr/lib/u-boot/qemu_arm64/u-boot.bin" in joined
    dump = launch.argv(m, img, serial_port=None, ssh_port=None, dumpdtb=tmp_path / "x.dtb")
    assert f"virt,dumpdtb={tmp_path / 'x.dtb'}" in dump and "-dtb" not in dump
    disk = launch.argv(m, img, serial_port=1, ssh_port=2, disk=tmp_path / "d.img")
    assert f"file={tmp_path / 'd.img'},if=none,id=disk0,format=raw" in disk and "virtio-blk-pci,drive=disk0" in disk
    assert (m.disk_mb, m.disk_fs, m.disk_mount) == (256, "ext4", "/mnt/mmcsd")


def test_guest_files():
    guest = rootfs.Guest("perfgate-qemu", "6.1.0-56-arm64", ("virtio_pci", "virtio_net"), "perfgate QEMU", "/mnt/x")
    files = rootfs.files(guest, ["/etc/dropbear/dropbear_ed25519_host_key"], "ssh-ed25519 AAAA perfgate")
    rcs = files["etc/init.d/rcS"][0]
    assert "mount -t ext4 /dev/vda /mnt/x" in rcs
    assert "/dev/vda" not in rootfs.files(rootfs.Guest("h", "r", (), "m"), [], "k")["etc/init.d/rcS"][0]
    assert "insmod /lib/modules/6.1.0-56-arm64/$m.ko" in rcs and "for m in virtio_pci virtio_net" in rcs
    assert "dropbear -F -E -B -p 22 -r /etc/dropbear/dropbear_ed25519_host_key" in rcs
    assert files["etc/passwd"][0] == "root:x:0:0:root:/root:/bin/sh\n"  # busybox skips an empty password field
    assert files["etc/shadow"] == ("root::19000:0:99999:7:::\n", 0o600)  # ... so the empty password is here
    assert files["root/.ssh/authorized_keys"] == ("ssh-ed25519 AAAA perfgate\n", 0o600)
    assert "getty -L 115200 ttyAMA0" in files["etc/inittab"][0]


def test_cpio_archive_is_reproducible_and_root_owned(tmp_path):
    tree = tmp_path / "tree"
    rootfs.write_files(tree, {"init": ("#!/bin/sh\n", 0o755), "root/.ssh/authorized_keys": ("k\n", 0o600)})
    (tree / "bin").mkdir()
    (tree / "bin" / "sh").symlink_to("busybox")
    a, b = tmp_path / "a.cpio.gz", tmp_path / "b.cpio.gz"
    rootfs.cpio(tree, a)
    rootfs.cpio(tree, b)
    assert a.read_bytes() == b.read_bytes()
    listing = subprocess.run(["cpio", "-itv", "--quiet"], input=gzip.decompress(a.read_bytes()),
                             capture_output=True, check=True).stdout.decode()  # fmt: skip
    assert "bin/sh -> busybox" in listing and "root/.ssh/authorized_keys" in listing
    assert all(" root " in line or " 0 " in line for line in listing.splitlines() if line.strip())


def test_missing_image_says_how_to_build(tmp_path):
    with pytest.raises(image.BuildError, match=r"python -m perfgate qemu build"):
        image.current(tmp_path)


@pytest.mark.slow
@pytest.mark.qemu
def test_built_image_is_reused_until_an_input_changes():
    try:
        built = image.current()
    except image.BuildError as e:
        pytest.skip(str(e))
    p = subprocess.run([sys.executable, "-m", "perfgate", "qemu", "build"], capture_output=True, text=True,
                       timeout=600, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    if "up to date" not in p.stderr:  # the archive moved on since the last build: it was rebuilt, check again
        p = subprocess.run([sys.executable, "-m", "perfgate", "qemu", "build"], capture_output=True, text=True,
                           timeout=600, check=False)  # fmt: skip
    assert f"is up to date in {built.folder}" in p.stderr
    stamp = json.loads((built.folder / "stamp.json").read_text())
    assert stamp["inputs"]["packages"]["openssl"] and stamp["inputs"]["fio_source"]
    manifest = json.loads((built.folder / "manifest.json").read_text())
    assert {"usr/bin/fio", "usr/bin/openssl", "usr/bin/iperf3", "usr/bin/cyclictest", "usr/bin/stress-ng",
            "usr/sbin/dropbear"} <= set(manifest["files"])  # fmt: skip
    kernel = built.kernel.read_bytes()[:64]
    assert kernel[56:60] == b"ARM\x64"
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(built.dtb)], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    assert 'model = "perfgate QEMU arm64 virtual board";' in dts
