"""PCIe-ETH (suite pcie_eth): TCP bandwidth per TCP window size through a PCIe Ethernet card, iperf 2 to a tester
behind that card (the lab names it: workloads.pcie_eth.tester; else the lab's tester). Commands and the port are
data (variables/workloads/network.yaml: pcie_eth)."""

from __future__ import annotations

from perfgate.workloads.base import Workload
from perfgate.workloads.network import IperfWindows


class PcieEth(IperfWindows, Workload):
    suite = "pcie_eth"


WORKLOAD = PcieEth()
