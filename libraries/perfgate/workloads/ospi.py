"""OSPI/QSPI flash (suite ospi): UBIFS write and read per buffer size, raw read per MB,
with fio on what the lab names under storage.ospi / storage.ospi_raw
(perfgate.workloads.fio_storage; commands in variables/workloads/storage.yaml)."""

from __future__ import annotations

from perfgate.workloads.fio_storage import FioStorage


class Ospi(FioStorage):
    suite = "ospi"


WORKLOAD = Ospi()
