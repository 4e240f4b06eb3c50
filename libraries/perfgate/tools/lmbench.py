"""LMBench 3 (TI ltp-ddt `lmbench_tests_script.sh`, case LMBENCH_L_PERF_0001): one program per command.

Every program reports on stderr (lib_timing.c), so commands capture `2>&1`. Formats read here:
- `micro()`: `<label>: <x> microseconds`; `nano()`: `<label>: <x> nanoseconds`; `mb()`: `<label>: <x> MB/sec`
- `bw_mem`, `bw_file_rd`, `bw_mmap_rd` (`bandwidth()`): `<MB> <MB/s>` — the metric name comes from the command
  (`bw_mem-<op>-<N>mb`, `bw_file_rd-io-1mb`...), so these need the command;
- `lat_mmap`: `<MB> <us>`; `lat_mem_rd`: `"stride=128` (with the leading quote) then `<size MiB> <ns>` rows;
  `lat_ctx`: `"size=128k ovr=..` then `<nproc> <us>` rows;
  `lat_fs`: `<size>k<TAB><nfiles><TAB><creates/s><TAB><removes/s>` rows.

Metric names are the guides' (`lat_tcp (us)`, `bw_mem-rd-1mb (MB/s)`, `lat_mem_rd-stride128-sz500k (ns)`...). The same
number is also published under TI's summary names (`pipe_latency (microsec)` = `lat_pipe (us)`...): both are returned.
`lat_mem_rd` rows are named `sz<int(MiB x 1000)>k` (0.03125 -> `sz31k`); the smallest row is also `sz50` (TI's name
for it; the naming is not confirmed by a source). `lat_fs-<size>k (num_files)` is the second column (inferred).

TI's results parser files some numbers under two names, and the guides publish the mean as `x (min a, max b)`. This
parser reproduces it, so that a healthy board compares equal to its guide:
- `bw_mem-<op>-<N>mb` for N in 1, 2, 4, 8 MB is the mean of `bw_mem <N>M <op>` and of the next operation in TI's list
  (rd, wr, rdwr, cp, fwr, frd, fcp, bzero, bcopy) when the output has both (a loop over the operations, each preceded
  by its echoed command line: `for op in rd wr ...; do echo "bw_mem 1M $op"; bw_mem 1M $op; done 2>&1`); the
  guides' min and max are the two values (bcopy, last, stands alone). Every AM62x/J7/AM64x/AM57x/AM437x table fits.
- `latency_for_1.00_mb_block_size` is half the 1.00 MB row: the mean of that row and a 0.00 (`min 0.00` in every
  guide). `latency_for_0.50_mb_block_size` is the 0.50 MB row.
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import ESCAPES

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
LABELLED = re.compile(rf"^(?P<label>[^:]+):\s*(?P<value>{NUM})\s+(?P<unit>microseconds|nanoseconds|MB/sec)\s*$")
PAIR = re.compile(rf"^(?P<a>{NUM})\s+(?P<b>{NUM})\s*$")
LAT_FS = re.compile(rf"^(?P<size>\d+)k\s+(?P<files>\d+)\s+(?P<creates>{NUM})\s+(?P<removes>{NUM})\s*$")
CTX_HEAD = re.compile(rf'^"?size=(?P<size>\d+)k\s+ovr=(?P<ovr>{NUM})\s*$')
STRIDE = re.compile(r'^"?stride=(?P<stride>\d+)\s*$')  # lat_mem_rd.c prints `"stride=%d` (an xgraph label)

# micro()/nano()/mb() labels -> the guide's metric name.
LABELS: dict[str, str] = {
    "Simple syscall": "lat_syscall-null (us)",
    "Simple read": "lat_syscall-read (us)",
    "Simple write": "lat_syscall-write (us)",
    "Simple stat": "lat_syscall-stat (us)",
    "Simple fstat": "lat_syscall-fstat (us)",
    "Simple open/close": "lat_syscall-open (us)",
    "Pipe latency": "lat_pipe (us)",
    "AF_UNIX sock stream latency": "lat_unix (us)",
    "TCP latency using localhost": "lat_tcp (us)",
    "TCP/IP connection cost to localhost": "lat_connect (us)",
    "Semaphore latency": "lat_sem (us)",
    "Select on 200 tcp fd's": "lat_select (us)",
    "Signal handler installation": "lat_sig-install (us)",
    "Signal handler overhead": "lat_sig-catch (us)",
    "Protection fault": "lat_sig-prot (us)",
    "Procedure call": "lat_proc-proccall (us)",
    "Process fork+exit": "lat_proc-fork (us)",
    "Process fork+execve": "lat_proc-exec (us)",
    "Process fork+/bin/sh -c": "lat_proc-shell (us)",
    "Pipe bandwidth": "bw_pipe (MB/s)",
    "AF_UNIX sock stream bandwidth": "bw_unix (MB/s)",
}
PAGEFAULT = re.compile(r"^Pagefaults on \S+$")
OPS_KIND = {"integer": "int", "int64": "int64", "float": "float", "double": "double"}
OPS = ("bit", "add", "mul", "div", "mod")

# TI's summary names for numbers also published under the program's name.
SUMMARY: dict[str, str] = {
    "lat_pipe (us)": "pipe_latency (microsec)",
    "bw_pipe (MB/s)": "pipe_bandwidth (MBs)",
    "lat_unix (us)": "af_unix_sock_stream_latency (microsec)",
    "bw_unix (MB/s)": "af_unix_socket_stream_bandwidth (MBs)",
    "lat_sem (us)": "semaphore_latency (microsec)",
    "lat_select (us)": "select_on_200_tcp_fds (microsec)",
    "lat_sig-install (us)": "signal_handler_latency (microsec)",
    "lat_sig-catch (us)": "signal_handler_overhead (microsec)",
    "lat_proc-proccall (us)": "procedure_call (microsec)",
    "lat_connect (us)": "tcp_ip_connection_cost_to_localhost (microsec)",
    "lat_tcp (us)": "tcp_latency_using_localhost (microsec)",
}
MEM_RD_SUMMARY = {0.5: "latency_for_0.50_mb_block_size (nanosec)", 1.0: "latency_for_1.00_mb_block_size (nanosec)"}
SMALLEST_ROW = "sz50"

BW_MEM_OPS = ("rd", "wr", "rdwr", "cp", "fwr", "frd", "fcp", "bzero", "bcopy")  # TI's order
TI_PAIRED_MB = (1, 2, 4, 8)
LOOP = re.compile(r"for\s+(?P<var>\w+)\s+in\s+(?P<items>[^;]+);\s*do\s+(?P<body>.*?);?\s*done")
BW_FILE = {"io_only": "io", "open2close": "o2c"}
BW_MMAP = {"mmap_only": "mo", "open2close": "o2c"}
SERVER_FLAGS = {"-s", "-S"}
SERVERS = {"lat_tcp", "lat_connect", "lat_udp", "lat_rpc", "bw_tcp"}


def _program(command: str | None) -> tuple[str, list[str]]:
    """The LMBench program a command runs and its arguments (shell wrappers and redirections stripped)."""
    prog, args = _program_cached(command or "")
    return prog, list(args)


@lru_cache(maxsize=4096)
def _program_cached(command: str) -> tuple[str, tuple[str, ...]]:
    if not command:
        return "", ()
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    words = [w for w in words if not re.fullmatch(r"\d?>&?\d*|\d?>.*|<.*", w)]
    for i, w in enumerate(words):
        name = w.rsplit("/", 1)[-1]
        if name.startswith(("bw_", "lat_")):
            rest = []
            for a in words[i + 1 :]:
                if a in ("&&", "||", ";", "|"):
                    break
                rest.append(a)
            return name, tuple(rest)
    return "", ()


def _size_mb(arg: str) -> int:
    """`1M`, `16m`, `1048576` -> whole MB (the guides' `-1mb`)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmMgG]?)", arg)
    if not m:
        raise ParseError(f"cannot read the size {arg!r} of the command")
    n, suffix = float(m[1]), m[2].lower()
    scale = {"": 1 / (1024 * 1024), "k": 1 / 1024, "m": 1, "g": 1024}[suffix]
    return round(n * scale)


def _positional(args: list[str]) -> list[str]:
    """Arguments without option flags (and their values: -P, -W, -N, -s take one)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-P", "-W", "-N", "-s", "-t", "-M"):
            skip = True
            continue
        if a.startswith("-"):
            continue
        out.append(a)
    return out


def is_server(command: str) -> bool:
    """`lat_tcp -s` / `lat_connect -S localhost`: starts or stops a server, prints nothing to read."""
    prog, args = _program(command)
    return prog in SERVERS and bool(args) and args[0] in SERVER_FLAGS


def pair_name(command: str | None) -> str | None:
    """The metric of a program printing a bare `<MB> <value>` line, from its command; None for other programs."""
    prog, args = _program(command)
    pos = _positional(args)
    try:
        if prog == "bw_mem" and len(pos) >= 2:
            return f"bw_mem-{pos[1]}-{_size_mb(pos[0])}mb (MB/s)"
        if prog == "bw_file_rd" and len(pos) >= 2:
            return f"bw_file_rd-{BW_FILE.get(pos[1], pos[1])}-{_size_mb(pos[0])}mb (MB/s)"
        if prog == "bw_mmap_rd" and len(pos) >= 2:
            return f"bw_mmap_rd-{BW_MMAP.get(pos[1], pos[1])}-{_size_mb(pos[0])}mb (MB/s)"
        if prog == "lat_mmap" and pos:
            return f"lat_mmap-{_size_mb(pos[0])}m (us)"
    except ParseError:
        return None
    return None


BW_MEM_NAME = re.compile(r"^bw_mem-(?P<op>\w+)-(?P<mb>\d+)mb \(MB/s\)$")


def bw_mem_name(op: str, mb: int) -> str:
    return f"bw_mem-{op}-{mb}mb (MB/s)"


def ti_partner(mb: int, op: str) -> str | None:
    """The operation whose `bw_mem` result TI's parser also files under `bw_mem-<op>-<mb>mb`, if any."""
    if mb not in TI_PAIRED_MB or op not in BW_MEM_OPS:
        return None
    i = BW_MEM_OPS.index(op)
    return BW_MEM_OPS[i + 1] if i + 1 < len(BW_MEM_OPS) else None


def loop_commands(command: str) -> list[str]:
    """`for op in rd wr; do echo ...; bw_mem 1M $op; done` -> [`bw_mem 1M rd`, `bw_mem 1M wr`]; [] for no loop."""
    m = LOOP.search(command or "")
    if not m:
        return []
    out = []
    for item in m["items"].split():
        for part in re.split(r"\s*;\s*", m["body"]):
            part = part.replace("${" + m["var"] + "}", item).replace("$" + m["var"], item)
            if _program(part)[0] and not part.lstrip().startswith("echo"):
                out.append(part)
    return out


def mem_rd_name(size_mib: float, stride: int) -> str:
    return f"lat_mem_rd-stride{stride}-sz{int(round(size_mib * 1000, 6))}k (ns)"


def _labelled(label: str, unit: str) -> str | None:
    label = label.strip()
    if label in LABELS:
        return LABELS[label]
    if PAGEFAULT.match(label):
        return "lat_pagefault (us)"
    words = label.split()
    if unit == "nanoseconds" and len(words) == 2 and words[0] in OPS_KIND:
        return f"lat_ops-{OPS_KIND[words[0]]}-{words[1]} (ns)"
    return None


def parse(text: str, command: str | None = None) -> dict[str, float]:
    """Every metric the output of one LMBench program (or several, without bare pairs) gives, in the guides' names."""
    out: dict[str, float] = {}
    pair = pair_name(command)
    stride: int | None = None
    mem_stride = 0
    mem_rows: list[tuple[float, float]] = []
    ctx_size: int | None = None
    unknown: list[tuple[int, str]] = []
    bw_mem: dict[tuple[int, str], float] = {}  # (MB, op) -> MB/s, for TI's shared names
    for n, raw in enumerate(text.splitlines(), 1):
        line = ESCAPES.sub("", raw).strip()
        if not line:
            stride = ctx_size = None  # a blank line ends a lat_mem_rd or lat_ctx block
            continue
        echoed = pair_name(line) if line.startswith(("bw_", "lat_")) else None
        if echoed:
            pair = echoed  # an echoed command line names the bare pairs that follow
            continue
        m = LABELLED.match(line)
        if m:
            if "bogomflops" in m["label"]:
                continue  # lat_ops also prints bogomflops; the guides do not publish them
            name = _labelled(m["label"], m["unit"])
            if name is None:
                unknown.append((n, line))
                continue
            out[name] = float(m["value"])
            continue
        m = STRIDE.match(line)
        if m:
            stride = int(m["stride"])
            continue
        m = CTX_HEAD.match(line)
        if m:
            ctx_size = int(m["size"])
            continue
        m = LAT_FS.match(line)
        if m:
            out[f"lat_fs-{m['size']}k (num_files)"] = float(m["files"])
            continue
        m = PAIR.match(line)
        if m:
            a, b = float(m["a"]), float(m["b"])
            if stride is not None:
                mem_rows.append((a, b))
                mem_stride = stride
                out[mem_rd_name(a, stride)] = b
                for size, name in MEM_RD_SUMMARY.items():
                    if abs(a - size) < 1e-9:
                        out[name] = b
            elif ctx_size is not None and a == int(a):
                out[f"lat_ctx-{int(a)}-{ctx_size}k (us)"] = b
            elif pair:
                out[pair] = b
                op = BW_MEM_NAME.match(pair)
                if op:
                    bw_mem[(int(op["mb"]), op["op"])] = b
            else:
                raise ParseError(
                    f"line {n}: a bare `<size> <value>` line ({line!r}) can only be named from its command "
                    '(give --command, e.g. "bw_mem 1M rd")',
                    line=n,
                )
            continue
        unknown.append((n, line))
    if mem_rows:
        out[f"lat_mem_rd-stride{mem_stride}-{SMALLEST_ROW} (ns)"] = min(mem_rows)[1]
    if MEM_RD_SUMMARY[1.0] in out:
        out[MEM_RD_SUMMARY[1.0]] = out[MEM_RD_SUMMARY[1.0]] / 2  # TI: mean of the 1.00 MB row and a 0.00
    for (mb, op), value in bw_mem.items():
        partner = ti_partner(mb, op)
        if partner and (mb, partner) in bw_mem:
            out[bw_mem_name(op, mb)] = (value + bw_mem[(mb, partner)]) / 2
    for key, alias in SUMMARY.items():
        if key in out:
            out[alias] = out[key]
    if unknown:
        n, line = unknown[0]
        raise ParseError(f"line {n}: not LMBench output: {line!r}", line=n)
    if not out:
        raise ParseError("no LMBench result in the output" + (f" of `{command}`" if command else ""), line=None)
    return out


# ------------------------------------------------------------------------------------------------ what a command gives
def mem_rd_sizes(length_mb: float) -> list[float]:
    """The rows lat_mem_rd prints for a length: 512 bytes up to the length, lat_mem_rd.c's step()."""
    sizes, k = [], 512
    limit = int(length_mb * 1024 * 1024)
    while k <= limit:
        sizes.append(k / (1024 * 1024))
        if k < 1024:
            k *= 2
        elif k < 4 * 1024:
            k += 1024
        else:
            s = 4 * 1024
            while s <= k:
                s *= 2
            k += s // 4
    return sizes


def _ctx_args(args: list[str]) -> tuple[int, list[int]]:
    size, procs, skip = 0, [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "-s":
            size = int(re.sub(r"[kK]$", "", args[i + 1]))
            skip = True
        elif a in ("-P", "-W", "-N"):
            skip = True
        elif a.isdigit():
            procs.append(int(a))
    return size, procs


def keys_for(command: str) -> list[str]:
    """The metric names the output of `command` yields (what `parse` returns for it), for planning."""
    looped = loop_commands(command)
    if looped:
        return list(dict.fromkeys(k for c in looped for k in keys_for(c)))
    prog, args = _program(command)
    if not prog or is_server(command):
        return []
    pair = pair_name(command)
    if pair:
        return [pair]
    pos = _positional(args)
    keys: list[str] = []
    if prog == "lat_syscall" and pos:
        keys = [f"lat_syscall-{pos[0]} (us)"]
    elif prog == "lat_sig" and pos:
        keys = [f"lat_sig-{pos[0]} (us)"]
    elif prog == "lat_proc" and pos:
        keys = [{"procedure": "lat_proc-proccall (us)", "fork": "lat_proc-fork (us)", "exec": "lat_proc-exec (us)",
                 "shell": "lat_proc-shell (us)"}.get(pos[0], f"lat_proc-{pos[0]} (us)")]  # fmt: skip
    elif prog in ("lat_pipe", "lat_unix", "lat_tcp", "lat_connect", "lat_sem", "lat_select", "bw_pipe", "bw_unix"):
        keys = [f"{prog} ({'MB/s' if prog.startswith('bw_') else 'us'})"]
    elif prog == "lat_pagefault":
        keys = ["lat_pagefault (us)"]
    elif prog == "lat_ops":
        keys = [f"lat_ops-{k}-{op} (ns)" for k in ("int", "int64", "float", "double") for op in OPS
                if not (k in ("float", "double") and op in ("bit", "mod"))]  # fmt: skip
    elif prog == "lat_fs":
        keys = [f"lat_fs-{s}k (num_files)" for s in (0, 1, 4, 10)]
    elif prog == "lat_ctx":
        size, procs = _ctx_args(args)
        keys = [f"lat_ctx-{p}-{size}k (us)" for p in procs]
    elif prog == "lat_mem_rd" and pos:
        length = _size_mb_float(pos[0])
        stride = int(pos[1]) if len(pos) > 1 else 64
        sizes = mem_rd_sizes(length)
        keys = [mem_rd_name(s, stride) for s in sizes] + [f"lat_mem_rd-stride{stride}-{SMALLEST_ROW} (ns)"]
        keys += [name for size, name in MEM_RD_SUMMARY.items() if any(abs(s - size) < 1e-9 for s in sizes)]
    keys += [SUMMARY[k] for k in keys if k in SUMMARY]
    return list(dict.fromkeys(keys))


def _size_mb_float(arg: str) -> float:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmM]?)", arg)
    if not m:
        return 1.0
    return float(m[1]) * {"": 1 / (1024 * 1024), "k": 1 / 1024, "m": 1}[m[2].lower()]


CARD = Card("lmbench", parse)
