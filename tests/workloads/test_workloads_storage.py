"""Storage workloads (fio) on the boards' imported criteria, answered the way the simulated board answers
(tests/workload_harness.py), parsed by the real fio parser; and the rule that nothing is written to a medium the
lab does not name."""

from __future__ import annotations

import importlib

import pytest

from perfgate import boards, criteria
from perfgate.workloads import fio_storage
from seed_releases import seed
from workload_harness import SIM_LAB, context

BOARDS = ["am43xx_gpevm", "am574x_idk", "am62xx_lp_sk", "am62xx_sk", "am62xxsip_sk", "am64xx_evm", "j7200_evm",
          "j721e_idk_gw", "j721s2_evm", "j784s4_evm"]  # fmt: skip
SUITES = ["emmc", "mmcsd", "nvme", "usb_msc", "ospi", "nand", "sata"]
CASES = [(b, s) for b in BOARDS for s in SUITES if criteria.load(b, s, release=seed(b))]
LAB = dict(SIM_LAB, storage={"emmc": "/run/media/mmcblk0p1", "mmcsd": "/run/media/mmcblk1p1", "nvme": "/mnt/nvme",
                             "usb_msc": "/run/media/sda1", "ospi": "/mnt/ubi0", "ospi_raw": "/dev/mtdblock0",
                             "nand": "/mnt/ubi1", "usb_gadget": "/dev/sdx"})  # fmt: skip


def workload(suite: str) -> fio_storage.FioStorage:
    return importlib.import_module(f"perfgate.workloads.{suite}").WORKLOAD


@pytest.mark.parametrize(("board", "suite"), CASES)
def test_every_criterion_measured_near_its_published_value(board: str, suite: str) -> None:
    wl = workload(suite)
    ctx = context(wl, board, suite, lab=LAB)
    assert wl.applicable(ctx.criteria, ctx.profile, ctx.lab) is None
    m = wl.measure(ctx.criteria, ctx)
    for c in ctx.criteria:
        assert c.id in m.values, (c.name, m.missing.get(c.id), m.skipped.get(c.id))
        assert abs(m.values[c.id] - c.value) <= 0.1 * max(c.value, 1.0), (c.name, c.value, m.values[c.id])
        assert m.tools[c.id] == "fio"


def test_write_then_read_then_remove_in_one_command() -> None:
    ctx = context(workload("emmc"), "am62xx_sk", "emmc", lab=LAB)
    workload("emmc").measure(ctx.criteria, ctx)
    cmds = [c for _, c in ctx.commands]
    assert len(cmds) == 4  # 1m, 4m, 4k, 256k
    for c in cmds:
        write, rest = c.split(" && ")
        assert "--rw=write" in write and "--rw=read" in rest
        assert "--ioengine=libaio --iodepth=4 --numjobs=1 --direct=1 --runtime=2 --time_based" in write
        assert rest.endswith("rm -f /run/media/mmcblk0p1/perfgate-fio.test")
    assert any("--bs=4k" in c for c in cmds)


def test_a_medium_the_lab_does_not_name_is_skipped_and_never_written() -> None:
    lab = dict(LAB, storage={"mmcsd": "/run/media/mmcblk1p1"})
    ctx = context(workload("emmc"), "am62xx_sk", "emmc", lab=lab)
    m = workload("emmc").measure(ctx.criteria, ctx)
    assert not ctx.commands
    assert set(m.skipped) == {c.id for c in ctx.criteria}
    assert "names no emmc_ext4 or emmc under storage" in next(iter(m.skipped.values()))


def test_a_named_device_is_the_fio_file_and_is_not_removed() -> None:
    lab = dict(LAB, storage={"emmc": "/dev/mmcblk0"})
    ctx = context(workload("emmc"), "am64xx_evm", "emmc", lab=lab)
    m = workload("emmc").measure(ctx.criteria, ctx)
    assert len(m.values) == len(ctx.criteria)
    for _, c in ctx.commands:
        assert "--filename=/dev/mmcblk0 " in c and "rm -f" not in c


def test_ubifs_runs_without_o_direct_and_raw_read_is_read_only() -> None:
    ctx = context(workload("ospi"), "am64xx_evm", "ospi", lab=LAB)
    workload("ospi").measure(ctx.criteria, ctx)
    ubifs = [c for _, c in ctx.commands if "ubifs" in c]
    raw = [c for _, c in ctx.commands if "-raw-" in c]
    assert ubifs and all("--direct=0" in c for c in ubifs)
    assert raw == ["fio --name=ospi-raw-50-read --filename=/dev/mtdblock0 --size=50M --bs=1m --rw=read "
                   "--ioengine=sync --output-format=json"]  # fmt: skip


def test_usb_gadget_tables_run_on_the_tester() -> None:
    lab = dict(LAB, kind="hardware")
    ctx = context(workload("usb_msc"), "j721e_idk_gw", "usb_msc", lab=lab)
    m = workload("usb_msc").measure(ctx.criteria, ctx)
    gadget = [(w, c) for w, c in ctx.commands if "/dev/sdx" in c]
    assert len(gadget) == 2 and all(w == "host" for w, _ in gadget)
    assert len(m.values) == len(ctx.criteria)


def test_older_guides_per_filesystem_tables_use_their_own_target_when_named() -> None:
    lab = dict(LAB, storage={"mmcsd": "/mnt/sd-ext4", "mmcsd_vfat": "/mnt/sd-vfat"})
    ctx = context(workload("mmcsd"), "am574x_idk", "mmcsd", lab=lab)
    workload("mmcsd").measure(ctx.criteria, ctx)
    vfat = [c for _, c in ctx.commands if "-vfat-" in c]
    ext2 = [c for _, c in ctx.commands if "-ext2-" in c]
    assert vfat and all("/mnt/sd-vfat/" in c and "--direct=0" in c for c in vfat)
    assert ext2 and all("/mnt/sd-ext4/" in c for c in ext2)
    assert any("storage.mmcsd_vfat" in n for n in ctx.notes)


def test_every_storage_criterion_classifies() -> None:
    conf = fio_storage.settings("emmc", {}, LAB)
    for b in BOARDS:
        for s in SUITES:
            for c in criteria.load(b, s, release=seed(b)):
                assert not isinstance(fio_storage.classify(c, conf), str), c.name


def test_board_without_the_medium_is_not_applicable() -> None:
    wl = workload("nvme")
    assert "has no nvme" in (wl.applicable([], {"name": "am62xx_sk", "has": ["emmc"]}, LAB) or "")


def test_unrecognised_fio_output_is_an_invalid_run_naming_its_evidence() -> None:
    ctx = context(workload("emmc"), "am64xx_evm", "emmc", lab=LAB)
    ctx.run = lambda command, **kw: "fio: engine libaio not loadable\n"  # type: ignore[method-assign]
    ctx.last_evidence = "raw/emmc/fio-emmc-ext4-4k-1.txt"
    m = workload("emmc").measure(ctx.criteria, ctx)
    assert not m.values and not m.missing and set(m.invalid) == {c.id for c in ctx.criteria}
    assert all(r[0].startswith("fio output not recognised: ") for r in m.invalid.values())
    assert all(m.invalid_evidence[c.id] == ["raw/emmc/fio-emmc-ext4-4k-1.txt"] for c in ctx.criteria)
    assert all(m.evidence[c.id] == ["raw/emmc/fio-emmc-ext4-4k-1.txt"] for c in ctx.criteria)


def test_a_labs_per_board_workload_settings_apply() -> None:
    lab = dict(LAB, boards={"am64xx_evm": {"workloads": {"emmc": {"size": "2G"}}}})
    assert fio_storage.settings("emmc", {"name": "am64xx_evm"}, lab)["size"] == "2G"
    assert fio_storage.settings("emmc", {"name": "am62xx_sk"}, lab)["size"] == "1G"


def test_a_second_device_of_a_medium_is_its_own_target() -> None:
    """AM57x 11.01: the mSATA SSD tables are not the SATA disk's: their own jobs on storage.sata_msata, and a lab
    that does not name it skips them with the reason instead of measuring the SATA disk for them."""
    from perfgate.workloads import sata

    crits = criteria.load("am57xx_evm", "sata", release="11.01")
    msata = {c.id for c in crits if "msata" in c.table.lower()}
    assert len(msata) == 60 and len(crits) == 100
    lab = {"name": "bench", "kind": "hardware", "storage": {"sata": "/run/media/sdb1"}}
    runs = sata.WORKLOAD.plan(crits, boards.profile("am57xx_evm"), lab)
    assert {cid for r in runs for ids in r.keys.values() for cid in ids} == {c.id for c in crits} - msata
    lab["storage"]["sata_msata"] = "/run/media/sdc1"
    runs = sata.WORKLOAD.plan(crits, boards.profile("am57xx_evm"), lab)
    on_ssd = {cid for r in runs if "/run/media/sdc1/" in r.command for ids in r.keys.values() for cid in ids}
    assert on_ssd == msata
