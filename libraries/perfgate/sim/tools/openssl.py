"""What `openssl` prints on the simulated board: the renderer for perfgate.tools.openssl's parser.

Moved here from perfgate/tools/openssl.py so that nothing the judge runs depends on the simulator."""

from __future__ import annotations

import random
import re
import shlex

from perfgate.tools.common import CPU
from perfgate.tools.openssl import SYSTEM, USER, key, mb_key, requested

SIZES = [16, 64, 256, 1024, 8192, 16384]


# How OpenSSL 3 prints the name of what `-evp <name>` asked for (render only): digests in lower case, ciphers in
# upper case under their canonical name.
CANONICAL = {"des3": "des-ede3-cbc", "des": "des-cbc", "aes128": "aes-128-cbc", "aes192": "aes-192-cbc",
             "aes256": "aes-256-cbc"}  # fmt: skip


DIGESTS = re.compile(r"^(md5|sha\d*|sha\d+-\d+|sha3-\d+|sm3|ripemd160|blake2\w*)$")


# --------------------------------------------------------------------------------------------------- render
def _printed_name(alg: str) -> str:
    name = CANONICAL.get(alg.lower(), alg.lower())
    return name if DIGESTS.match(name) else name.upper()


def _seconds(words: list[str]) -> int:
    if "-seconds" in words:
        i = words.index("-seconds")
        if i + 1 < len(words) and words[i + 1].isdigit():
            return int(words[i + 1])
    return 3


def _fmt(bytes_per_s: float) -> str:
    return f" {bytes_per_s / 1e3:11.2f}k" if bytes_per_s > 10000 else f" {bytes_per_s:11.2f} "


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    """OpenSSL 3.0's output for `[time -v] openssl speed -elapsed [-seconds N] -evp <alg>`; values are
    `<alg>/<size> (KBytes/s)` or `<alg>/<size> (MB/s)` and, with `time -v`, `cpu load (%)`."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
        words = words[1:]  # `OPENSSL_armcap=0 time -v openssl ...`: the shell puts it in the environment
    alg = requested(command) or "aes-128-cbc"
    name = _printed_name(alg)
    secs = _seconds(words)
    timed = bool(words) and words[0] in ("time", "/usr/bin/time") and "-v" in words[: words.index("openssl")]
    out: list[str] = []
    if "-elapsed" in words:
        out.append("You have chosen to measure elapsed time instead of user CPU time.")
    rates: list[float] = []
    for size in SIZES:
        kbs = values.get(key(alg, size))
        if kbs is None and mb_key(alg, size) in values:  # the crypto_accel tables' MB/s (1000 kB each)
            kbs = values[mb_key(alg, size)] * 1000.0
        if kbs is None:
            kbs = values.get(key(name, size), 0.0)
        bps = max(kbs * 1000.0 * rng.uniform(0.995, 1.005), 1.0)
        rates.append(bps)
        count = max(int(bps * secs / size), 1)
        out.append(f"Doing {name} for {secs}s on {size} size blocks: {count} {name}'s in {secs:.2f}s")
    out += [
        "version: 3.0.11",
        "built on: Tue Sep 19 13:02:02 2023 UTC",
        "options: bn(64,64)",
        "compiler: aarch64-oe-linux-gcc -mbranch-protection=standard -fstack-protector-strong -O2 -D_FORTIFY_SOURCE=2",
        "CPUINFO: OPENSSL_armcap=0xbd",
        "The 'numbers' are in 1000s of bytes per second processed.",
        "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes",
        f"{name:<15}" + "".join(_fmt(r) for r in rates),
    ]
    if timed:
        cpu = values.get(CPU, 99.0) * rng.uniform(0.99, 1.01)
        wall = secs * len(SIZES) + 0.02
        user = values[USER] if USER in values else wall * cpu / 100.0 * 0.1
        system = values[SYSTEM] if SYSTEM in values else wall * cpu / 100.0 - user
        cmd = " ".join(words[words.index("openssl") :])
        out += [
            f'\tCommand being timed: "{cmd}"',
            f"\tUser time (seconds): {user:.2f}",
            f"\tSystem time (seconds): {system:.2f}",
            f"\tPercent of CPU this job got: {round(cpu):d}%",
            f"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:{wall:05.2f}",
            "\tAverage shared text size (kbytes): 0",
            "\tAverage unshared data size (kbytes): 0",
            "\tAverage stack size (kbytes): 0",
            "\tAverage total size (kbytes): 0",
            "\tMaximum resident set size (kbytes): 6408",
            "\tAverage resident set size (kbytes): 0",
            "\tMajor (requiring I/O) page faults: 0",
            "\tMinor (reclaiming a frame) page faults: 374",
            "\tVoluntary context switches: 1",
            f"\tInvoluntary context switches: {rng.randint(50, 900)}",
            "\tSwaps: 0",
            "\tFile system inputs: 0",
            "\tFile system outputs: 0",
            "\tSocket messages sent: 0",
            "\tSocket messages received: 0",
            "\tSignals delivered: 0",
            "\tPage size (bytes): 4096",
            "\tExit status: 0",
        ]
    return "\n".join(out) + "\n"
