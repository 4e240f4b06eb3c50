"""What the storage suites (emmc, mmcsd, nvme, usb_msc, ospi, nand, sata) share: fio with TI's options, write
then read per buffer size, on the device or mount point the lab names.

A criterion is read from its metric text ("Write EXT4 Throughput (Mbytes/sec)", "Read UBIFS CPU Load (%)",
"Raw Read Throughput", "Transfer Rate (in MBytes/sec)" under a "Host-Write" table...), its row (the buffer size:
1m, 4m, 4k, 256k or a byte count; a size in MB for raw reads and gadget transfers) and its table. One shell
command per (filesystem, buffer size) writes the test file, reads it back and removes it; throughput is fio's
bw_bytes in decimal MB/s, CPU load fio's usr + sys. The target is lab.storage.<medium>_<filesystem> or
lab.storage.<medium>: a medium the lab does not name is skipped with the reason, and nothing is written to it.
A target under /dev/ is used as the fio file itself (a raw device the lab chose to give) and is not removed.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from perfgate import paths
from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload, lab_file, run_all
from perfgate.workloads.network import duration, fill, grouped
from perfgate.workloads.peripherals import clean as norm
from perfgate.workloads.settings import settings as shared_settings

FILESYSTEMS = ("ext4", "ext3", "ext2", "vfat", "ubifs", "raw")


def data_path() -> Path:
    return paths.variables() / "workloads" / "storage.yaml"


def settings(suite: str, profile: dict, lab: dict) -> dict:
    """variables/workloads/storage.yaml `common` + `<suite>`, then the board profile's and the lab's
    workloads.<suite> (perfgate.workloads.settings)."""
    return shared_settings("storage", suite, profile, lab)


@dataclass(frozen=True)
class Job:
    kind: str  # fio (write then read) | raw_read | gadget
    fs: str  # ext4, ext2, vfat, ubifs, raw; "gadget" for the USB device tables
    size: str  # fio bs (fio jobs) or MB (raw_read, gadget)
    direction: str = ""  # gadget only: read | write (one transfer per direction)
    device: str = ""  # a second device of the same medium, by its table (the AM57x mSATA SSD beside the SATA disk)

    def name(self, suite: str) -> str:
        extra = f"-{self.direction}" if self.direction else ""
        where = f"-{self.device}" if self.device else ""
        return f"{suite}{where}-{self.fs}-{self.size}{extra}".lower()


def classify(c: Criterion, conf: dict) -> tuple[Job, str] | str:
    """(job, fio metric) of a storage criterion, or the reason it fits none."""
    metric = norm(c.metric or c.row)
    table = norm(c.table)
    whole = norm(f"{c.name} {c.table}")
    cpu = "cpu" in metric or "load" in metric
    if not cpu and not re.search(r"throughput|transfer rate|mb/s|mbytes", metric):
        return f"no storage metric in {c.metric or c.row!r}"
    row = norm(c.row)
    if re.search(r"slave|usbdevice|usb device", table):
        direction = "write" if "write" in table else "read"
        mb = re.fullmatch(r"(\d+)", row)
        if not mb:
            return f"gadget transfer size {c.row!r} is not a number"
        return Job("gadget", "gadget", mb.group(1), direction), f"{direction} throughput (MB/s)"
    if "raw read" in metric and not re.search(r"write|cpu", metric):
        mb = re.fullmatch(r"(\d+)", row)
        if not mb:
            return f"raw read size {c.row!r} is not a number of MB"
        return Job("raw_read", "raw", mb.group(1)), "read throughput (MB/s)"
    direction = "write" if "write" in metric else "read" if "read" in metric else ""
    if not direction:
        direction = "write" if "write" in table else "read" if "read" in table else ""
    if not direction:
        return f"neither read nor write in {c.metric!r} / {c.table!r}"
    # the table's own filesystem first: TI's "MMC EXT2" and "MMC EXT3" tables (AM62Ax 11.01) keep the column
    # title "Write Raw Throughput" of the raw table they were copied from
    fs = next((f for f in FILESYSTEMS if f != "raw" and re.search(rf"\b{f}\b", table)), None)
    fs = fs or next((f for f in FILESYSTEMS if re.search(rf"\b{f}\b", metric)), None)
    fs = fs or next((f for f in FILESYSTEMS if re.search(rf"\b{f}\b file system", whole)), None)
    fs = fs or str(conf.get("default_filesystem", "ext4"))
    bs = re.fullmatch(r"(\d+)\s*([kmg]?)", row)
    if not bs:
        return f"buffer size {c.row!r} is not a size"
    key = f"{direction} cpu load (%)" if cpu else f"{direction} throughput (MB/s)"
    device = next((str(d) for d, rx in (conf.get("devices") or {}).items() if re.search(str(rx), table)), "")
    return Job("fio", fs, bs.group(1) + bs.group(2), device=device), key


class FioStorage(Workload):
    """One storage suite; the subclass only names it (the medium and requirements are data)."""

    suite = ""

    def conf(self, profile: dict, lab: dict) -> dict:
        return settings(self.suite, profile, lab)

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        conf = self.conf(profile, lab)
        needs = [str(x) for x in conf.get("requires") or []]
        has = set(profile.get("has") or [])
        if needs and not has.intersection(needs):
            name = profile.get("name", "the board")
            return f"board {name} has no {' or '.join(needs)} (variables/boards/{name}.yaml: has)"
        return None

    def jobs(self, criteria: list[Criterion], conf: dict) -> tuple[dict[Job, dict[str, list[str]]], dict[str, str]]:
        return grouped(criteria, lambda c: classify(c, conf))

    def target(self, job: Job, conf: dict, lab: dict) -> tuple[str, str] | str:
        """(path, the lab key that named it), or why there is none."""
        medium = str(conf.get("medium", self.suite))
        storage = (lab or {}).get("storage") or {}
        if job.device:  # a second device of the medium: only the lab's own name for it, never the first device
            medium = f"{medium}_{job.device}"
        keys = {"gadget": ["usb_gadget"], "raw_read": [f"{medium}_raw"]}.get(job.kind, [f"{medium}_{job.fs}", medium])
        for key in keys:
            value = storage.get(key)
            if isinstance(value, str) and value:
                if job.kind == "raw_read" and not value.startswith("/dev/"):
                    continue
                return value, key
        if job.kind == "raw_read" and isinstance(storage.get(medium), str) and storage[medium].startswith("/dev/"):
            return storage[medium], medium
        labname = (lab or {}).get("name", "the lab")
        return (f"lab {labname!r} names no {' or '.join(keys)} under storage ({lab_file(lab)}): "
                "nothing is written to a medium the lab does not name")  # fmt: skip

    def runtime(self, ctx_lab: dict, conf: dict, ctx: Context | None = None) -> int:
        """Seconds per fio job: -v DURATION, the lab's `duration`, then the settings by lab kind. The plan (no
        context) reads the same, so that the commands it foresees are the ones measure() runs (a LAVA lab runs the
        planned commands ahead)."""
        return duration(ctx if ctx is not None else SimpleNamespace(lab=ctx_lab, duration=None),  # type: ignore[arg-type]
                        {"duration": conf.get("runtime")})  # fmt: skip

    def command(self, job: Job, conf: dict, path: str, runtime: int) -> tuple[str, str]:
        """(command, where) of one job."""
        name = job.name(self.suite)
        fs = (conf.get("filesystems") or {}).get(job.fs) or {}
        direct = fs.get("direct", conf.get("direct", 1))
        device = path.startswith("/dev/")
        file = path if device else f"{path.rstrip('/')}/{conf.get('file', 'perfgate-fio.test')}"
        values = {"fio": conf.get("fio", "fio"), "name": name, "file": shlex.quote(file), "bs": job.size,
                  "size": conf.get("size", "1G"), "mb": job.size, "runtime": runtime, "direct": direct}  # fmt: skip
        values["options"] = _fill(str(conf.get("options", "")), values)
        if job.kind == "raw_read":
            return _fill(str(conf["raw_read"]), values), "shell"
        if job.kind == "gadget":
            return _fill(str(conf[f"gadget_{job.direction}"]), values), "tester"
        cmd = f"{_fill(str(conf['write']), values)} && {_fill(str(conf['read']), values)}"
        if not device:
            cmd += "; " + _fill(str(conf.get("cleanup", "rm -f {file}")), values)
        return cmd, "shell"

    def job_run(self, job: Job, keys: dict[str, list[str]], conf: dict, path: str, runtime: int,
                tester_where: str = "tester") -> Run:  # fmt: skip
        """The Run of one job; a gadget transfer runs `tester_where` (the USB host)."""
        cmd, where = self.command(job, conf, path, runtime)
        return Run("fio", cmd, _prefixed(job, self.suite, keys), where=tester_where if where == "tester" else where,
                   timeout=runtime * 4 + 120, label=f"fio-{job.name(self.suite)}")  # fmt: skip

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        conf = self.conf(profile, lab)
        jobs, _ = self.jobs(criteria, conf)
        runs: list[Run] = []
        runtime = self.runtime(lab, conf)
        for job, keys in jobs.items():
            t = self.target(job, conf, lab)
            if isinstance(t, str):
                continue
            run = self.job_run(job, keys, conf, t[0], runtime)
            if run.where == "shell":  # gadget transfers run on the USB host, while measuring
                runs.append(run)
        return runs

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        conf = self.conf(ctx.profile, ctx.lab)
        out = Measurements()
        jobs, bad = self.jobs(criteria, conf)
        out.missing.update(bad)
        runtime = self.runtime(ctx.lab, conf, ctx)
        ctx.note(f"fio {runtime} s per job (the guides: {conf.get('guide_runtime', 60)} s)")
        tester_where = str((conf.get("tester_side") or {}).get(str(ctx.lab.get("kind") or "hardware"), "host"))
        noted: set[str] = set()
        for job, keys in sorted(jobs.items(), key=lambda kv: (kv[0].kind, kv[0].fs, _bytes(kv[0].size))):
            ids = [cid for g in keys.values() for cid in g]
            t = self.target(job, conf, ctx.lab)
            if isinstance(t, str):
                out.skipped.update(dict.fromkeys(ids, t))
                continue
            path, key = t
            if key not in noted:
                noted.add(key)
                ctx.note(f"{job.fs} jobs on {path} (lab storage.{key})")
            out.merge(run_all([self.job_run(job, keys, conf, path, runtime, tester_where)], ctx))
        return out


def _prefixed(job: Job, suite: str, keys: dict[str, list[str]]) -> dict[str, list[str]]:
    """fio's per-job metric names: `<job name>-write: write throughput (MB/s)`."""
    out: dict[str, list[str]] = {}
    for key, ids in keys.items():
        direction = key.split(" ", 1)[0]
        out[f"{job.name(suite)}-{direction}: {key}"] = ids
    return out


def _bytes(size: str) -> int:
    m = re.fullmatch(r"(\d+)([kmg]?)", size)
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2)] if m else 0


def _fill(template: str, values: dict) -> str:
    return fill(template, values, "storage ", data_path())
