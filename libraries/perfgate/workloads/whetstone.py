"""System Benchmarks / whetstone: one run of TI's command (variables/workloads/whetstone.yaml), read by its parser."""

from __future__ import annotations

from perfgate.workloads.system_common import ToolWorkload


class WhetstoneWorkload(ToolWorkload):
    suite = "whetstone"
    tool = "whetstone"


WORKLOAD = WhetstoneWorkload()
