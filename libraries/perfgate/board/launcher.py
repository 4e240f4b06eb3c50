"""Virtual labs start their board: the lab's `start` command (sim, qemu) runs as a child of the gate, writes a state
file (JSON: serial, ssh_port, pid, speed...) and is stopped when the gate is done. The child also exits by itself
when the gate dies (its own parent-death watch); `stop()` is the orderly path.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from perfgate.board.labfile import Lab, expand


class LaunchError(AssertionError):
    """The virtual board did not start."""


class Launcher:
    def __init__(self, lab: Lab, context: dict[str, Any], log_dir: Path | None = None) -> None:
        self.lab = lab
        self.workdir = Path(tempfile.mkdtemp(prefix=f"perfgate-{lab.name}-"))
        self.state_path = self.workdir / "state.json"
        self.log_path = (log_dir or self.workdir) / f"{lab.name}-board.log"
        self.context = {**context, "state": str(self.state_path)}
        self.process: subprocess.Popen | None = None
        self.state: dict[str, Any] = {}

    def command(self) -> list[str]:
        start = self.lab.data["start"]
        argv = shlex.split(start) if isinstance(start, str) else [str(a) for a in start]
        argv = [expand(a, self.context) for a in argv]
        if argv and argv[0] in ("python", "python3", "{python}"):
            argv[0] = expand("{python}", self.context)
        for option, value in (self.lab.data.get("start_options") or {}).items():
            v = expand(str(value), self.context)
            if v:
                argv += [str(option), v]
        return argv

    def start(self) -> dict[str, Any]:
        argv = self.command()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        start_new_session=True)  # fmt: skip
        log.close()
        timeout = float(self.lab.data.get("ready_timeout") or 30)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LaunchError(
                    f"the {self.lab.name} board exited (status {self.process.returncode}) before it was ready: "
                    f"`{shlex.join(argv)}`; its output: {self._tail()}"
                )
            if self.state_path.exists():
                try:
                    self.state = json.loads(self.state_path.read_text(encoding="utf-8"))
                except json.JSONDecodeError:
                    self.state = {}
                if self.state.get("serial"):
                    self.context["state_data"] = self.state
                    self._refuse_simulated_hardware(argv)
                    return self.state
            time.sleep(0.05)
        self.stop()
        raise LaunchError(f"the {self.lab.name} board wrote no state file within {timeout:g} s: `{shlex.join(argv)}`;"
                          f" its output: {self._tail()}")  # fmt: skip

    def _refuse_simulated_hardware(self, argv: list[str]) -> None:
        """The simulated board says so in its state file: a lab that reports hardware must not have started it."""
        if self.state.get("simulated") and not self.lab.virtual:
            self.stop()
            raise LaunchError(
                f"lab {self.lab.name} is kind: {self.lab.kind} (hardware) but `{shlex.join(argv)}` started the "
                f"simulated board (its state file says simulated): use kind: sim, or say `virtual: true` in "
                f"{self.lab.path}"
            )

    def _tail(self, n: int = 600) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-n:].strip() or "(none)"
        except OSError:
            return "(none)"

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 5.0) -> int | None:
        p = self.process
        if p is None:
            return None
        stop = self.lab.data.get("stop")
        if stop and p.poll() is None:
            subprocess.run(expand(stop, self.context, quote=True), shell=True, timeout=timeout, check=False)
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout)
        self.process = None
        with contextlib.suppress(OSError):
            os.unlink(self.state_path)
        return p.returncode
