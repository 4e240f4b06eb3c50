"""EEMBC MultiBench (licensed; no public source). It runs on the same MITH harness as CoreMark-PRO and logs each
workload the same way, `-- <workload>:workloads/sec= 311.06` (*inferred* from the harness; TI's command is not
published: the board or lab data gives it). Metric: `<workload> (workloads/)`, the last value of each workload.
"""

from __future__ import annotations

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.coremark_pro import key, mith_lines

# The MultiBench workloads TI's guides publish (the suite is licensed: its names come from the guides' rows).
WORKLOADS = ("4m-check", "4m-check-reassembly", "4m-check-reassembly-tcp", "4m-check-reassembly-tcp-cmykw2-rotatew2",
             "4m-check-reassembly-tcp-x264w2", "4m-cmykw2", "4m-cmykw2-rotatew2", "4m-reassembly", "4m-rotatew2",
             "4m-tcp-mixed", "4m-x264w2", "empty-wld", "idct-4m", "idct-4mw1", "ippktcheck-4m", "ippktcheck-4mw1",
             "ipres-4m", "ipres-4mw1", "md5-4m", "md5-4mw1", "rgbcmyk-4m", "rgbcmyk-4mw1", "rotate-4ms1",
             "rotate-4ms1w1", "rotate-4ms64", "rotate-4ms64w1", "x264-4mq", "x264-4mqw1")  # fmt: skip


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    return [key(w) for w in WORKLOADS]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out = mith_lines(text)
    if not out:
        raise ParseError("no `-- <workload>:workloads/sec=` lines: not MultiBench output" + _of(command))
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("multibench", parse, binaries=("multibench",))
