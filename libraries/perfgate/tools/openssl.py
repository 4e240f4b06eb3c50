"""openssl speed (and the `time -v` wrapper TI puts around it).

What the tool prints (openssl/openssl apps/speed.c, verified on OpenSSL 3.0 captures in tests/fixtures/openssl/):
- stdout: version/build lines, `The 'numbers' are in 1000s of bytes per second processed.`, a header
  `type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes` and one row per
  algorithm: `AES-128-CBC     547823.87k  1018309.31k ...`. A value printed with `k` is thousands of bytes/s, a value
  printed **without** `k` is bytes/s (speed.c prints `%11.2fk` only above 10000 bytes/s). OpenSSL 3 prints cipher
  names in upper case (`AES-128-CBC`, `DES-EDE3-CBC` for `-evp des3`) and digest names in lower case (`sha256`);
  OpenSSL 1.x printed `aes-128-cbc`. A name may contain a space (1.x `des ede3`).
- stderr: `Doing AES-128-CBC for 3s on 16 size blocks: 1234 AES-128-CBC's in 3.00s` progress lines.
- `-mr` (machine readable): `+H:16:64:...` then `+F:<n>:<name>:<bytes/s>:...`.
- GNU `time -v`: `Percent of CPU this job got: 92%`, `User time (seconds): 5.56`, `System time (seconds): 0.00`.

Metrics: `<algorithm>/<block size> (KBytes/s)` for every row and block size, the algorithm in lower case as
printed; when the command names one `-evp <alg>` and the table has one row, the same values are also given under
the requested name (`des3/16 (KBytes/s)`). From `time -v`: `cpu load (%)`, `user time (s)`, `system time (s)`.
"""

from __future__ import annotations

import re
import shlex

from perfgate.errors import ParseError
from perfgate.tools.common import CPU, ESCAPES

KB = "(KBytes/s)"
USER = "user time (s)"
SYSTEM = "system time (s)"

HEADER = re.compile(r"^type\s+((?:\d+\s+bytes\s*)+)$")
VALUE = re.compile(r"^(\d+(?:\.\d+)?)(k?)$")
TIME_V = {
    "Percent of CPU this job got": CPU,
    "User time (seconds)": USER,
    "System time (seconds)": SYSTEM,
}
ERRORS = re.compile(
    r"(Unknown (cipher|digest|algorithm|option)|speed: Unknown|invalid command|:error:|^Error\b|Usage: speed)", re.I
)


def key(alg: str, size: int | str) -> str:
    return f"{alg.lower()}/{size} {KB}"


def requested(command: str | None) -> str | None:
    """The algorithm a command asks for with `-evp <alg>` (or the first positional algorithm), lower case."""
    if not command:
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if "speed" not in words:
        return None
    rest = words[words.index("speed") + 1 :]
    for i, w in enumerate(rest):
        if w == "-evp" and i + 1 < len(rest):
            return rest[i + 1].lower()
    skip_next = {"-seconds", "-bytes", "-multi", "-misalign", "-engine", "-primes", "-async_jobs", "-provider"}
    i = 0
    while i < len(rest):
        w = rest[i]
        if w in skip_next:
            i += 2
            continue
        if not w.startswith("-"):
            return w.lower()
        i += 1
    return None


def _value(text: str, line: int) -> float:
    m = VALUE.match(text)
    if not m:
        raise ParseError(f"openssl speed: {text!r} is not a throughput (expected e.g. 1234.56k)", line=line)
    number = float(m.group(1))
    return number if m.group(2) == "k" else number / 1000.0  # k: 1000s of bytes/s; none: bytes/s


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
    out: dict[str, float] = {}
    rows: list[str] = []
    sizes: list[int] | None = None
    mr_sizes: list[int] | None = None
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if ERRORS.search(s) and not s.startswith(("Doing", "Command being timed", "compiler:")):
            raise ParseError(f"openssl speed failed: {s}", line=n)
        if s.startswith("+H:"):
            mr_sizes = [int(x) for x in s[3:].split(":") if x]
            continue
        if s.startswith("+F:") and mr_sizes:
            parts = s.split(":")
            alg = parts[2]
            for size, v in zip(mr_sizes, parts[3:], strict=False):
                out[key(alg, size)] = float(v) / 1000.0
            rows.append(alg.lower())
            continue
        h = HEADER.match(s)
        if h:
            sizes = [int(x) for x in re.findall(r"(\d+)\s+bytes", h.group(1))]
            continue
        for label, name in TIME_V.items():
            if s.startswith(label + ":"):
                v = s.split(":", 1)[1].strip().rstrip("%").strip()
                try:
                    out[name] = float(v)
                except ValueError:
                    if v != "?":  # time prints `?%` when the job took no time
                        raise ParseError(f"time -v: {s!r}", line=n) from None
        if sizes and not s.startswith(("Doing", "+")) and ":" not in s:
            words = s.split()
            if len(words) > len(sizes) and all(VALUE.match(w) for w in words[-len(sizes) :]):
                alg = " ".join(words[: -len(sizes)]).lower()
                for size, w in zip(sizes, words[-len(sizes) :], strict=True):
                    out[key(alg, size)] = _value(w, n)
                rows.append(alg)
    if sizes is not None and not rows:
        raise ParseError("openssl speed printed its table header but no algorithm row", line=len(lines))
    if not out:
        raise ParseError("no openssl speed table and no `time -v` report in the output", line=len(lines) or None)
    asked = requested(command)
    if asked and len(rows) == 1 and rows[0] != asked:
        for size in sizes or mr_sizes or []:
            k = key(rows[0], size)
            if k in out:
                out[key(asked, size)] = out[k]
    return out
