"""U-Boot MMCSD write/read throughput (suite uboot_mmcsd): see perfgate.workloads.uboot_storage."""

from perfgate.workloads.uboot_storage import UbootStorage

WORKLOAD = UbootStorage("mmcsd")
