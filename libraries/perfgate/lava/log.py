"""A LAVA job log back into each command's output (the markers of perfgate.lava.job), byte for byte.

LAVA keeps a job's log as YAML: a list of `{dt, lvl, msg}` entries, one per console line (`lvl: target`) or per
dispatcher message. Only whole `target` lines that are exactly a marker or a data line of this job's nonce count;
the output is the base64 data decoded, and it must have the size and SHA-256 its END marker states (else the
command's output was damaged on the way: a kernel message inside a data line, a lost line), which is an error
naming the command, never a silently different output.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass, field

import yaml

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # PyYAML without libyaml
    _Loader = yaml.SafeLoader


@dataclass
class Output:
    """One command's output as the job's log gave it back."""

    n: int
    text: str = ""
    data: bytes = b""
    rc: int | None = None  # None: the command started but never ended (the job stopped)
    problem: str = ""  # why the output cannot be trusted ("" when its size and digest match)
    chunks: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.rc is not None and not self.problem


def entries(text: str | bytes) -> list[dict]:
    """The log's entries (LAVA's job log YAML); an unreadable log is an empty list."""
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError:
        return []
    return [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []


def lines(log: list[dict]) -> list[str]:
    """The board's console lines (`lvl: target`) in order."""
    return [e["msg"] for e in log if e.get("lvl") == "target" and isinstance(e.get("msg"), str)]


def outputs(log: list[dict], token: str) -> dict[int, Output]:
    """Command number -> its output, for every command whose BEGIN marker the log shows."""
    t = re.escape(token)
    begin = re.compile(rf"<<PERFGATE:{t}:(\d+):BEGIN>>")
    end = re.compile(rf"<<PERFGATE:{t}:(\d+):END:rc=(\d+):bytes=(\d+):sha256=([0-9a-f]{{64}})>>")
    chunk = re.compile(rf"PERFGATE:{t}:(\d+):([A-Za-z0-9+/=]+)")
    out: dict[int, Output] = {}
    for line in lines(log):
        line = line.strip()
        m = begin.fullmatch(line)
        if m:
            out[int(m.group(1))] = Output(int(m.group(1)))
            continue
        m = chunk.fullmatch(line)
        if m and int(m.group(1)) in out:
            out[int(m.group(1))].chunks.append(m.group(2))
            continue
        m = end.fullmatch(line)
        if m and int(m.group(1)) in out:
            o = out[int(m.group(1))]
            o.rc = int(m.group(2))
            _decode(o, int(m.group(3)), m.group(4))
    return out


def _decode(o: Output, size: int, digest: str) -> None:
    try:
        o.data = base64.b64decode("".join(o.chunks), validate=True)
    except (binascii.Error, ValueError) as e:
        o.problem = f"its output in the job log is not valid base64 ({e})"
        return
    if len(o.data) != size or hashlib.sha256(o.data).hexdigest() != digest:
        o.problem = (f"its output in the job log ({len(o.data)} bytes) is not what the board printed ({size} bytes, "
                     "SHA-256 differs): a console line was lost or garbled")  # fmt: skip
        return
    o.text = o.data.decode("utf-8", errors="replace")


def running(log: list[dict], token: str) -> int | None:
    """The command the board is running now (a BEGIN with no END yet), None when none."""
    t = re.escape(token)
    current: int | None = None
    for line in lines(log):
        m = re.fullmatch(rf"<<PERFGATE:{t}:(\d+):(BEGIN|END:.*)>>", line.strip())
        if m:
            current = int(m.group(1)) if m.group(2) == "BEGIN" else None
    return current


def stage(log: list[dict]) -> str:
    """What LAVA is doing, from the last action it started (`start: 1.2 tftp-deploy (timeout ...)`)."""
    for e in reversed(log):
        msg = e.get("msg")
        if e.get("lvl") == "info" and isinstance(msg, str) and msg.startswith("start: "):
            m = re.match(r"start: [\d.]+ (\S+)", msg)
            if m:
                return m.group(1)
    return ""
