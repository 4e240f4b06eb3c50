"""NAND flash, UBIFS per buffer size (suite nand): fio write then read per buffer size on what the lab names
under storage.nand (perfgate.workloads.fio_storage; commands in variables/workloads/storage.yaml)."""

from __future__ import annotations

from perfgate.workloads.fio_storage import FioStorage


class Nand(FioStorage):
    suite = "nand"


WORKLOAD = Nand()
