"""MMC/SD (suite mmcsd): fio write then read per buffer size on what the lab names under storage.mmcsd
(perfgate.workloads.fio_storage; commands in variables/workloads/storage.yaml)."""

from __future__ import annotations

from perfgate.workloads.fio_storage import FioStorage


class Mmcsd(FioStorage):
    suite = "mmcsd"


WORKLOAD = Mmcsd()
