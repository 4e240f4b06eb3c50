"""Whether one run's value is a measurement at all: a failed run is not a slow run.

TI's own published means average failed runs in as zeros (lat_mem_rd, netperf and UDP cells with min 0.00); a gate
that averages them reads a healthy board as a regressed one. A value of exactly zero where the guide publishes a
positive throughput (or latency) is a run that failed (a dropped connection, a tool that printed 0), set aside with
its reason, never averaged: the judge (perfgate.judge) asks this of every sample.
"""

from __future__ import annotations

from perfgate.model import Criterion

TIME_UNITS = {"us", "usec", "usecs", "ns", "ms", "s", "sec", "seconds"}


def failed_run(c: Criterion, value: float) -> str | None:
    """Why `value` is no measurement of `c` (None: it is one). A zero (or less) where the guide publishes a positive
    value in a quantity that is never zero on a working board: a throughput, a rate, a latency."""
    if c.direction == "match" or c.value <= 0:
        return None
    if c.direction == "lower" and c.unit.lower() not in TIME_UNITS:  # 0 % CPU load, 0 % loss: a fine result
        return None
    if value <= 0:
        what = "throughput" if c.direction == "higher" else "latency"
        return (f"a failed run: it measured {value:g} {c.unit} where the guide publishes {c.value:g} {c.unit} "
                f"(a {what} of zero is a run that did not happen, not a slow one)")  # fmt: skip
    return None
