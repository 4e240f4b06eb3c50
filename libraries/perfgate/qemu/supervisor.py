"""The QEMU board process (`python -m perfgate qemu serve`): QEMU behind a power switch and a steady serial port.

Like a board on a lab bench, the board process has
- a serial console: a TCP server on 127.0.0.1 whose port does not change when the board is power-cycled (like a
  USB-serial adapter); a client sees what the board prints while it is connected, from U-Boot's banner on;
- a power switch: `python -m perfgate qemu power <state> on|off|cycle` starts, stops or restarts QEMU
  (the qemu lab's power commands), through a small control port;
- SSH forwarded from a fixed 127.0.0.1 port to the guest's port 22.
State goes to a JSON file (the same keys as the simulated board: pid, board, serial, ssh_port, started).
QEMU never outlives the board process (PR_SET_PDEATHSIG, its own process group, stopped on SIGTERM/SIGINT/SIGHUP),
and the board process ends when the process it watches (by default its parent: the gate) ends.
If QEMU stops without being switched off, the board process says so on the serial line, records it in the state
file, and drops the serial client, so that the gate fails at once instead of waiting for a prompt.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from perfgate.errors import PerfgateError
from perfgate.procs import alive as pid_alive
from perfgate.qemu import image, launch, recipe

TICK = 0.2  # seconds between checks of QEMU and of the watched process
HANGUP_DELAY = 1.0  # seconds between the "QEMU exited" message on the console and dropping the console client


class BoardError(PerfgateError):
    """The board process is not running or refused a request."""


@dataclass
class Options:
    state: Path
    board: str = "qemu_arm64"
    lab: str = "qemu"
    power: str = "on"
    serial_log: Path | None = None
    watch_pid: int | None = None

    @classmethod
    def from_args(cls, args) -> Options:
        return cls(
            state=Path(args.state).resolve(),
            board=args.board,
            lab=args.lab,
            power=args.power,
            serial_log=Path(args.serial_log).resolve() if args.serial_log else None,
            watch_pid=args.watch_pid,
        )


def _listen() -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(4)
    s.setblocking(False)
    return s


class Board:
    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.machine = recipe.machine(opts.lab)
        self.built = image.current()
        # QEMU's own logs live beside the state file, one pair per board process
        opts.state.parent.mkdir(parents=True, exist_ok=True)
        self.serial_log = opts.serial_log or opts.state.with_name(f"{opts.state.stem}.serial.log")
        self.qemu_log = opts.state.with_name(f"{opts.state.stem}.qemu.log")
        for log in (self.qemu_log, *([] if opts.serial_log else [self.serial_log])):
            log.write_bytes(b"")
        # the board's own disk: a fresh sparse copy of the built image, beside the state file
        self.disk: Path | None = None
        built_disk = self.built.folder / "disk.img"
        if self.machine.disk_mb and built_disk.exists():
            self.disk = opts.state.with_name(f"{opts.state.stem}.disk.img")
            subprocess.run(["cp", "--sparse=always", str(built_disk), str(self.disk)], check=True)
        self.sel = selectors.DefaultSelector()
        self.serial_server = _listen()
        self.control_server = _listen()
        self.sel.register(self.serial_server, selectors.EVENT_READ, "serial-accept")
        self.sel.register(self.control_server, selectors.EVENT_READ, "control-accept")
        self.ssh_port = launch.free_port()
        self.client: socket.socket | None = None
        self.qemu: subprocess.Popen | None = None
        self.qemu_conn: socket.socket | None = None
        self.watch = opts.watch_pid if opts.watch_pid is not None else os.getppid()
        self.running = True
        self.state = {
            "pid": os.getpid(),
            "board": opts.board,
            "lab": opts.lab,
            "kind": "qemu",
            "serial": f"socket://127.0.0.1:{self.serial_server.getsockname()[1]}",
            "ssh_port": self.ssh_port,
            "ssh_key": str(self.built.key),  # the image's root key (lab qemu.yaml: ssh.key "{state.ssh_key}")
            "control_port": self.control_server.getsockname()[1],
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "image": self.built.stamp,
            "serial_log": str(self.serial_log),
            "qemu_log": str(self.qemu_log),
            "power": "off",
            "qemu_pid": None,
            "powered_on": None,
            "event": None,
        }

    # -- state ------------------------------------------------------------------------------------------
    def save(self) -> None:
        tmp = self.opts.state.with_suffix(self.opts.state.suffix + ".tmp")
        tmp.write_text(json.dumps(self.state, indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.opts.state)

    def event(self, text: str) -> None:
        self.state["event"] = text
        print(f"perfgate qemu: {text}", file=sys.stderr, flush=True)

    # -- power ------------------------------------------------------------------------------------------
    def power_on(self) -> str:
        if self.qemu and self.qemu.poll() is None:
            return "already on"
        port = launch.free_port()
        cmd = launch.argv(
            self.machine,
            self.built.image(),
            serial_port=port,
            ssh_port=self.ssh_port,
            serial_log=self.serial_log,
            disk=self.disk,
        )
        with self.qemu_log.open("a", encoding="utf-8") as log:
            log.write(f"\n# {time.strftime('%H:%M:%S')} power on: {' '.join(cmd)}\n")
        self.qemu = launch.spawn(cmd, self.qemu_log)
        try:
            conn = launch.connect(port, self.qemu, 10.0, self.qemu_log)
        except launch.LaunchError:
            launch.stop(self.qemu)
            self.qemu = None
            raise
        conn.setblocking(False)
        self.qemu_conn = conn
        self.sel.register(conn, selectors.EVENT_READ, "qemu")
        self.state.update(power="on", qemu_pid=self.qemu.pid, powered_on=time.time(), event="power on")
        self.save()
        return "on"

    def power_off(self) -> str:
        self._drop_qemu_conn()
        status = launch.stop(self.qemu) if self.qemu else None
        self.qemu = None
        self.state.update(power="off", qemu_pid=None, event="power off")
        self.save()
        return "off" if status is None else f"off (QEMU exit status {status})"

    def _drop_qemu_conn(self) -> None:
        if self.qemu_conn:
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(self.qemu_conn)
            self.qemu_conn.close()
            self.qemu_conn = None

    def _drop_client(self) -> None:
        if self.client:
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(self.client)
            self.client.close()
            self.client = None

    def check_qemu(self) -> None:
        """QEMU stopped while the power was on: say so on the console and in the state file, drop the client."""
        if not self.qemu or self.qemu.poll() is None:
            return
        rc = self.qemu.returncode
        self._drain_qemu()
        self._drop_qemu_conn()
        self.qemu = None
        msg = f"QEMU exited with status {rc} while the board was powered on (see {self.qemu_log})"
        self.event(msg)
        self.state.update(power="off", qemu_pid=None, died={"status": rc, "at": time.time(), "message": msg})
        self.save()
        if self.client:
            self._hang_up(f"\r\nperfgate qemu: {msg}\r\n".encode())

    def _hang_up(self, last_words: bytes) -> None:
        """Say why, wait HANGUP_DELAY seconds (a reader whose read() spans the hang-up loses what came in the
        same call, as pyserial's socket:// does) while reading and dropping what the client still sends (closing
        with unread input would reset the connection, and a reset can discard what was said), then close."""
        assert self.client is not None
        with contextlib.suppress(OSError):
            self.client.setblocking(True)
            self.client.sendall(last_words)
            self.client.settimeout(0.1)
            deadline = time.monotonic() + HANGUP_DELAY
            while time.monotonic() < deadline:
                try:
                    if not self.client.recv(65536):
                        break
                except TimeoutError:
                    continue
            self.client.shutdown(socket.SHUT_RDWR)
        self._drop_client()

    def _drain_qemu(self) -> None:
        if not self.qemu_conn:
            return
        with contextlib.suppress(OSError):
            while data := self.qemu_conn.recv(65536):
                self._to_client(data)

    def _to_client(self, data: bytes) -> None:
        if not self.client:
            return
        try:
            self.client.setblocking(True)
            self.client.settimeout(5)
            self.client.sendall(data)
            self.client.setblocking(False)
        except OSError:
            self._drop_client()

    # -- the loop ---------------------------------------------------------------------------------------
    def handle(self, what: str, sock: socket.socket) -> None:
        if what == "serial-accept":
            conn, _ = sock.accept()
            self._drop_client()  # one console client at a time: the newest wins
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.client = conn
            self.sel.register(conn, selectors.EVENT_READ, "client")
        elif what == "client":
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                self._drop_client()
            elif self.qemu_conn:
                with contextlib.suppress(OSError):
                    self.qemu_conn.setblocking(True)
                    self.qemu_conn.sendall(data)
                    self.qemu_conn.setblocking(False)
        elif what == "qemu":
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if data:
                self._to_client(data)
            else:
                self._drop_qemu_conn()
                if self.qemu:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self.qemu.wait(2)
                self.check_qemu()
        elif what == "control-accept":
            conn, _ = sock.accept()
            with conn:
                conn.settimeout(5)
                try:
                    request = conn.makefile("r").readline().strip()
                    reply = self.control(request)
                except (OSError, PerfgateError) as e:
                    reply = f"error {e}"
                with contextlib.suppress(OSError):
                    conn.sendall((reply + "\n").encode())

    def control(self, request: str) -> str:
        if request == "on":
            return "ok " + self.power_on()
        if request == "off":
            return "ok " + self.power_off()
        if request == "cycle":
            self.power_off()
            time.sleep(0.2)
            return "ok " + self.power_on()
        if request == "status":
            return "ok " + json.dumps(self.state)
        return f"error unknown request {request!r} (on, off, cycle, status)"

    def serve(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._stop)
        self.save()
        print(json.dumps(self.state), flush=True)
        try:
            if self.opts.power == "on":
                self.power_on()
            while self.running:
                for key, _ in self.sel.select(TICK):
                    self.handle(key.data, key.fileobj)  # type: ignore[arg-type]
                self.check_qemu()
                if self.watch and not pid_alive(self.watch):
                    self.event(f"the process it serves ({self.watch}) ended: stopping")
                    break
        finally:
            self.shutdown()
        return 0

    def _stop(self, signum, frame) -> None:
        self.running = False

    def shutdown(self) -> None:
        if self.qemu:
            launch.stop(self.qemu)
            self.qemu = None
        self._drop_qemu_conn()
        self._drop_client()
        for s in (self.serial_server, self.control_server):
            s.close()
        if self.disk:
            self.disk.unlink(missing_ok=True)
        self.state.update(power="off", qemu_pid=None, stopped=time.time())
        with contextlib.suppress(OSError):
            self.save()


def serve(opts: Options) -> int:
    return Board(opts).serve()


# -- the other side: what the lab's commands and the gate call ------------------------------------------------
def read_state(path: str | Path) -> dict:
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoardError("no such state file: is the QEMU board running?", p) from None
    except json.JSONDecodeError as e:
        raise BoardError(f"not a board state file: {e}", p, e.lineno) from None


def alive(state: dict) -> bool:
    return "stopped" not in state and pid_alive(state.get("pid"))


def request(path: str | Path, what: str, timeout: float = 60.0) -> str:
    state = read_state(path)
    if not alive(state):
        raise BoardError("the QEMU board process is not running", path)
    try:
        with socket.create_connection(("127.0.0.1", state["control_port"]), timeout=timeout) as s:
            s.sendall(what.encode() + b"\n")
            reply = s.makefile("r").readline().strip()
    except OSError as e:
        raise BoardError(f"cannot reach the QEMU board's control port: {e}", path) from None
    if not reply.startswith("ok"):
        raise BoardError(f"power {what}: {reply or 'no answer'}", path)
    return reply[3:]


def power(path: str | Path, switch: str) -> str:
    if switch not in ("on", "off", "cycle"):
        raise BoardError(f"power switch {switch!r}: use on, off or cycle")
    return request(path, switch)


def start(opts: Options, timeout: float = 30.0) -> dict:
    """Start the board process in the background; returns its state once it listens."""
    opts.state.unlink(missing_ok=True)
    watch = opts.watch_pid if opts.watch_pid is not None else os.getppid()
    cmd = [
        sys.executable, "-m", "perfgate", "qemu", "serve", "--board", opts.board, "--lab", opts.lab,
        "--state", str(opts.state), "--power", opts.power, "--watch-pid", str(watch),
    ]  # fmt: skip
    if opts.serial_log:
        cmd += ["--serial-log", str(opts.serial_log)]
    log = opts.state.with_suffix(".log")
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BoardError(f"the QEMU board process exited with {proc.returncode}; see its log", log)
        if opts.state.exists():
            with contextlib.suppress(BoardError):
                state = read_state(opts.state)
                if opts.power == "off" or state.get("power") == "on":
                    return state
        time.sleep(0.1)
    proc.terminate()
    raise BoardError(f"the QEMU board process did not come up in {timeout:g} s; see its log", log)


def stop(path: str | Path, timeout: float = 15.0) -> int:
    state = read_state(path)
    pid = state.get("pid")
    if not alive(state):
        return 0
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return 0
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    return 1
