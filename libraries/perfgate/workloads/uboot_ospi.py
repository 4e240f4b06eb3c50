"""U-Boot OSPI write/read throughput (suite uboot_ospi): see perfgate.workloads.uboot_storage."""

from perfgate.workloads.uboot_storage import UbootStorage

WORKLOAD = UbootStorage("ospi")
