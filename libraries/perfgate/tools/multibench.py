"""EEMBC MultiBench (licensed; no public source). It runs on the same MITH harness as CoreMark-PRO and logs each
workload the same way, `-- <workload>:workloads/sec= 311.06` (*inferred* from the harness; TI's command is not
published: the board or lab data gives it). Metric: `<workload> (workloads/)`, the last value of each workload.
"""

from __future__ import annotations

import random

from perfgate.errors import ParseError
from perfgate.tools.coremark_pro import contexts_of, key, mith_lines, mith_run

WORKLOADS = ("4m-check", "4m-check-reassembly", "4m-check-reassembly-tcp", "4m-check-reassembly-tcp-cmykw2-rotatew2",
             "4m-check-reassembly-tcp-x264w2", "4m-cmykw2", "4m-cmykw2-rotatew2", "4m-reassembly", "4m-rotatew2",
             "4m-tcp-mixed", "4m-x264w2", "empty-wld", "idct-4m", "idct-4mw1", "ippktcheck-4m", "ippktcheck-4mw1",
             "ipres-4m", "ipres-4mw1", "md5-4m", "md5-4mw1", "rgbcmyk-4m", "rgbcmyk-4mw1", "rotate-4ms1",
             "rotate-4ms1w1", "rotate-4ms64", "rotate-4ms64w1", "x264-4mq", "x264-4mqw1")  # fmt: skip


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out = mith_lines(text)
    if not out:
        raise ParseError("no `-- <workload>:workloads/sec=` lines: not MultiBench output" + _of(command))
    return out


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    contexts = contexts_of(command)
    names = [k[: -len(" (workloads/)")] for k in values if k.endswith(" (workloads/)")] or list(WORKLOADS)
    text = ""
    for w in dict.fromkeys([*WORKLOADS, *names]):
        if key(w) not in values and names != list(WORKLOADS):
            continue
        text += mith_run(w, contexts, values.get(key(w), 10.0) * (1 + rng.uniform(-0.01, 0.01)), rng)
    return text


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""
