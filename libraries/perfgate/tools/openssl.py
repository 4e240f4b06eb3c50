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

What the parser refuses (exit 2 from `perfgate parse`, "not recognised" in the gate):
- a row outside the results table (the table is the `type` header and the row-shaped lines right after it), or a
  row whose name is no algorithm OpenSSL prints (an `iostat` line `mmcblk0 20.52 ...` glued into the table);
- an algorithm printed twice (both lines named);
- a table whose every rate is `0.00` (see below: nothing was measured).
- `inf`/`infk`/`nan`: openssl divided by a CPU time of zero. Without `-elapsed` openssl speed reports bytes per
  *CPU second of its own process*; with a hardware engine (`-engine devcrypto`) that process hardly runs, so
  OpenSSL 3 prints `infk` and OpenSSL 1.x prints huge finite rates. The gate's commands always carry `-elapsed`;
  `warnings()` says when a command or an output lacks it (printed by `perfgate parse` and noted in the gate's log).

A rate printed as `0.00` is no measurement: speed.c prints the zero it started from for an algorithm this build
lacks (a full `openssl speed` of OpenSSL 1.0.1 on Raspbian prints md2, mdc2, idea and rc5 so; OpenSSL 3 prints md4
so without the legacy provider, tests/fixtures/openssl/corpus/md4-*) or a block size it did not run; such a value
gives no metric (never a zero rate).

Metrics: `<algorithm>/<block size> (KBytes/s)` for every row and block size, the algorithm in lower case as
printed; when the command names one `-evp <alg>` and the table has one row, the same values are also given under
the requested name (`des3/16 (KBytes/s)`). Each also as `<algorithm>/<block size> (MB/s)` (the KBytes/s figure /
1000: openssl counts 1000s of bytes), the name the SDK 12 guides' "Crypto Performance Comparison" tables print.
From `time -v`: `cpu load (%)`, `user time (s)`, `system time (s)`.
"""

from __future__ import annotations

import re
import shlex

from perfgate.errors import ParseError
from perfgate.tools.card import Card
from perfgate.tools.common import CPU, ESCAPES

KB = "(KBytes/s)"
MB = "(MB/s)"  # 10^6 bytes per second: openssl's 1000s of bytes / 1000
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
    r"(Unknown (cipher|digest|algorithm|option)|speed: Unknown|speed: unable to load provider|invalid command|:error:|"
    r"^Error\b|Usage: speed)",
    re.I,
)


def key(alg: str, size: int | str) -> str:
    return f"{alg.lower()}/{size} {KB}"


def mb_key(alg: str, size: int | str) -> str:
    return f"{alg.lower()}/{size} {MB}"


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


ELAPSED_SAID = "You have chosen to measure elapsed time instead of user CPU time."
DOING = re.compile(r"^Doing .+ for \d+s on \d+ size blocks: \d+ .+ in (?P<secs>[\d.]+)s$")
ROW_VALUE = re.compile(r"^(?:\d+(?:\.\d+)?|[-+]?inf|nan)k?$", re.I)
# What openssl speed prints as a row name: OpenSSL 1.x speed.c's fixed names (some with a space), and the EVP names
# of OpenSSL 1.1/3 (`AES-128-CBC`, `sha256`, `hmac(sha256)`) whose family is one of these.
LEGACY_ROWS = {
    "md2", "mdc2", "md4", "md5", "hmac(md5)", "sha1", "rmd160", "rc4", "des cbc", "des ede3", "idea cbc", "seed cbc",
    "rc2 cbc", "rc5-32/12 cbc", "blowfish cbc", "cast cbc", "aes-128 cbc", "aes-192 cbc", "aes-256 cbc",
    "camellia-128 cbc", "camellia-192 cbc", "camellia-256 cbc", "evp", "sha256", "sha512", "whirlpool",
    "aes-128 ige", "aes-192 ige", "aes-256 ige", "ghash", "rand",
}  # fmt: skip
FAMILIES = (
    "aes", "aria", "bf", "blake2", "blowfish", "camellia", "cast", "chacha20", "cmac", "des", "ghash", "gmac", "hmac",
    "id-aes", "idea", "kmac", "md2", "md4", "md5", "mdc2", "poly1305", "rand", "rc2", "rc4", "rc5", "ripemd", "rmd",
    "seed", "sha", "shake", "siphash", "sm3", "sm4", "whirlpool", "keccak", "gost", "streebog", "null",
)  # fmt: skip
EVP_NAME = re.compile(r"^[a-z0-9]+(?:[-_/][a-z0-9]+)*(?:\([a-z0-9-]+\))?$")


def known_algorithm(name: str) -> bool:
    """A row name openssl speed prints: a 1.x fixed name, or an EVP name of a cipher/digest/MAC family."""
    low = name.lower()
    return low in LEGACY_ROWS or (EVP_NAME.match(low) is not None and low.startswith(FAMILIES))


def elapsed_in(command: str | None) -> bool | None:
    """Whether a command runs openssl speed with -elapsed; None when it is not an openssl speed command."""
    if not command:
        return None
    words = command.split()
    if "speed" not in words:
        return None
    return "-elapsed" in words


def _measured_elapsed(text: str, command: str | None) -> bool | None:
    """True when the output or the command says the rates are per wall-clock second, False when they say they are
    per CPU second (progress lines without the -elapsed notice, or a command without -elapsed), None if unknown."""
    if ELAPSED_SAID in text:
        return True
    by_command = elapsed_in(command)
    if by_command is not None:
        return by_command
    if any(DOING.match(ESCAPES.sub("", ln).strip()) for ln in text.splitlines()):
        return False  # progress lines on stderr, and no notice: the run measured CPU time
    return None


def warnings(text: str, command: str | None = None) -> list[str]:
    """What a reader of the parsed numbers must know: rates that are per CPU second, not per second."""
    measured = _measured_elapsed(text, command)
    if measured is True:
        return []
    if measured is False:
        said = f"`{command}` lacks -elapsed" if elapsed_in(command) is False else "the run lacked -elapsed"
        return [
            f"openssl speed: {said}: the rates are bytes per CPU second of openssl, not per second of wall-clock "
            "time (far too high with a hardware engine such as -engine devcrypto); run `openssl speed -elapsed`"
        ]
    return [
        "openssl speed: neither the command (give --command) nor the output (no `You have chosen to measure elapsed "
        "time` line: stderr not captured?) says whether -elapsed was used: the rates may be per CPU second"
    ]


def _value(text: str, line: int, alg: str, elapsed: bool | None) -> float:
    m = VALUE.match(text)
    if not m:
        if ROW_VALUE.match(text):  # inf, infk, nan: a rate divided by a time of zero
            if elapsed is True:
                why = "openssl speed measured no time at all"
            else:
                why = (
                    "no wall-clock time: the command lacks -elapsed, so openssl divided by its own CPU time, which "
                    "is zero when a hardware engine (-engine devcrypto) does the work; run `openssl speed -elapsed`"
                )
            raise ParseError(f"openssl speed printed {text!r} for {alg}: {why}", line=line)
        raise ParseError(f"openssl speed: {text!r} is not a throughput (expected e.g. 1234.56k)", line=line)
    number = float(m.group(1))
    return number if m.group(2) == "k" else number / 1000.0  # k: 1000s of bytes/s; none: bytes/s


def _not_run(value: str) -> bool:
    """A rate speed.c printed without measuring anything: its initial zero (`0.00`, or `0` in -mr form)."""
    try:
        return float(value) == 0.0
    except ValueError:
        return False


def _row(s: str, sizes: list[int]) -> tuple[str, list[str]] | None:
    """(name, values) of a line shaped like a table row (a name, then one value per block size)."""
    if ":" in s or s.startswith(("Doing", "+")):
        return None
    words = s.split()
    if len(words) <= len(sizes) or not all(ROW_VALUE.match(w) for w in words[-len(sizes) :]):
        return None
    return " ".join(words[: -len(sizes)]), words[-len(sizes) :]


def parse(text: str, command: str | None = None) -> dict[str, float]:
    lines = [ESCAPES.sub("", raw).rstrip("\r") for raw in text.splitlines()]
    elapsed = _measured_elapsed(text, command)
    out: dict[str, float] = {}
    rows: dict[str, int] = {}  # algorithm (lower case) -> line of its row
    sizes: list[int] | None = None
    in_table = False
    mr_sizes: list[int] | None = None

    def add_row(alg: str, n: int) -> None:
        if alg.lower() in rows:
            raise ParseError(
                f"openssl speed printed {alg} twice (lines {rows[alg.lower()]} and {n}): which one is the result?",
                line=n,
            )
        rows[alg.lower()] = n

    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            in_table = False
            continue
        if ERRORS.search(s) and not s.startswith(("Doing", "Command being timed", "compiler:")):
            raise ParseError(f"openssl speed failed: {s}", line=n)
        if s.startswith("+H:"):
            mr_sizes = [int(x) for x in s[3:].split(":") if x]
            continue
        if s.startswith("+F:") and mr_sizes:
            parts = s.split(":")
            alg = parts[2]
            add_row(alg, n)
            for size, v in zip(mr_sizes, parts[3:], strict=False):
                if not _not_run(v):
                    out[key(alg, size)] = _value(v + "k", n, alg, elapsed) / 1000.0
            continue
        h = HEADER.match(s)
        if h:
            sizes = [int(x) for x in re.findall(r"(\d+)\s+bytes", h.group(1))]
            in_table = True
            continue
        row = _row(s, sizes) if in_table and sizes else None
        if row:
            alg, values = row
            if not known_algorithm(alg):
                raise ParseError(
                    f"openssl speed: {s!r} in the results table is no algorithm row ({alg!r} is not an algorithm "
                    "openssl speed prints; expected e.g. `AES-128-CBC  547823.87k ...`)",
                    line=n,
                )
            add_row(alg, n)
            for size, w in zip(sizes or [], values, strict=True):
                if not _not_run(w):
                    out[key(alg, size)] = _value(w, n, alg, elapsed)
            continue
        in_table = False  # the first line that is not a row ends the table
        for label, name in TIME_V.items():
            if s.startswith(label + ":"):
                v = s.split(":", 1)[1].strip().rstrip("%").strip()
                try:
                    out[name] = float(v)
                except ValueError:
                    if v != "?":  # time prints `?%` when the job took no time
                        raise ParseError(f"time -v: {s!r}", line=n) from None
    if sizes is not None and not rows:
        raise ParseError("openssl speed printed its table header but no algorithm row", line=len(lines))
    if rows and not any(k.endswith(KB) for k in out):
        raise ParseError(
            "openssl speed printed only 0.00 rates: no algorithm was measured (not built into this openssl?)",
            line=max(rows.values()),
        )
    if not out:
        raise ParseError("no openssl speed table and no `time -v` report in the output", line=len(lines) or None)
    asked = requested(command)
    names = list(rows)
    if asked and len(names) == 1 and names[0] != asked:
        for size in sizes or mr_sizes or []:
            k = key(names[0], size)
            if k in out:
                out[key(asked, size)] = out[k]
    for k in [k for k in out if k.endswith(KB)]:
        out[k[: -len(KB)] + MB] = round(out[k] / 1000.0, 6)
    return out


CARD = Card("openssl", parse, binaries=("openssl",), warnings=warnings)
