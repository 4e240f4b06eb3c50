"""perfgate.tools.uboot on real U-Boot captures (tests/fixtures/uboot, see PROVENANCE.md) and the guides' formula."""

from __future__ import annotations

import random

import pytest

from captures import capture
from perfgate.errors import ParseError
from perfgate.sim.tools import uboot as sim_uboot
from perfgate.tools import uboot
from testpaths import FIXTURES

FIX = FIXTURES / "uboot"


def text(name: str) -> str:
    return (FIX / name).read_bytes().decode()


def test_fatload_and_fatwrite_real_captures():
    assert uboot.parse(text("qemu_arm64-fatload-400000.txt")) == {
        "read (KB/s)": round(4096 / 0.029, 2), "bytes": 4194304.0, "ms": 29.0}  # fmt: skip
    assert uboot.parse(text("qemu_arm64-fatwrite-400000.txt"))["write (KB/s)"] == round(4096 / 0.027, 2)
    assert uboot.parse(text("qemu_arm64-fatload-1000000.txt"))["read (KB/s)"] == 327680.0  # 16384 KiB in 50 ms


def test_guide_formula_reproduces_published_numbers():
    # tool-outputs.md: 0x400000 in 50 ms -> 81920.00; j7200 UBoot MMCSD read 0x800000 = 81920.00 (100 ms)
    assert uboot.kbps(0x400000, 50) == 81920.00
    assert uboot.kbps(0x2000000, 192) == 170666.67  # am62xx_sk UBOOT EMMC RAW read 2000000
    assert uboot.kbps(0x400000, 21) == 195047.62  # j721e OSPI read 400000


def test_time_lines_take_the_size_from_the_command():
    # format from u-boot cmd/time.c (this Debian U-Boot has no `time` command: see PROVENANCE.md)
    out = "\nMMC read: dev # 0, block # 0, count 65536 ... 65536 blocks read: OK\n\ntime: 0.192 seconds\n"
    assert uboot.parse(out, "time mmc read 0x82000000 0x0 0x10000")["read (KB/s)"] == 170666.67
    out = "SF: 4194304 bytes @ 0x0 Read: OK\n\ntime: 0.021 seconds\n"
    assert uboot.parse(out, "time sf read 0x82000000 0x0 0x400000")["read (KB/s)"] == 195047.62
    out = "\ntime: 1 minutes, 2.500 seconds\n"
    assert uboot.parse(out, "time sf update 0x82000000 0x0 0x400000")["write (KB/s)"] == round(4096 / 62.5, 2)
    out = "\nSCSI write: device 0 block # 0, count 1024 ... 1024 blocks written: OK\n\ntime: 0.041 seconds\n"
    assert uboot.parse(out, "time scsi write 0x82000000 0x0 0x400")["write (KB/s)"] == round(4096 / 0.041, 2)


def test_unrecognised_output_is_a_parse_error():
    with pytest.raises(ParseError, match="Unknown command 'time'"):
        uboot.parse(text("qemu_arm64-time-unknown.txt"), "time virtio read 0x40200000 0 1")
    with pytest.raises(ParseError, match="no `bytes read/written in`"):
        uboot.parse(text("qemu_arm64-virtio-read-2000.txt"), "virtio read 0x40200000 0x0 0x2000")
    with pytest.raises(ParseError, match="without the command"):
        uboot.parse("time: 0.100 seconds\n")
    with pytest.raises(ParseError, match="cannot tell the transfer size"):
        uboot.parse("time: 0.100 seconds\n", "time echo hi")


def test_render_prints_what_real_u_boot_prints():
    real = text("qemu_arm64-fatload-1000000.txt").splitlines()[1]
    rendered = sim_uboot.render("fatload mmc 1:1 0x82000000 perfgate.bin 0x1000000", {"read (KB/s)": 327680.0},
                            random.Random(0))  # fmt: skip
    shape = r"^\d+ bytes read in \d+ ms \(\d+(\.\d)? MiB/s\)$"
    import re

    assert re.match(shape, real) and re.match(shape, rendered.strip()), (real, rendered)
    assert (
        sim_uboot.print_size(335544320, "/s") == "320 MiB/s" and sim_uboot.print_size(155293696, "/s") == "148.1 MiB/s"
    )
    commands = ["time mmc write 0x82000000 0x0 0x10000", "time sf read 0x82000000 0x0 0x400000"]
    commands += ["time scsi read 0x82000000 0x0 0x400", "fatwrite mmc 1:1 0x82000000 perfgate.bin 0x400000"]
    for cmd in commands:
        values = {"read (KB/s)": 170666.67, "write (KB/s)": 60000.0}
        m = uboot.parse(sim_uboot.render(cmd, values, random.Random(3)), cmd)
        key = next(k for k in m if k.endswith("(KB/s)"))
        assert abs(m[key] / values[key] - 1) < 0.1, (cmd, m)


def test_a_load_in_0_ms_is_not_a_rate():
    text_ = capture(FIX / "load-178-bytes-in-0-ms.txt")
    with pytest.raises(ParseError) as e:
        uboot.parse(text_, "fatload virtio 0:0 0x40200000 uEnv.txt")
    assert "`178 bytes read in 0 ms` is not a rate" in str(e.value)
    assert e.value.line == 2


def test_several_transfers_in_one_output_are_refused() -> None:
    """Several fatloads in one console excerpt (constructed after BeagleBadge's flashing steps in TI's docs,
    uboot/corpus/) are several measurements, refused naming their lines; one of them alone is read."""
    with pytest.raises(ParseError, match=r"3 transfers in one U-Boot output \(lines 2, 4, 6\)"):
        uboot.parse(capture(FIX / "corpus" / "three-fatloads-one-console-constructed.txt"))
    one = uboot.parse(capture(FIX / "corpus" / "one-fatload-constructed.txt"))
    assert one == {"read (KB/s)": pytest.approx(262144 / 1024 / 0.013, abs=0.01), "bytes": 262144.0, "ms": 13.0}
