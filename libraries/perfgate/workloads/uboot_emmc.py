"""U-Boot EMMC write/read throughput (suite uboot_emmc): see perfgate.workloads.uboot_storage."""

from perfgate.workloads.uboot_storage import UbootStorage

WORKLOAD = UbootStorage("emmc")
