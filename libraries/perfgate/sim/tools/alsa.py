"""What `alsa` prints on the simulated board: the renderer for perfgate.tools.alsa's parser.

Moved here from perfgate/tools/alsa.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re
import shlex

from perfgate.tools.alsa import CPU, SAMPLE_BITS, THROUGHPUT, aplay_args


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
