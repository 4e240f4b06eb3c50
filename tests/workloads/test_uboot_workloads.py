"""U-Boot storage workloads: the commands come from the board profile and the lab, one write and one read per size,
and a medium the lab does not name is never written."""

from __future__ import annotations

from perfgate import boards, criteria
from perfgate.board.lab import load
from perfgate.sim import workloads as sim_workloads
from perfgate.workloads import uboot_emmc, uboot_mmcsd, uboot_ospi, uboot_ufs
from seed_releases import seed


def test_j721e_plans_cover_every_published_number():
    profile = boards.profile("j721e_idk_gw")
    lab = load("sim", "j721e_idk_gw").data
    for module in (uboot_emmc, uboot_mmcsd, uboot_ospi, uboot_ufs):
        wl = module.WORKLOAD
        crits = criteria.load("j721e_idk_gw", wl.suite, release=seed("j721e_idk_gw"))
        assert crits, wl.suite
        assert wl.applicable(crits, profile, lab) is None
        runs = wl.plan(crits, profile, lab)
        covered = {cid for r in runs for ids in r.keys.values() for cid in ids}
        assert covered == {c.id for c in crits}, wl.suite
        assert all(r.where == "uboot" and r.tool == "uboot" for r in runs)
        # writes come before reads of the same size
        assert [r.label.split("-")[0] for r in runs[:2]] == ["write", "read"]


def test_commands_are_filled_from_profile_and_lab():
    profile = boards.profile("j721e_idk_gw")
    lab = load("sim", "j721e_idk_gw").data
    crits = criteria.load("j721e_idk_gw", "uboot_ospi", release=seed("j721e_idk_gw"))
    runs = uboot_ospi.WORKLOAD.plan(crits, profile, lab)
    assert runs[0].command == "time sf update 0x82000000 0x0 0x400000"
    assert runs[1].command == "time sf read 0x82000000 0x0 0x400000"
    assert uboot_ospi.WORKLOAD.setup(crits, profile, lab) == ["sf probe"]
    runs = uboot_emmc.WORKLOAD.plan(
        criteria.load("j721e_idk_gw", "uboot_emmc", release=seed("j721e_idk_gw")), profile, lab
    )
    assert runs[0].command == "time mmc write 0x82000000 0x0 0x10000"  # 0x2000000 bytes = 0x10000 blocks
    runs = uboot_mmcsd.WORKLOAD.plan(
        criteria.load("j721e_idk_gw", "uboot_mmcsd", release=seed("j721e_idk_gw")), profile, lab
    )
    assert runs[1].command == "fatload mmc 1:1 0x82000000 perfgate.bin 0x400000"
    runs = uboot_ufs.WORKLOAD.plan(
        criteria.load("j721e_idk_gw", "uboot_ufs", release=seed("j721e_idk_gw")), profile, lab
    )
    assert runs[1].command == "time scsi read 0x82000000 0x0 0x400"  # 4096-byte blocks


def test_a_lab_that_names_no_medium_never_writes_it():
    profile = boards.profile("j721e_idk_gw")
    lab = load("example-ser2net", "j721e_idk_gw").data  # names only uboot_mmcsd
    crits = criteria.load("j721e_idk_gw", "uboot_emmc", release=seed("j721e_idk_gw"))
    reason = uboot_emmc.WORKLOAD.applicable(crits, profile, lab)
    assert reason and "names no storage.uboot_emmc" in reason
    assert (
        uboot_mmcsd.WORKLOAD.applicable(
            criteria.load("j721e_idk_gw", "uboot_mmcsd", release=seed("j721e_idk_gw")), profile, lab
        )
        is None
    )


def test_the_sim_is_told_the_published_rates():
    profile = boards.profile("j721e_idk_gw")
    lab = load("sim", "j721e_idk_gw").data
    crits = criteria.load("j721e_idk_gw", "uboot_ospi", release=seed("j721e_idk_gw"))
    e = sim_workloads.expected(uboot_ospi.WORKLOAD, "time sf read 0x82000000 0x0 0x400000", crits, profile, lab)
    assert e and e.tool == "uboot" and e.values == {"read (KB/s)": 195047.62}


def test_device_numbers_are_the_boards_and_the_lab_may_override_them():
    lab = load("sim", "am43xx_gpevm").data
    profile = boards.profile("am43xx_gpevm")
    runs = uboot_mmcsd.WORKLOAD.plan(
        criteria.load("am43xx_gpevm", "uboot_mmcsd", release=seed("am43xx_gpevm")), profile, lab
    )
    assert runs[0].command == "fatwrite mmc 0:1 0x82000000 perfgate.bin 0x400000"  # AM437x: the SD card is mmc 0
    lab = load("example-ser2net", "j721e_idk_gw").data
    lab["storage"]["uboot_mmcsd"] = {"dev": 2, "file": "gate.bin"}
    runs = uboot_mmcsd.WORKLOAD.plan(
        criteria.load("j721e_idk_gw", "uboot_mmcsd", release=seed("j721e_idk_gw")), boards.profile("j721e_idk_gw"), lab
    )
    assert runs[0].command == "fatwrite mmc 2:1 0x82000000 gate.bin 0x400000"
