"""What `fio` prints on the simulated board: the renderer for perfgate.tools.fio's parser.

Moved here from perfgate/tools/fio.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import json
import random
import re
import shlex
import time

from perfgate.sim.tools import printed
from perfgate.tools.fio import _metric


# --------------------------------------------------------------------------------------------------- render
def _options(segment: list[str]) -> dict[str, str]:
    opts: dict[str, str] = {}
    for w in segment[1:]:
        if w.startswith("--"):
            k, _, v = w[2:].partition("=")
            opts[k] = v if v else "1"
    return opts


def _segments(command: str) -> list[list[str]]:
    """The fio invocations in a shell command line (`fio ... && fio ...; rm -f ...`)."""
    try:
        words = shlex.split(command.replace(";", " ; ").replace("&&", " && "))
    except ValueError:
        words = command.split()
    segs: list[list[str]] = []
    cur: list[str] = []
    for w in [*words, ";"]:
        if w in (";", "&&", "||", "|"):
            if cur and cur[0].endswith("fio"):
                segs.append(cur)
            cur = []
        else:
            cur.append(w)
    return segs


def _size(text: str) -> int:
    m = re.fullmatch(r"(\d+)([kKmMgG]?)[iI]?[bB]?", text.strip())
    if not m:
        return 4096
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2).lower()]


def _direction(rw: str) -> str:
    return "write" if "write" in rw or rw in ("randwrite", "trim") else "read"


def _empty_dir() -> dict:
    return {"io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "total_ios": 0,
            "short_ios": 0, "drop_ios": 0}  # fmt: skip


def _job_json(opts: dict[str, str], values: dict[str, float], rng: random.Random) -> dict:
    name = opts.get("name", "job")
    rw = opts.get("rw", opts.get("readwrite", "read"))
    direction = _direction(rw)
    bs = _size(opts.get("bs", "4k"))
    runtime_s = float(re.sub(r"[^\d.]", "", opts.get("runtime", "60")) or 60)
    mbps = printed(values, _metric(direction, "throughput"), 0.0, rng)
    cpu = printed(values, _metric(direction, "cpu"), 1.0, rng, 0.03)
    bw_bytes = int(mbps * 1e6)
    io_bytes = int(bw_bytes * runtime_s)
    stats = _empty_dir() | {
        "io_bytes": io_bytes, "io_kbytes": io_bytes // 1024, "bw_bytes": bw_bytes, "bw": bw_bytes // 1024,
        "iops": bw_bytes / bs, "runtime": int(runtime_s * 1000), "total_ios": io_bytes // bs,
        "bw_min": int(bw_bytes / 1024 * 0.9), "bw_max": int(bw_bytes / 1024 * 1.1), "bw_agg": 100.0,
        "bw_mean": bw_bytes / 1024, "bw_dev": bw_bytes / 1024 * 0.02, "bw_samples": int(runtime_s * 2),
        "iops_min": int(bw_bytes / bs * 0.9), "iops_max": int(bw_bytes / bs * 1.1), "iops_mean": bw_bytes / bs,
        "iops_stddev": bw_bytes / bs * 0.02, "iops_samples": int(runtime_s * 2),
    }  # fmt: skip
    usr = cpu * 0.3
    return {
        "jobname": name, "groupid": 0, "error": 0, "eta": 0, "elapsed": int(runtime_s) + 1,
        "job options": {k: v for k, v in opts.items() if k not in ("output-format",)},
        "read": stats if direction == "read" else _empty_dir(),
        "write": stats if direction == "write" else _empty_dir(),
        "trim": _empty_dir(),
        "sync": {"total_ios": 0, "lat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}},
        "job_runtime": int(runtime_s * 1000), "usr_cpu": round(usr, 6), "sys_cpu": round(cpu - usr, 6),
        "ctx": rng.randint(1000, 90000), "majf": 0, "minf": rng.randint(10, 40),
        "iodepth_level": {"1": 0.1, "2": 0.1, "4": 100.0, "8": 0.0, "16": 0.0, "32": 0.0, ">=64": 0.0},
    }  # fmt: skip


def _job_text(opts: dict[str, str], job: dict) -> str:
    direction = "write" if job["write"]["io_bytes"] else "read"
    d = job[direction]
    mib = d["bw_bytes"] / 1024**2
    mb = d["bw_bytes"] / 1e6
    bs = opts.get("bs", "4k")
    return (
        f"{job['jobname']}: (g=0): rw={opts.get('rw', 'read')}, bs=(R) {bs}-{bs}, (W) {bs}-{bs}, (T) {bs}-{bs}, "
        f"ioengine={opts.get('ioengine', 'psync')}, iodepth={opts.get('iodepth', '1')}\n"
        "fio-3.36\nStarting 1 process\n\n"
        f"{job['jobname']}: (groupid=0, jobs=1): err= 0: pid=1234: {time.strftime('%a %b %d %H:%M:%S %Y')}\n"
        f"  {direction}: IOPS={d['iops']:.0f}, BW={mib:.1f}MiB/s ({mb:.1f}MB/s)({d['io_bytes'] / 1024**2:.0f}MiB/"
        f"{d['runtime']}msec)\n"
        f"  cpu          : usr={job['usr_cpu']:.2f}%, sys={job['sys_cpu']:.2f}%, ctx={job['ctx']}, majf=0, "
        f"minf={job['minf']}\n\nRun status group 0 (all jobs):\n"
        f"  {direction.upper()}: bw={mib:.1f}MiB/s ({mb:.1f}MB/s), io={d['io_bytes'] / 1024**2:.0f}MiB, "
        f"run={d['runtime']}-{d['runtime']}msec\n"
    )


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """fio 3.x output for each fio invocation in `command` (JSON with --output-format=json, else text); values
    are `write|read throughput (MB/s)` and `write|read cpu load (%)`, or the same prefixed `<jobname>: `."""
    out: list[str] = []
    for seg in _segments(command):
        opts = _options(seg)
        name = opts.get("name", "job")
        own = {k.split(": ", 1)[1]: v for k, v in values.items() if k.startswith(f"{name}: ")}
        job = _job_json(opts, {**values, **own}, rng)
        if opts.get("output-format", "normal") == "json":
            now = int(time.time())
            doc = {"fio version": "fio-3.36", "timestamp": now, "timestamp_ms": now * 1000,
                   "time": time.strftime("%a %b %d %H:%M:%S %Y"), "jobs": [job]}  # fmt: skip
            out.append(json.dumps(doc, indent=2).replace('": ', '" : ') + "\n")
        else:
            out.append(_job_text(opts, job))
    return "".join(out)
