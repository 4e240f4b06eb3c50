"""USB mass storage (suite usb_msc): host mode, fio write then read per buffer size on what the lab
names under storage.usb_msc; and the board's USB device gadget as the tester sees it (storage.usb_gadget)
(perfgate.workloads.fio_storage; commands in variables/workloads/storage.yaml)."""

from __future__ import annotations

from perfgate.workloads.fio_storage import FioStorage


class UsbMsc(FioStorage):
    suite = "usb_msc"


WORKLOAD = UsbMsc()
