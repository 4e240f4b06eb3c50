"""CoreMark-PRO (EEMBC coremark-pro, `make TARGET=linux64 XCMD='-c<contexts>' certify-all`).

The MITH harness logs each workload run (`-- <workload>:workloads/sec=    0.78`), then the results parser prints
    WORKLOAD RESULTS TABLE
                                                     MultiCore SingleCore
    Workload Name                                     (iter/s)   (iter/s)    Scaling
    ----------------------------------------------- ---------- ---------- ----------
    cjpeg-rose7-preset                                   81.97      42.02       1.95
    ...
    MARK RESULTS TABLE
    Mark Name                                        MultiCore SingleCore    Scaling
    ----------------------------------------------- ---------- ---------- ----------
    CoreMark-PRO                                       1498.39     885.95       1.69
Metrics: `<workload> (workloads/)` and `coremark-pro ()` from the MultiCore column (the run's `-c<n>` contexts);
`single-core <workload> (workloads/)` and `single-core coremark-pro ()` from the SingleCore column. Without the tables
(one workload run by hand), the last `workloads/sec=` line of each workload gives `<workload> (workloads/)`.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
MITH = re.compile(rf"^--\s*(?P<w>[\w.+-]+):workloads/sec=\s*(?P<v>{NUM})\s*$")
MITH_CONTEXTS = re.compile(r"^--\s*(?P<w>[\w.+-]+):contexts=\s*(?P<n>\d+)\s*$")
TABLE_ROW = re.compile(rf"^(?P<name>[\w.+-]+)\s+(?P<multi>{NUM})\s+(?P<single>{NUM})\s+(?P<scaling>{NUM})\s*$")
MARK = "coremark-pro ()"
SINGLE = "single-core "


def key(workload: str) -> str:
    return f"{workload} (workloads/)"


def mith_lines(text: str) -> dict[str, float]:
    """Per workload, the last `workloads/sec=` of its runs with the most contexts; `single-core ...` for 1 context."""
    runs: dict[str, dict[int, float]] = {}
    contexts: dict[str, int] = {}
    for line in text.splitlines():
        s = line.strip()
        c = MITH_CONTEXTS.match(s)
        if c:
            contexts[c["w"]] = int(c["n"])
            continue
        m = MITH.match(s)
        if m:
            runs.setdefault(m["w"], {})[contexts.get(m["w"], 1)] = float(m["v"])
    out: dict[str, float] = {}
    for w, by_contexts in runs.items():
        out[key(w)] = by_contexts[max(by_contexts)]
        if 1 in by_contexts and max(by_contexts) > 1:
            out[SINGLE + key(w)] = by_contexts[1]
    return out


def tables(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    section = ""
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s in ("WORKLOAD RESULTS TABLE", "MARK RESULTS TABLE"):
            section = s.split()[0]
            continue
        if not section or not s or s.startswith(("-", "Workload Name", "Mark Name", "MultiCore")):
            continue
        m = TABLE_ROW.match(s)
        if not m:
            if re.match(r"^[\w.+-]+\s", s) and re.search(NUM, s):
                raise ParseError(f"line {n}: unreadable {section.lower()} results row: {s!r}", line=n)
            section = ""
            continue
        name = MARK if section == "MARK" and m["name"].lower() == "coremark-pro" else key(m["name"])
        if section == "MARK" and name != MARK:
            name = f"{m['name'].lower()} ()"
        out[name] = float(m["multi"])
        out[SINGLE + name] = float(m["single"])
    return out


# The workloads `make certify-all` runs (coremark-pro's workloads/ and its certify-all target).
WORKLOADS = ("cjpeg-rose7-preset", "core", "linear_alg-mid-100x100-sp", "loops-all-mid-10k-sp", "nnet_test",
             "parser-125k", "radix2-big-64k", "sha-test", "zip-test")  # fmt: skip


def keys_for(command: str | None = None) -> list[str]:
    """The metrics this parser gives for any run of the tool (what planning matches the guide's rows against)."""
    names = [key(w) for w in WORKLOADS] + [MARK]
    return names + [SINGLE + n for n in names]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out = mith_lines(text)
    out.update(tables(text))
    if not out:
        raise ParseError("no `workloads/sec=` lines and no results table: not CoreMark-PRO output"
                         + _of(command))  # fmt: skip
    return out


def _of(command: str | None) -> str:
    return f" of `{command}`" if command else ""


CARD = Card("coremark-pro", parse, binaries=("coremark-pro",))
