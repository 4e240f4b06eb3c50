"""The criterion: one published number of one board, and the order of its fields in a threshold file."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Criterion:
    id: str  # stable: <board>.<suite>.<table slug>.<row slug>.<metric slug>
    name: str  # the test name: the guide's row/metric text, unique within the suite's file
    board: str  # canonical board name (see boards.canonical)
    guide: str  # guide file name, e.g. linux-10.00-am62x.rst
    release: str  # SDK release as the guide states it, e.g. 10.00 or 2017.05
    chapter: str  # system, boot, uboot, network, storage, crypto, rt, audio, graphics, multimedia, power
    suite: str  # the section's suite, e.g. lmbench; file variables/thresholds/<board>/<suite>.csv
    table: str  # the guide's table title
    row: str  # the row key as printed (several key columns joined with " / ")
    metric: str  # column header without the board prefix
    unit: str  # normalised unit, e.g. MB/s, us, ns, %, Mbits/sec, KB/s, fps
    value: float  # published value (the mean when the guide prints "x (min a, max b)")
    min: float | None = None
    max: float | None = None
    direction: str = "higher"  # higher | lower | match
    context: str = ""  # settings that are not criteria, "key=value; key=value" (e.g. UDP datagram size)
    source: str = ""  # <guide file>:<line>

    @property
    def tags(self) -> list[str]:
        return [self.chapter, self.suite, f"board:{self.board}"]

    def to_json(self) -> dict:
        # the fields are flat values: a plain dict is what asdict() returns, without its deep copy
        return {f: getattr(self, f) for f in FIELDS}


FIELDS: list[str] = [f.name for f in fields(Criterion)]
