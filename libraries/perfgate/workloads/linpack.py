"""System Benchmarks / linpack: one run of TI's command (variables/workloads/linpack.yaml), read by its parser."""

from __future__ import annotations

from perfgate.workloads.system_common import ToolWorkload


class LinpackWorkload(ToolWorkload):
    suite = "linpack"
    tool = "linpack"


WORKLOAD = LinpackWorkload()
