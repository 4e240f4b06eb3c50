"""Crypto accelerator (suite crypto_accel): the SDK 12 guides' comparison of the SoC's crypto accelerator, the ARM
Cryptographic Extension and the plain ARM CPU, and the CPU usage of each.

One `time -v openssl speed -elapsed -evp <alg>` per algorithm and column; each column's engine or environment is
data (variables/workloads/crypto.yaml: crypto_accel.columns). Rows `aes-128-cbc / 16` (size in bytes) publish
MB/s per column; rows without a size (the "CPU Usage %" table) publish GNU time's "Percent of CPU this job got".
An output with an OpenSSL error (an engine that did not load) is rejected: OpenSSL then measures on the CPU, and
those numbers are not the accelerator's.
"""

from __future__ import annotations

import re
from pathlib import Path

from perfgate import paths
from perfgate.errors import DataError, ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import openssl as tool
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.network import fill
from perfgate.workloads.openssl import without_elapsed
from perfgate.workloads.peripherals import clean
from perfgate.workloads.settings import settings as shared_settings

SUITE = "crypto_accel"
SIZE = re.compile(r"^(\d+)(?:\s*bytes?)?$", re.IGNORECASE)


def data_path() -> Path:
    return paths.variables() / "workloads" / "crypto.yaml"


def settings(profile: dict, lab: dict) -> dict:
    """variables/workloads/crypto.yaml `crypto_accel:`, then the board profile's and the lab's."""
    return shared_settings("crypto", SUITE, profile, lab)


def mb_key(alg: str, size: str) -> str:
    """The openssl parser's metric for the guide's MB/s (10^6 bytes per second)."""
    return tool.mb_key(alg, size)


def column_of(c: Criterion, conf: dict) -> dict | None:
    metric = clean(c.metric)
    return next((col for col in conf.get("columns") or [] if re.search(col["match"], metric)), None)


def classify(c: Criterion, conf: dict) -> tuple[tuple[str, str], str] | str:
    """((column name, algorithm), metric) of a criterion, or why it fits none."""
    col = column_of(c, conf)
    if col is None:
        return f"no column of variables/workloads/crypto.yaml crypto_accel.columns matches {c.metric!r}"
    parts = [p.strip() for p in c.row.split("/")]
    alg = parts[0].lower()
    if not re.fullmatch(r"[\w-]+", alg):
        return f"no algorithm in row {c.row!r}"
    if "%" in c.metric or c.unit == "%":
        return (col["name"], alg), tool.CPU
    size = SIZE.match(parts[1]) if len(parts) == 2 else None
    if size is None:
        return f"neither a throughput per block size nor a CPU usage: {c.row!r} / {c.metric!r}"
    return (col["name"], alg), mb_key(alg, size.group(1))


class CryptoAccel(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return None  # a board without the accelerator shows as an OpenSSL error for that column, never as a skip

    def groups(self, criteria: list[Criterion], conf: dict) -> tuple[dict, dict[str, str]]:
        out: dict[tuple[str, str], dict[str, list[str]]] = {}
        bad: dict[str, str] = {}
        for c in criteria:
            got = classify(c, conf)
            if isinstance(got, str):
                bad[c.id] = got
            else:
                out.setdefault(got[0], {}).setdefault(got[1], []).append(c.id)
        return out, bad

    def command(self, column: str, alg: str, conf: dict, lab: dict) -> str:
        col = next((x for x in conf.get("columns") or [] if x["name"] == column), None)
        if col is None:
            raise DataError(f"crypto_accel.columns has no column {column!r}", data_path())
        by_kind = conf.get("seconds") or {}
        seconds = by_kind.get(str((lab or {}).get("kind") or "hardware")) if isinstance(by_kind, dict) else by_kind
        values = {"time": conf.get("time", "/usr/bin/time"), "openssl": conf.get("openssl", "openssl"), "alg": alg,
                  "seconds": f" -seconds {int(seconds)}" if seconds else "", "engine": col.get("engine", ""),
                  "env": col.get("env", "")}  # fmt: skip
        return fill(str(conf["command"]), values, "crypto_accel ", data_path())

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        conf = settings(profile, lab)
        groups, _ = self.groups(criteria, conf)
        return [Run("openssl", self.command(col, alg, conf, lab), keys, timeout=600, label=f"openssl-{col}-{alg}")
                for (col, alg), keys in sorted(groups.items())]  # fmt: skip

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        conf = settings(ctx.profile, ctx.lab)
        groups, bad = self.groups(criteria, conf)
        out = Measurements(missing=dict(bad))
        # the parser's MB/s is 1000 of openssl's kB; a setting of 1024 (TI's MB as 1024 kB) rescales it
        per_mb = float(conf.get("kbytes_per_mb", 1000))
        ctx.note("openssl speed per algorithm and column (accelerator, ARM CE, ARM); CPU usage from GNU time -v")
        for (col, alg), keys in sorted(groups.items()):
            ids = [cid for g in keys.values() for cid in g]
            cmd = self.command(col, alg, conf, ctx.lab)
            if tool.elapsed_in(cmd) is False:  # an override dropped it: rates per CPU second, never a number
                out.missing.update(dict.fromkeys(ids, without_elapsed(cmd)))
                continue
            try:
                text = ctx.run(cmd, timeout=600, label=f"openssl-{col}-{alg}")
            except ToolMissing as e:
                out.unavailable.update(dict.fromkeys(ids, str(e)))
                continue
            evidence = getattr(ctx, "last_evidence", "")
            try:
                raw = tool.parse(text, command=cmd)
            except ParseError as e:
                out.missing.update(dict.fromkeys(ids, f"{col}: openssl output rejected: {e}"))
                continue
            for warning in tool.warnings(text, command=cmd):
                ctx.note(f"{warning} (evidence {evidence or 'not kept'})")
            metrics = {k: v for k, v in raw.items() if k == tool.CPU}
            for k, v in raw.items():
                if k.endswith(tool.MB):
                    metrics[k] = round(v * 1000.0 / per_mb, 4)
            for key, cids in keys.items():
                for cid in cids:
                    if evidence:
                        out.evidence.setdefault(cid, []).append(evidence)
                    if key in metrics:
                        out.values[cid] = metrics[key]
                        out.tools[cid] = "openssl"
                    else:
                        out.missing[cid] = f"openssl printed no '{key}' for `{cmd}`"
        return out


WORKLOAD = CryptoAccel()
