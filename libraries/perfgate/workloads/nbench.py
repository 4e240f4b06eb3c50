"""System Benchmarks / nbench: one run of TI's command (variables/workloads/nbench.yaml), read by its parser."""

from __future__ import annotations

from perfgate.workloads.system_common import ToolWorkload


class NbenchWorkload(ToolWorkload):
    suite = "nbench"
    tool = "nbench"


WORKLOAD = NbenchWorkload()
