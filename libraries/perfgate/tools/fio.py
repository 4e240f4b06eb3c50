"""fio (axboe/fio): storage throughput and CPU load, as TI runs it (libaio, iodepth 4, direct, time based).

Two output forms, both verified on fio 3.33 captures (tests/fixtures/fio/):
- `--output-format=json`: `jobs[i].write|read.bw_bytes` (bytes/s), `.iops`, `.io_bytes`; `jobs[i].usr_cpu` and
  `.sys_cpu` (% of one CPU, as fio's `cpu` line). Several JSON documents may follow one another (one per fio run in
  a command such as `fio ... write ... && fio ... read ...`); text between them (warnings) is skipped.
- the default text: `  write: IOPS=5233, BW=1308MiB/s (1372MB/s)(2618MiB/2001msec)` and
  `  cpu          : usr=4.30%, sys=10.00%, ctx=2760, majf=0, minf=11`.
- only the end of that text, the "Run status group" block (`Run status group 0 (all jobs):` then
  `   READ: bw=209MiB/s (219MB/s), 209MiB/s-209MiB/s (219MB/s-219MB/s), io=..., run=...`): what a log keeps when it
  keeps the end of the run, as TI's docs quote it. Read only when there is no per-job block: throughput of the
  group (decimal MB/s, also as `group N: ...`); it has no IOPS and no CPU load, none is invented. Two groups giving
  one direction (two runs' ends) are refused.

fio 2.x worded both lines otherwise (seen in fio 2.2.10 logs of a VPS comparison, tests/fixtures/PUBLIC-OUTPUTS.md;
reproduced in tests/fixtures/fio/corpus/fio2-*-constructed.txt): `  read : io=1024.0MB, bw=204800KB/s, iops=51200,
runt=  5120msec` and `   READ: io=1024.0MB, aggrb=204800KB/s, ...`, its K/M/G being powers of 1024 (fio 2's default
kb_base=1024: 1024 MiB in 5.12 s is 204800 KiB/s); read the same.

Metrics: `write throughput (MB/s)` and `read throughput (MB/s)` in decimal MB/s (10^6 bytes, the guides'
Mbytes/sec), `write cpu load (%)` / `read cpu load (%)` (usr + sys of the job that did that direction),
`write iops` / `read iops`; and the same prefixed with the job name (`emmc-1m-write: write throughput (MB/s)`).
"""

from __future__ import annotations

import json
import re

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import ESCAPES

DIRECTIONS = ("read", "write")
TEXT_BW = re.compile(r"^\s*(read|write)\s*:\s*IOPS=([\d.]+[kM]?),\s*BW=[^()]*\(([\d.]+)([kMGT]?B)/s\)")
# fio 2.x: `  read : io=1024.0MB, bw=204800KB/s, iops=51200, runt=  5120msec` (K, M, G: 1024-based)
TEXT2_BW = re.compile(r"^\s*(read|write)\s*:\s*io=[^,]+,\s*bw=([\d.]+)([KMGT]?B)/s,\s*iops=([\d.]+[kM]?)")
GROUP2_BW = re.compile(r"^\s*(READ|WRITE|TRIM)\s*:\s*io=[^,]+,\s*aggrb=([\d.]+)([KMGT]?B)/s")
BINARY = {"B": 1.0, "KB": 2.0**10, "MB": 2.0**20, "GB": 2.0**30, "TB": 2.0**40}
TEXT_CPU = re.compile(r"^\s*cpu\s*:\s*usr=([\d.]+)%,\s*sys=([\d.]+)%")
GROUP = re.compile(r"^Run status group (\d+) \(")
GROUP_BW = re.compile(r"^\s*(READ|WRITE|TRIM)\s*:\s*bw=[^()]*\(([\d.]+)([kMGT]?B)/s\)")
TEXT_JOB = re.compile(r"^(\S+): \(groupid=\d+, jobs=\d+\): err=\s*(\d+)")
ERROR = re.compile(r"^(fio: (?!.*(?:ETA|terminating on signal)).*(?:error|failed|invalid|unable|No such|denied).*|"
                   r".*err=\s*[1-9]\d*.*)$", re.I)  # fmt: skip
DECIMAL = {"B": 1.0, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}


def _metric(direction: str, what: str) -> str:
    return {"throughput": f"{direction} throughput (MB/s)", "cpu": f"{direction} cpu load (%)",
            "iops": f"{direction} iops"}[what]  # fmt: skip


def _put(out: dict[str, float], job: str, direction: str, what: str, value: float) -> None:
    out[_metric(direction, what)] = value
    out[f"{job}: {_metric(direction, what)}"] = value


def _json_docs(text: str) -> list[tuple[dict, int]]:
    """Every top-level JSON object in the text, with the line it starts on."""
    docs: list[tuple[dict, int]] = []
    dec = json.JSONDecoder()
    i = 0
    while True:
        start = text.find("{", i)
        if start < 0:
            break
        # a document starts with `{` at the beginning of a line
        if start > 0 and text[start - 1] not in "\n\r":
            i = start + 1
            continue
        try:
            obj, end = dec.raw_decode(text, start)
        except json.JSONDecodeError as e:
            line = text.count("\n", 0, e.pos) + 1
            raise ParseError(f"fio JSON output is cut or malformed: {e.msg}", line=line) from None
        if isinstance(obj, dict):
            docs.append((obj, text.count("\n", 0, start) + 1))
        i = end
    return docs


def _from_json(docs: list[tuple[dict, int]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for doc, line in docs:
        jobs = doc.get("jobs")
        if not isinstance(jobs, list) or not jobs:
            raise ParseError("fio JSON without a `jobs` list", line=line)
        for job in jobs:
            name = str(job.get("jobname", "job"))
            if job.get("error"):
                raise ParseError(f"fio job {name} failed with error {job['error']}", line=line)
            try:
                cpu = float(job["usr_cpu"]) + float(job["sys_cpu"])
                for direction in DIRECTIONS:
                    d = job[direction]
                    if int(d.get("io_bytes", 0)) <= 0 and float(d.get("bw_bytes", 0)) <= 0:
                        continue
                    _put(out, name, direction, "throughput", float(d["bw_bytes"]) / 1e6)
                    _put(out, name, direction, "iops", float(d["iops"]))
                    _put(out, name, direction, "cpu", cpu)
            except (KeyError, TypeError, ValueError) as e:
                raise ParseError(f"fio JSON job {name} lacks {e}", line=line) from None
    if not out:
        raise ParseError("fio ran but moved no data (no read or write bytes)", line=docs[0][1])
    return out


def _iops(text: str) -> float:
    scale = {"k": 1e3, "M": 1e6}.get(text[-1], 1.0)
    return float(text.rstrip("kM")) * scale


def _from_text(lines: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    job = "job"
    done: list[str] = []
    seen: dict[tuple[str, str], int] = {}  # (job, direction) -> the line that reported it
    for n, line in enumerate(lines, 1):
        m = TEXT_JOB.match(line)
        if m:
            job, done = m.group(1), []
            continue
        m = TEXT_BW.match(line)
        m2 = None if m else TEXT2_BW.match(line)
        if m or m2:
            direction = (m or m2).group(1)  # type: ignore[union-attr]
            if (job, direction) in seen:
                raise ParseError(
                    f"fio reported {direction} of job {job} twice (lines {seen[job, direction]} and {n}): several "
                    "runs (or clones without --group_reporting) in one output; which one is the result?",
                    line=n,
                )
            seen[job, direction] = n
            if m:
                mbps, iops = float(m.group(3)) * DECIMAL[m.group(4)] / 1e6, _iops(m.group(2))
            else:
                mbps, iops = float(m2.group(2)) * BINARY[m2.group(3)] / 1e6, _iops(m2.group(4))  # type: ignore[union-attr]
            _put(out, job, direction, "throughput", mbps)
            _put(out, job, direction, "iops", iops)
            done.append(direction)
            continue
        m = TEXT_CPU.match(line)
        if m:
            for direction in done:
                _put(out, job, direction, "cpu", float(m.group(1)) + float(m.group(2)))
    return out


def _from_groups(lines: list[str]) -> dict[str, float]:
    """The "Run status group" block alone: each group's `READ:` / `WRITE:` line."""
    out: dict[str, float] = {}
    seen: dict[str, tuple[int, str]] = {}
    group = ""
    for n, line in enumerate(lines, 1):
        m = GROUP.match(line)
        if m:
            group = m.group(1)
            continue
        m = GROUP_BW.match(line)
        units = DECIMAL
        if not m:
            m, units = GROUP2_BW.match(line), BINARY
        if not m or not group or m.group(1) == "TRIM":
            continue
        direction = m.group(1).lower()
        if direction in seen:
            first, other = seen[direction]
            raise ParseError(
                f"two fio groups report {m.group(1)}: group {other} at line {first} and group {group} at line {n}; "
                "give each run its own output (or keep the per-job block, which names the job)",
                line=n,
            )
        seen[direction] = (n, group)
        value = float(m.group(2)) * units[m.group(3)] / 1e6
        out[_metric(direction, "throughput")] = value
        out[f"group {group}: {_metric(direction, 'throughput')}"] = value
    return out


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
    for n, line in enumerate(lines, 1):
        if ERROR.match(line.strip()):
            raise ParseError(f"fio failed: {line.strip()}", line=n)
    docs = _json_docs("\n".join(lines))
    out = _from_json(docs) if docs else (_from_text(lines) or _from_groups(lines))
    if not out:
        raise ParseError(
            "no fio result (neither JSON `jobs`, nor a `read:`/`write:` line, nor a Run status group `READ:`/`WRITE:` "
            "line)",
            line=len(lines) or None,
        )
    return out


CARD = Card("fio", parse, binaries=("fio",))
