"""What `lmbench` prints on the simulated board: the renderer for perfgate.tools.lmbench's parser.

Moved here from perfgate/tools/lmbench.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random

from perfgate.sim.tools import printed
from perfgate.tools.lmbench import (
    BW_MEM_NAME,
    LABELS,
    MEM_RD_SUMMARY,
    SMALLEST_ROW,
    SUMMARY,
    _ctx_args,
    _positional,
    _program,
    _size_mb_float,
    bw_mem_name,
    is_server,
    keys_for,
    loop_commands,
    mem_rd_name,
    mem_rd_sizes,
    pair_name,
    ti_partner,
)

# ------------------------------------------------------------------------------------------------ the simulated board
SIM_LABELS = {v: k for k, v in LABELS.items()}


def _draw(values: dict[str, float], key: str, rng: random.Random, default: float) -> float:
    """The value the board prints for `key` (or the summary row that names the same quantity): what
    perfgate.sim.values drew for it, else a default near `default` (perfgate.sim.tools.printed)."""
    if key not in values:
        for alias_of, alias in SUMMARY.items():
            if alias == key and alias_of in values:
                return printed(values, alias_of, default, rng)
            if alias_of == key and alias in values:
                return printed(values, alias, default, rng)
    return max(0.0, printed(values, key, default, rng))


def one_quantity(values: dict[str, float], degraded: set[str]) -> None:
    """TI's summary rows name a program's own result (`af_unix_socket_stream_bandwidth` is `bw_unix`), its
    `latency_for_1.00_mb_block_size` is half the 1.00 MB `lat_mem_rd` row and `latency_for_0.50_...` the 0.50 MB row
    (perfgate.tools.lmbench): the board prints each quantity once. Where one of a pair is degraded (FAULTS) and the
    other is not, the other follows it, so that the degradation shows in what the board prints."""
    pairs = [(k, alias, 1.0) for k, alias in SUMMARY.items()]  # TI's summary names of a program's own result
    for size, summary, factor in ((1.0, MEM_RD_SUMMARY[1.0], 2.0), (0.5, MEM_RD_SUMMARY[0.5], 1.0)):
        rows = [k for k in values if k.startswith("lat_mem_rd-") and k.endswith(f"-sz{int(size * 1000)}k (ns)")]
        pairs += [(row, summary, factor) for row in rows]
    for row, summary, factor in pairs:
        if row not in values or summary not in values:
            continue
        if summary in degraded and row not in degraded:
            values[row] = values[summary] * factor
        elif row in degraded and summary not in degraded:
            values[summary] = values[row] / factor


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """What the program of `command` prints (on stderr, captured with 2>&1) for the given metrics."""
    looped = loop_commands(command)
    if looped:
        return _render_loop(looped, values, rng)
    prog, args = _program(command)
    if not prog or is_server(command):
        return ""  # the suite's setup (the test file), servers, teardown: nothing to read
    pos = _positional(args)
    pair = pair_name(command)
    if pair:
        v = _draw(values, pair, rng, 1000.0)
        if prog == "lat_mmap":
            return f"{_size_mb_float(pos[0]):.6f} {v:.0f}\n"
        size = _size_mb_float(pos[0]) * 1.048576
        return f"{size:.2f} {v:.2f}\n"
    if prog == "lat_mem_rd":
        stride = int(pos[1]) if len(pos) > 1 else 64
        sizes = mem_rd_sizes(_size_mb_float(pos[0]))
        smallest = values.get(f"lat_mem_rd-stride{stride}-{SMALLEST_ROW} (ns)", 2.0)
        lines = [f'"stride={stride}']  # lat_mem_rd.c: fprintf(stderr, "\\"stride=%d\\n", stride)
        last = smallest
        for s in sizes:
            key = mem_rd_name(s, stride)
            summary = next((n for size, n in MEM_RD_SUMMARY.items() if abs(s - size) < 1e-9), None)
            base = values.get(key, values.get(summary, last) if summary else last)
            if key not in values and summary == MEM_RD_SUMMARY[1.0] and summary in values:
                base = 2 * values[summary]  # TI publishes half the row
            drawn = key in values or (summary is not None and summary in values)
            if s == sizes[0]:
                base, drawn = smallest, f"lat_mem_rd-stride{stride}-{SMALLEST_ROW} (ns)" in values
            last = base
            shown = base if drawn else base * (1 + rng.uniform(-0.01, 0.01))  # a drawn row's noise is in its draw
            lines.append(f"{s:.5f} {shown:.3f}")
        return "\n".join(lines) + "\n\n"
    if prog == "lat_ctx":
        size, procs = _ctx_args(args)
        lines = ["", f'"size={size}k ovr={rng.uniform(1.5, 3.5):.2f}']
        lines += [f"{p} {_draw(values, f'lat_ctx-{p}-{size}k (us)', rng, 5.0):.2f}" for p in procs]
        return "\n".join(lines) + "\n\n"
    if prog == "lat_fs":
        lines = []
        for s in (0, 1, 4, 10):
            files = round(_draw(values, f"lat_fs-{s}k (num_files)", rng, 100.0))
            lines.append(f"{s}k\t{files}\t{rng.uniform(20000, 60000):.0f}\t{rng.uniform(40000, 90000):.0f}")
        return "\n".join(lines) + "\n"
    if prog == "lat_ops":
        kinds = {"int": "integer", "int64": "int64", "float": "float", "double": "double"}
        lines = []
        for key in keys_for(command):
            _, kind, op = key.split(" ")[0].split("-")
            lines.append(f"{kinds[kind]} {op}: {_draw(values, key, rng, 1.0):.2f} nanoseconds")
        lines += [f"float bogomflops: {rng.uniform(2, 4):.2f} nanoseconds",
                  f"double bogomflops: {rng.uniform(2, 4):.2f} nanoseconds"]  # fmt: skip
        return "\n".join(lines) + "\n"
    lines = []
    for key in keys_for(command):
        if key in SUMMARY.values():
            continue
        v = _draw(values, key, rng, 1.0)
        if key == "lat_pagefault (us)":
            lines.append(f"Pagefaults on {pos[-1] if pos else 'test1.txt'}: {v:.4f} microseconds")
        elif key.startswith("bw_"):
            lines.append(f"{SIM_LABELS[key]}: {v:.2f} MB/sec")
        else:
            lines.append(f"{SIM_LABELS[key]}: {v:.4f} microseconds")
    if not lines:
        raise ValueError(f"LMBench program {prog!r} is not simulated")
    return "\n".join(lines) + "\n"


def _render_loop(commands: list[str], values: dict[str, float], rng: random.Random) -> str:
    """Each command echoed, then its output; `bw_mem` values solved so that TI's shared names give `values`."""
    own: dict[str, float] = {}
    present = {pair_name(c) for c in commands}
    for c in reversed([c for c in commands if pair_name(c)]):
        name = pair_name(c) or ""
        m = BW_MEM_NAME.match(name)
        partner = ti_partner(int(m["mb"]), m["op"]) if m else None
        partner_name = bw_mem_name(partner, int(m["mb"])) if m and partner else None
        target = values.get(name, 1000.0)
        if partner_name in present and partner_name in own:
            own[name] = 2 * target - own[partner_name]  # TI's name is the mean of the two
        else:
            own[name] = target
    text = ""
    for c in commands:
        name = pair_name(c)
        text += c + "\n"
        text += render(c, {name: own[name]} if name else values, rng) if name else render(c, values, rng)
    return text
