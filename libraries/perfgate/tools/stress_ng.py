"""stress-ng `--metrics-brief` (or `--metrics`): bogo operations per stressor.

What the tool prints (stress-ng 0.15.06, Debian 12, amd64 here and arm64 on the QEMU board: tests/fixtures/stress-ng/),
every line on stderr behind a prefix that changed between releases (`stress-ng: metrc: [pid] `, older
`stress-ng: info:  [pid] `, older still `stress-ng: `, or none):
    setting to a 5 second run per stressor
    dispatching hogs: 1 cpu, 1 vm
    stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s
                              (secs)    (secs)    (secs)   (real time) (usr+sys time)
    cpu                2605      2.00      1.97      0.00      1300.37        1323.11
    successful run completed in 2.00s
`--metrics` adds `CPU used per instance (%)` and `RSS Max (KB)` columns; newer releases add `failed: N` and
`metrics untrustworthy: N` lines.

Metrics, per stressor row: `<stressor> bogo ops/s (real time)`, `<stressor> bogo ops/s (usr+sys time)`,
`<stressor> bogo ops ()`, `<stressor> real time (s)`, and `<stressor> cpu used per instance (%)` where printed.

Refused (ParseError, an INVALID run in the gate): no metrics table (no `--metrics-brief`, or the tool failed),
`unsuccessful run completed`, a `fail:`/`error:` line, `failed: N` or `metrics untrustworthy: N` above 0, a stressor
printed twice (two runs), and a run cut short (an interrupted stress-ng still prints its table: its real time is then
shorter than the run it set, `setting to a 5 second run`).
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

PREFIX = re.compile(r"^(?:stress-ng:\s*(?:[a-z]+:\s*)?(?:\[\d+\]\s*)?)?")
HEADER = re.compile(r"^stressor\s+bogo ops\s+real time\s+usr time\s+sys time\s+bogo ops/s\s+bogo ops/s")
NUM = r"\d+(?:\.\d+)?"
ROW = re.compile(rf"^(?P<name>[a-z][\w-]*)\s+(?P<ops>\d+)\s+(?P<real>{NUM})\s+{NUM}\s+{NUM}\s+(?P<rate>{NUM})\s+"
                 rf"(?P<cpu_rate>{NUM})(?:\s+(?P<used>{NUM}))?(?:\s+\d+)?\s*$")  # fmt: skip
SETTING = re.compile(r"^setting to a (\d+(?:\.\d+)?) (second|sec|secs|min|mins|minute|minutes|hour|hours) run")
UNIT = {"second": 1, "sec": 1, "secs": 1, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "hour": 3600,
        "hours": 3600}  # fmt: skip
FAILED = re.compile(r"^(?:failed|metrics untrustworthy):\s*([1-9]\d*)")
FAILURE = re.compile(r"^stress-ng:\s*(?:fail|error):|unsuccessful run completed|unrecognized option|unknown stressor")
SHORT = 0.9  # a run whose real time is under this share of the time it set was cut short


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    planned: float | None = None
    in_table = False
    for n, raw in enumerate(text.splitlines(), 1):
        if FAILURE.search(raw.strip()):
            raise ParseError(f"line {n}: stress-ng failed: {raw.strip()!r}", line=n)
        line = PREFIX.sub("", raw.strip(), count=1).strip()
        if m := SETTING.match(line):
            planned = float(m.group(1)) * UNIT[m.group(2)]
        elif m := FAILED.match(line):
            raise ParseError(f"line {n}: stress-ng reports {line!r}", line=n)
        elif HEADER.match(line):
            in_table = True
        elif in_table and (m := ROW.match(line)):
            name = m.group("name")
            if f"{name} bogo ops ()" in out:
                raise ParseError(f"line {n}: stressor {name!r} is printed twice (two runs in one output)", line=n)
            real = float(m.group("real"))
            if planned and real < SHORT * planned:
                raise ParseError(
                    f"line {n}: the {name} run was cut short: {real:g} s of the {planned:g} s it set", line=n
                )
            out[f"{name} bogo ops ()"] = float(m.group("ops"))
            out[f"{name} real time (s)"] = real
            out[f"{name} bogo ops/s (real time)"] = float(m.group("rate"))
            out[f"{name} bogo ops/s (usr+sys time)"] = float(m.group("cpu_rate"))
            if m.group("used") is not None:
                out[f"{name} cpu used per instance (%)"] = float(m.group("used"))
        elif in_table and not line.startswith("("):
            in_table = False  # the table ended (the units line starts with `(secs)`)
    if not out:
        raise ParseError("no stress-ng metrics table (was it run with --metrics-brief?)")
    return out


CARD = Card("stress-ng", parse, binaries=("stress-ng",))
