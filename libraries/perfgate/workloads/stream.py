"""System Benchmarks / stream: one run of TI's command (variables/workloads/stream.yaml), read by its parser."""

from __future__ import annotations

from perfgate.workloads.system_common import ToolWorkload


class StreamWorkload(ToolWorkload):
    suite = "stream"
    tool = "stream"


WORKLOAD = StreamWorkload()
