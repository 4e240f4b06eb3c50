"""A real LAVA on 127.0.0.1 for the tests: Debian 12's lava-server and lava-dispatcher 2023.01 (setup.sh installs
them, with PostgreSQL), started without systemd and stopped by the test that started it.

`LavaLab.start()` makes sure PostgreSQL runs (pg_ctlcluster), provisions what it needs once (idempotent, with
`lava-server manage`): EVENT_SOCKET on 127.0.0.1 (the publisher binds every address by default) and
EVENT_NOTIFICATION (the scheduler hears of a submitted job at once, not at its next 20 s look), a superuser
and a fresh API token, a worker, the `qemu` device type and one device whose dictionary says `no_kvm` (KVM is
unusable in these machines; the dictionary is written before the device is added, else the scheduler marks it
Bad), then starts gunicorn (lava_server.wsgi on a free port), lava-scheduler, lava-publisher and lava-worker
(`--ping-interval 5`: jobs start sooner) as child processes, waits for the worker to be online and the device
idle, and cancels jobs a killed earlier run left behind. `stop()` ends those processes (their process groups,
by id) and nothing else.

Facts from running it here: a small arm64 job (kernel and busybox ramdisk, two commands) goes from submit to
Complete in about 30 s; a job whose image URL names a missing file ends Incomplete in a few seconds.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import xmlrpc.client
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from perfgate.qemu import image

SETTINGS = Path("/etc/lava-server/settings.d/01-perfgate-tests.yaml")
DEVICES = Path("/etc/lava-server/dispatcher-config/devices")
USER = "perfgate-test"
WORKER = "perfgate-test-worker"
DEVICE = "perfgate-qemu01"
DEVICE_TYPE = "qemu"
EVENT_SOCKET = "tcp://127.0.0.1:5500"
DICTIONARY = """\
{% extends 'qemu.jinja2' %}
{% set no_kvm = True %}
{% set mac_addr = '52:54:00:12:34:61' %}
{% set memory = 512 %}
"""
TOKEN_ENV = "PERFGATE_TEST_LAVA_TOKEN"  # the lab files lab_file() writes take the token from it
PACKAGES = ("lava-server", "lava-worker", "lava-run", "gunicorn3", "pg_ctlcluster")


def missing() -> str | None:
    """Why a real LAVA cannot start here (None: it can)."""
    if os.geteuid() != 0:
        return "the LAVA tests run as root (lava-server manage, the dispatcher's QEMU)"
    gone = [p for p in PACKAGES if not shutil.which(p)]
    if gone:
        return f"not installed: {', '.join(gone)} (setup.sh installs lava-server, lava-dispatcher and PostgreSQL)"
    if not shutil.which("qemu-system-aarch64"):
        return "qemu-system-aarch64 is not installed (setup.sh: qemu-system-arm)"
    return None


def manage(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["lava-server", "manage", *args], capture_output=True, text=True, check=check, timeout=300)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres() -> None:
    """PostgreSQL's cluster running (started with pg_ctlcluster: no systemd here)."""
    out = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        version, cluster, _port, status = line.split()[:4]
        if status != "online":
            subprocess.run(["pg_ctlcluster", version, cluster, "start"], check=True, timeout=120)


@dataclass
class LavaLab:
    work: Path
    port: int = 0
    token: str = ""
    procs: list[subprocess.Popen] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/RPC2"

    def proxy(self) -> xmlrpc.client.ServerProxy:
        return xmlrpc.client.ServerProxy(f"http://{USER}:{self.token}@127.0.0.1:{self.port}/RPC2", allow_none=True)

    # ------------------------------------------------------------------------------------------------ setup
    def provision(self) -> str:
        """Everything the server needs once; returns the worker's token."""
        postgres()
        # EVENT_NOTIFICATION: the server tells the publisher of each submitted job and idle device, and
        # lava-scheduler (which listens to the publisher) schedules at once; without it, the scheduler only looks
        # every 20 s (lava_server/management/commands/lava-scheduler.py: INTERVAL), 10-20 s of every job
        wanted = f'EVENT_SOCKET: "{EVENT_SOCKET}"\nEVENT_NOTIFICATION: true\n'
        if not SETTINGS.exists() or SETTINGS.read_text() != wanted:
            SETTINGS.write_text(wanted)
        if manage("users", "details", USER, check=False).returncode != 0:
            manage("users", "add", "--superuser", "--staff", "--passwd", "perfgate-test", USER)
        self.token = manage("tokens", "add", "--user", USER).stdout.strip().splitlines()[-1].strip()
        if manage("workers", "details", WORKER, check=False).returncode != 0:
            manage("workers", "add", WORKER)
        details = manage("workers", "details", WORKER).stdout
        worker_token = next(line.split(":", 1)[1].strip() for line in details.splitlines() if line.startswith("token"))
        if DEVICE_TYPE not in manage("device-types", "list").stdout.split():
            manage("device-types", "add", DEVICE_TYPE)
        dictionary = DEVICES / f"{DEVICE}.jinja2"
        if not dictionary.exists() or dictionary.read_text() != DICTIONARY:
            dictionary.write_text(DICTIONARY)
        if manage("devices", "details", DEVICE, check=False).returncode != 0:
            manage("devices", "add", "--device-type", DEVICE_TYPE, "--worker", WORKER, DEVICE)
        manage("devices", "update", "--health", "GOOD", DEVICE)
        return worker_token

    def start(self, timeout: float = 120.0) -> LavaLab:
        worker_token = self.provision()
        self.port = free_port()
        self.work.mkdir(parents=True, exist_ok=True)
        os.chmod(self.work, 0o777)  # gunicorn runs as lavaserver and writes its log here
        self._spawn("gunicorn", ["gunicorn3", "lava_server.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
                                 "--worker-class", "eventlet", "--timeout", "120", "-u", "lavaserver", "-g",
                                 "lavaserver", "--log-file", str(self.work / "gunicorn.log")])  # fmt: skip
        self._spawn("scheduler", ["lava-server", "manage", "lava-scheduler", "--level", "DEBUG"])
        self._spawn("publisher", ["lava-server", "manage", "lava-publisher"])
        self._wait_http(timeout)
        (self.work / "worker" / "tmp").mkdir(parents=True, exist_ok=True)  # lava-worker expects it (a cancel of a
        # job an earlier worker ran creates a job folder there)
        self._spawn("worker", ["lava-worker", "--name", WORKER, "--url", f"http://127.0.0.1:{self.port}/", "--token",
                               worker_token, "--ping-interval", "5", "--worker-dir", str(self.work / "worker"),
                               "--log-file", str(self.work / "worker.log")])  # fmt: skip
        self._wait_ready(timeout)
        return self

    def _spawn(self, name: str, argv: list[str]) -> None:
        log = open(self.work / f"{name}.out", "wb")  # noqa: SIM115 - closed with the process
        self.procs.append(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                           start_new_session=True))  # fmt: skip
        log.close()

    def _wait_http(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                self.proxy().system.version()
                return
            except (OSError, xmlrpc.client.ProtocolError):
                time.sleep(0.5)
        raise AssertionError(f"LAVA's gunicorn did not answer on port {self.port} in {timeout:.0f} s: {self.logs()}")

    def _wait_ready(self, timeout: float) -> None:
        """The worker online, the device idle and good, and no job of an earlier run still queued or running."""
        p = self.proxy()
        for state in ("SUBMITTED", "SCHEDULING", "SCHEDULED", "RUNNING", "CANCELING"):
            for job in p.scheduler.jobs.list(state, None, 0, 100):
                p.scheduler.jobs.cancel(job["id"])
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            worker = p.scheduler.workers.show(WORKER)
            device = p.scheduler.devices.show(DEVICE)
            if worker.get("state") == "Online" and device.get("state") == "Idle" and device.get("health") == "Good":
                return
            time.sleep(1)
        raise AssertionError(f"LAVA's worker or device did not come up in {timeout:.0f} s "
                             f"(worker {worker}, device {device}): {self.logs()}")  # fmt: skip

    def logs(self) -> str:
        out = []
        for f in sorted(self.work.glob("*.out")) + sorted(self.work.glob("*.log")):
            out.append(f"--- {f.name}\n{f.read_text(errors='replace')[-2000:]}")
        return "\n".join(out)

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)
        self.procs.clear()

    # ------------------------------------------------------------------------------------------------ labs
    def lab_file(self, tmp_path: Path, ramdisk: str | None = None, **lava_keys: object) -> Path:
        """A lava lab for the QEMU device: the QEMU board's kernel and initramfs (cpio.newc, LAVA's overlay appended
        without libguestfs), its ext4 disk copied for the job as the "mmcsd" medium, the host as the tester."""
        built = image.outputs()
        disk = tmp_path / "disk.img"
        shutil.copyfile(built["disk"], disk)
        kernel = f"file://{built['kernel'].resolve()}"
        ramdisk = ramdisk or f"file://{built['initrd'].resolve()}"
        extra = ["-smp 2", f"-drive file={disk},if=none,format=raw,id=disk0", "-device virtio-blk-pci,drive=disk0"]
        data = {
            "name": "lava-test",
            "kind": "lava",
            "virtual": True,
            "description": "a QEMU arm64 device in a LAVA started by the tests",
            "lava": {
                "server": self.url,
                "user": "perfgate-test",
                "token_env": TOKEN_ENV,
                "device_type": "qemu",
                "context": {"arch": "arm64", "cpu": "cortex-a53", "extra_options": extra},
                "deploy": {
                    "to": "tmpfs",
                    "images": {
                        "kernel": {
                            "image_arg": '-kernel {kernel} -append "console=ttyAMA0,115200 panic=-1"',
                            "url": kernel,
                        },
                        "ramdisk": {
                            "image_arg": "-initrd {ramdisk}",
                            "url": ramdisk,
                            "compression": "gz",
                            "format": "cpio.newc",
                            "overlays": {"lava": True},
                        },
                    },
                },
                "boot": {
                    "method": "qemu",
                    "media": "tmpfs",
                    "prompts": ["root@perfgate-qemu:~# "],
                    "auto_login": {"login_prompt": "login:", "username": "root"},
                },
                "timeouts": {"job": 900, "action": 300, "deploy": 120, "boot": 180, "queue": 300},
                "poll": 1,
                **lava_keys,
            },
            "ssh": {"address": "10.0.2.15"},  # QEMU's user network: the board as it sees itself
            "tester": {"address": "10.0.2.2"},  # this host as the board sees it
            "has": ["ethernet", "mmcsd"],
            "storage": {"mmcsd": "/mnt/mmcsd"},
            "duration": 5,
        }
        p = tmp_path / "lava-test.yaml"
        p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        return p

    def maintenance(self, on: bool) -> None:
        self.proxy().scheduler.devices.update(DEVICE, None, None, None, None, "MAINTENANCE" if on else "GOOD")
