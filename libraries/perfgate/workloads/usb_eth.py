"""USB CDC / RNDIS (suite usb_eth): TCP bandwidth per TCP window size over the board's USB gadget network link,
iperf 2 with default options to the USB host (the lab names it: workloads.usb_eth.tester). A table belongs to the
mode (cdc, rndis) whose `match` pattern its title matches; each mode has its own port and optional gadget setup
command (variables/workloads/network.yaml: usb_eth.modes)."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Workload
from perfgate.workloads.network import IperfWindows, norm


class UsbEth(IperfWindows, Workload):
    suite = "usb_eth"

    def modes(self, conf: dict) -> dict[str, dict]:
        return dict(conf.get("modes") or {})

    def mode_of(self, c: Criterion, conf: dict) -> str | None:
        for name, mode in self.modes(conf).items():
            if re.search(str(mode.get("match", name)), norm(f"{c.table} {c.name}")):
                return name
        return None


WORKLOAD = UsbEth()
