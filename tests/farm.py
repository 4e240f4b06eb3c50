"""A real labgrid farm on 127.0.0.1 for the tests and the farm benchmark.

`Rig` starts, in this order: simulated boards (`python -m perfgate sim`, each a real pty console and SSH server),
one simulated network PDU (`python -m perfgate sim-pdu`, labgrid's `rest` power model) with one outlet per board,
a real `labgrid-coordinator` on a free port, and a real `labgrid-exporter` whose resources are, per board, the pty
as a RawSerialPort (the exporter serves it through ser2net when the place is acquired), the PDU outlet as a
NetworkPowerPort and the SSH server as a NetworkService. It then creates one place per board (tags
board=<board>, rack=sim). `close()` stops everything it started (the exporter's ser2net children with it) and checks
that no process and no listening port is left.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import yaml

from perfgate.sim.process import die_with_parent

VENV_BIN = Path(sys.executable).parent


def _bin(name: str) -> str:
    p = VENV_BIN / name
    return str(p) if p.exists() else name


class Rig:
    def __init__(self, workdir: Path, boards: list[str], seed: int = 7, slow_exporter: float = 0.0) -> None:
        """`slow_exporter`: the exporter's host is that many seconds slow to start the first console (its
        `ser2net -v` check blocks the exporter, as on a loaded host)."""
        self.slow_exporter = slow_exporter
        self.workdir = workdir
        self.boards = boards
        self.seed = seed
        self.processes: list[subprocess.Popen] = []
        self.groups: dict[int, int] = {}  # pid -> process group to kill (the exporter and its ser2net)
        self.coordinator = ""
        self.places: list[str] = []
        self.sims: list[dict] = []
        self.pdu: dict = {}

    # -- starting ----------------------------------------------------------------------------------
    def _spawn(self, argv: list[str], log: str, group: bool = False, cwd: Path | None = None,
               env: dict[str, str] | None = None) -> subprocess.Popen:  # fmt: skip
        out = (self.workdir / f"{log}.log").open("ab")
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                             cwd=cwd or self.workdir, start_new_session=group,
                             preexec_fn=die_with_parent)  # fmt: skip  # a killed test run leaves no farm behind
        out.close()
        self.processes.append(p)
        if group:
            self.groups[p.pid] = p.pid
        return p

    def _wait_file(self, path: Path, process: subprocess.Popen, what: str, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"{what} exited ({process.returncode}): {self._log_tail(what)}")
            with contextlib.suppress(FileNotFoundError, json.JSONDecodeError):
                return json.loads(path.read_text())
            time.sleep(0.1)
        raise RuntimeError(f"{what} wrote no {path.name} within {timeout} s")

    def _log_tail(self, name: str) -> str:
        with contextlib.suppress(OSError):
            return (self.workdir / f"{name}.log").read_text(errors="replace")[-1500:]
        return ""

    def start(self, names: list[str] | None = None, tags: list[dict[str, str]] | None = None) -> Rig:
        try:
            self._start(names, tags)
        except BaseException:
            self.close()
            raise
        return self

    def _start(self, names: list[str] | None, tags: list[dict[str, str]] | None) -> None:
        py = sys.executable
        for i, board in enumerate(self.boards, 1):
            state = self.workdir / f"sim-{i}.json"
            p = self._spawn([py, "-m", "perfgate", "sim", "--board", board, "--state", str(state),
                             "--seed", str(self.seed + i)], f"sim-{i}")  # fmt: skip
            self.sims.append({"process": p, "state": state})
        for i, sim in enumerate(self.sims, 1):
            sim.update(self._wait_file(sim["state"], sim["process"], f"sim-{i}"))
        pdu_state = self.workdir / "pdu.json"
        outlets = [f"--outlet={i}={s['state']}" for i, s in enumerate(self.sims, 1)]
        pdu = self._spawn([py, "-m", "perfgate", "sim-pdu", *outlets, "--state", str(pdu_state)], "pdu")
        self.pdu = self._wait_file(pdu_state, pdu, "pdu")
        coord = self._spawn([_bin("labgrid-coordinator"), "-l", "127.0.0.1:0"], "coordinator")
        deadline = time.monotonic() + 30
        while not self.coordinator:
            m = re.search(r"listening on (\S+:\d+)", self._log_tail("coordinator"))
            if m:
                self.coordinator = m.group(1)
            elif coord.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"labgrid-coordinator did not start: {self._log_tail('coordinator')}")
            else:
                time.sleep(0.1)
        config = {}
        for i, sim in enumerate(self.sims, 1):
            config[f"board{i}"] = {
                "RawSerialPort": {"port": sim["serial"], "speed": 115200},
                "NetworkPowerPort": {"model": "rest", "host": self.pdu["url"], "index": i},
                "NetworkService": {"address": "127.0.0.1", "username": "root", "port": int(sim["ssh_port"])},
            }
        (self.workdir / "exporter.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
        exporter = [_bin("labgrid-exporter"), "-c", self.coordinator, "-n", "simrack", "--hostname", "127.0.0.1",
                    str(self.workdir / "exporter.yaml")]  # fmt: skip
        self._spawn(exporter, "exporter", group=True, env=self._exporter_env())
        self._make_places(names or [f"sim-{i}" for i in range(1, len(self.sims) + 1)], tags)

    def _exporter_env(self) -> dict[str, str] | None:
        if not self.slow_exporter:
            return None
        real = shutil.which("ser2net") or "/usr/sbin/ser2net"
        bin_dir = self.workdir / "slow-bin"
        bin_dir.mkdir(exist_ok=True)
        wrapper = bin_dir / "ser2net"
        wrapper.write_text(
            "#!/bin/sh\n# the real ser2net, but the first version check (the exporter's, before it starts a console)\n"
            "# takes long, as on a loaded exporter host\n"
            f'if [ "$1" = -v ] && [ ! -e {shlex.quote(str(bin_dir / "slowed"))} ]; then\n'
            f"  touch {shlex.quote(str(bin_dir / 'slowed'))}; sleep {self.slow_exporter:g}\n"
            f'fi\nexec {shlex.quote(real)} "$@"\n',
            encoding="utf-8",
        )
        wrapper.chmod(0o755)
        return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}

    def _make_places(self, names: list[str], tags: list[dict[str, str]] | None) -> None:
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        from perfgate.farm.client import Farm

        with Farm(self.coordinator, owner="localhost/rig") as farm:
            deadline = time.monotonic() + 30
            while len(farm.session.resources.get("simrack", {})) < len(self.sims):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the exporter's resources never reached the coordinator: "
                                       f"{self._log_tail('exporter')}")  # fmt: skip
                time.sleep(0.2)
                farm.sync()
            stub = farm.session.stub
            for i, (name, board) in enumerate(zip(names, self.boards, strict=True), 1):
                t = (tags[i - 1] if tags else None) or {"board": board, "rack": "sim"}
                farm._run(stub.AddPlace(pb.AddPlaceRequest(name=name)), "add place")
                farm._run(stub.AddPlaceMatch(pb.AddPlaceMatchRequest(placename=name, pattern=f"simrack/board{i}/*")),
                          "add match")  # fmt: skip
                farm._run(stub.SetPlaceTags(pb.SetPlaceTagsRequest(placename=name, tags=t)), "set tags")
                self.places.append(name)
            farm.sync()

    # -- looking ------------------------------------------------------------------------------------
    def state(self) -> dict[str, tuple[str | None, str | None]]:
        """{place: (acquired by, reservation token)} as the coordinator has them now."""
        from perfgate.farm.client import Farm

        with Farm(self.coordinator, owner="localhost/rig-look") as farm:
            return {n: (p.acquired, p.reservation) for n, p in farm.places().items()}

    def reservations(self) -> list:
        from perfgate.farm.client import Farm

        with Farm(self.coordinator, owner="localhost/rig-look") as farm:
            return farm.reservations()

    def lab_file(self, path: Path, **labgrid: object) -> Path:
        lab = {
            "name": "simfarm",
            "kind": "labgrid",
            "virtual": True,  # simulated boards behind a real labgrid: never reported as hardware
            "description": "simulated boards exported by a local labgrid exporter (ser2net, rest PDU)",
            "labgrid": {"coordinator": self.coordinator, **labgrid},
            "login": {"user": "root"},
            "tester": {"address": "127.0.0.1"},
            "timeouts": {"boot": 60, "autoboot": 30, "login": 30},
        }
        path.write_text(yaml.safe_dump(lab, sort_keys=False), encoding="utf-8")
        return path

    # -- stopping -----------------------------------------------------------------------------------
    def close(self) -> list[str]:
        """Stop everything (exporter and its ser2net, coordinator, PDU, boards); returns what was left over."""
        ports = [int(self.coordinator.rsplit(":", 1)[1])] if self.coordinator else []
        if self.pdu.get("port"):
            ports.append(int(self.pdu["port"]))
        for p in reversed(self.processes):
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    if p.pid in self.groups:
                        os.killpg(p.pid, signal.SIGTERM)
                    else:
                        p.terminate()
        left = []
        for p in self.processes:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                left.append(f"pid {p.pid} ({p.args[0]}) ignored SIGTERM")
                p.kill()
                p.wait(5)
        for pgid in self.groups:  # ser2net children of the exporter
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, 0)
                time.sleep(2)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pgid, 0)
                    left.append(f"process group {pgid} (the exporter's ser2net) still running")
                    os.killpg(pgid, signal.SIGKILL)
        for port in ports:
            with socket.socket() as s:
                s.settimeout(1)
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    left.append(f"port {port} still listening")
        self.processes.clear()
        return left

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
