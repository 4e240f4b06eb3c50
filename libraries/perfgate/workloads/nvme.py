"""PCIe NVMe SSD (suite nvme): fio write then read per buffer size on what the lab names under storage.nvme
(perfgate.workloads.fio_storage; commands in variables/workloads/storage.yaml)."""

from __future__ import annotations

from perfgate.workloads.fio_storage import FioStorage


class Nvme(FioStorage):
    suite = "nvme"


WORKLOAD = Nvme()
