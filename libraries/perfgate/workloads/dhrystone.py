"""System Benchmarks / dhrystone: one run of TI's command (variables/workloads/dhrystone.yaml), read by its parser."""

from __future__ import annotations

from perfgate.workloads.system_common import ToolWorkload


class DhrystoneWorkload(ToolWorkload):
    suite = "dhrystone"
    tool = "dhrystone"


WORKLOAD = DhrystoneWorkload()
