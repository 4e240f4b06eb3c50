"""U-Boot UFS write/read throughput (suite uboot_ufs): see perfgate.workloads.uboot_storage."""

from perfgate.workloads.uboot_storage import UbootStorage

WORKLOAD = UbootStorage("ufs")
