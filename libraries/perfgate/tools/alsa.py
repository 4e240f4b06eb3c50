"""ALSA capture and playback throughput (bits/s) and CPU load, as the guides measured them.

Two forms are read:
- TI ltp-ddt `alsa_perf_tests` TRACE LOG lines:
  `|TRACE LOG|Read: No. of bits/Sec | 1411175|` and `|TRACE LOG|Read: percentage cpu load | 0.48%|`
  (capture: `Read:`; playback: `write:`);
- `/usr/bin/time -v arecord|aplay ... -s <frames> -c <channels> -f S16_LE ...` (the alternative without ltp-ddt):
  bits/s = frames x channels x sample bits / elapsed wall-clock time; CPU load = time's "Percent of CPU this job
  got" (whole percent only).

Metrics: `throughput (bits/sec)` and `cpu load (%)`.
"""

from __future__ import annotations

import random
import re
import shlex

from perfgate.errors import ParseError

TRACE_BITS = re.compile(r"\|TRACE LOG\|\s*(?P<dir>read|write):\s*No\. of bits/Sec\s*\|\s*(?P<v>[\d.]+)\s*\|", re.I)
TRACE_CPU = re.compile(
    r"\|TRACE LOG\|\s*(?P<dir>read|write):\s*percentage cpu load\s*\|\s*(?P<v>[\d.]+)\s*%?\s*\|", re.I
)
ELAPSED = re.compile(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\):\s*(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)")
PERCENT = re.compile(r"Percent of CPU this job got:\s*(\d+)%")
FAILURE = re.compile(r"audio open error|No such file or directory|Device or resource busy|error|not found", re.I)

THROUGHPUT = "throughput (bits/sec)"
CPU = "cpu load (%)"
SAMPLE_BITS = {"S8": 8, "U8": 8, "S16_LE": 16, "S16_BE": 16, "S24_LE": 32, "S24_3LE": 24, "S32_LE": 32}


def _first_failure(lines: list[str]) -> tuple[int, str] | None:
    for n, line in enumerate(lines, 1):
        if FAILURE.search(line):
            return n, line.strip()
    return None


def aplay_args(command: str) -> dict[str, str]:
    """The arecord/aplay options that fix the amount of data: -s frames, -c channels, -f format, -r rate."""
    try:
        args = shlex.split(command)
    except ValueError:
        args = command.split()
    out: dict[str, str] = {}
    longs = {"--samples": "s", "--channels": "c", "--format": "f", "--rate": "r"}
    for i, a in enumerate(args):
        if a in ("-s", "-c", "-f", "-r") and i + 1 < len(args):
            out[a[1]] = args[i + 1]
        elif "=" in a and a.split("=", 1)[0] in longs:
            out[longs[a.split("=", 1)[0]]] = a.split("=", 1)[1]
    return out


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = text.splitlines()
    out: dict[str, float] = {}
    for line in lines:
        m = TRACE_BITS.search(line)
        if m:
            out[THROUGHPUT] = float(m["v"])
        m = TRACE_CPU.search(line)
        if m:
            out[CPU] = float(m["v"])
    if out:
        return out
    elapsed = next((m for m in map(ELAPSED.search, lines) if m), None)
    if elapsed and command:
        a = aplay_args(command)
        if "s" not in a:
            raise ParseError("alsa: timed arecord/aplay needs `-s <frames>` in its command to compute bits/s", line=1)
        seconds = int(elapsed[1] or 0) * 3600 + int(elapsed[2]) * 60 + float(elapsed[3])
        if seconds <= 0:
            raise ParseError("alsa: elapsed time is zero", line=lines.index(elapsed.string) + 1)
        bits = SAMPLE_BITS.get(a.get("f", "U8").upper(), 8)
        out[THROUGHPUT] = round(int(a["s"]) * int(a.get("c", "1")) * bits / seconds, 2)
        pct = next((m for m in map(PERCENT.search, lines) if m), None)
        if pct:
            out[CPU] = float(pct[1])
        return out
    fail = _first_failure(lines)
    if fail:
        raise ParseError(f"alsa: the transfer failed: {fail[1]}", line=fail[0])
    raise ParseError("alsa: no '|TRACE LOG|... No. of bits/Sec' line and no `time -v` elapsed time", line=1)


def _is_timed(command: str) -> bool:
    return "arecord" in command or "aplay" in command


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    bps = float(values.get(THROUGHPUT, 1411200.0)) * rng.uniform(0.99995, 1.00005)
    cpu = max(0.01, float(values.get(CPU, 0.5)) * rng.uniform(0.995, 1.005))
    if _is_timed(command):
        return _render_timed(command, bps, cpu)
    direction = "write" if re.search(r"playback|\bplay\b|-t\s*p", command) else "Read"
    return (
        f"|TRACE LOG|{direction}: No. of bits/Sec | {round(bps)}|\n"
        f"|TRACE LOG|{direction}: percentage cpu load | {cpu:.2f}%|\n"
    )


def _target(command: str) -> str:
    args = shlex.split(command)
    return args[-1] if args and not args[-1].startswith("-") else "stdin"


def _render_timed(command: str, bps: float, cpu: float) -> str:
    a = aplay_args(command)
    frames = int(a.get("s", "441000"))
    channels = int(a.get("c", "2"))
    fmt = a.get("f", "S16_LE").upper()
    bits = SAMPLE_BITS.get(fmt, 16)
    seconds = frames * channels * bits / bps
    rate = a.get("r", "44100")
    verb = "Playing" if "aplay" in command else "Recording"
    names = {"S16_LE": "Signed 16 bit Little Endian"}
    m, s = divmod(seconds, 60)
    return (
        f"{verb} raw data '{_target(command)}' : {names.get(fmt, fmt)}, Rate {rate} Hz, "
        f"{'Stereo' if channels == 2 else f'Channels {channels}'}\n"
        f'\tCommand being timed: "{command.replace("/usr/bin/time -v ", "")}"\n'
        f"\tUser time (seconds): {seconds * cpu / 200:.2f}\n"
        f"\tSystem time (seconds): {seconds * cpu / 200:.2f}\n"
        f"\tPercent of CPU this job got: {round(cpu)}%\n"
        f"\tElapsed (wall clock) time (h:mm:ss or m:ss): {int(m)}:{s:05.2f}\n"
        "\tExit status: 0\n"
    )
