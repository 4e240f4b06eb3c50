"""System Benchmarks / multibench: one run of TI's command (variables/workloads/multibench.yaml), read by its parser."""

from __future__ import annotations

from perfgate.workloads.system_common import ToolWorkload


class MultibenchWorkload(ToolWorkload):
    suite = "multibench"
    tool = "multibench"


WORKLOAD = MultibenchWorkload()
