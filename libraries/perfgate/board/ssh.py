"""The SSH driver: the board's SSH session is an SSHLibrary connection with the alias `board` (a user suite can
`Switch Connection  board` and use SSHLibrary's keywords on it); the gate runs its own commands on that connection's
transport with a bound on every wait (connect, session open, output, exit status) and stdout and stderr together.

Host keys are checked against the lab's known-hosts file with its policy (`ssh.host_keys`, like OpenSSH's
StrictHostKeyChecking): `accept-new` (default: a host seen for the first time is added, a changed key is refused),
`strict` (only hosts already in the file), `off` (no check, said in the log). Virtual labs keep their keys for the
run only (their boards make a new key when they start).

It knows nothing of consoles or power: the strategy gives it the address (the lab's, or the one the shell driver
read on the console once) and reopens it after a reboot."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paramiko

from perfgate.board.labfile import Lab, expand
from perfgate.board.shell import CommandTimeout, ConnectionDropped

ALIAS = "board"


class HostKeyRejected(AssertionError):
    """The board's SSH host key is not the one the lab knows (or unknown under `strict`)."""


def fingerprint(key: paramiko.PKey) -> str:
    digest = base64.b64encode(hashlib.sha256(key.asbytes()).digest()).decode().rstrip("=")
    return f"{key.get_name()} SHA256:{digest}"


class HostKeys(paramiko.MissingHostKeyPolicy):
    """The lab's known-hosts policy. The SSH client is given no known hosts of its own, so paramiko asks this
    policy about every key, and the whole check is here (SSHLibrary would otherwise accept any key)."""

    def __init__(self, policy: str = "accept-new", path: Path | None = None,
                 log: Callable[[str], None] = print) -> None:  # fmt: skip
        self.policy, self.path, self.log = policy, path, log
        self.known = paramiko.HostKeys()
        if path and path.exists():
            self.known.load(str(path))
        self.problem: str | None = None
        self.said = False

    def where(self) -> str:
        return str(self.path) if self.path else "this run's memory (a virtual board makes a new key when it starts)"

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey) -> None:
        if not self.said:
            self.log(f"SSH host keys: policy {self.policy} (lab ssh.host_keys), known hosts in {self.where()}")
            self.said = True
        if self.policy == "off":
            self.log(f"SSH host key of {hostname} not checked (host_keys: off): {fingerprint(key)}")
            return
        entry = self.known.lookup(hostname)
        if entry is not None and key.get_name() in entry:
            if entry[key.get_name()] == key:
                return
            self.problem = (f"the SSH host key of {hostname} changed: it offers {fingerprint(key)}, the lab's "
                            f"known hosts ({self.where()}) have {fingerprint(entry[key.get_name()])}; if the board "
                            "was reinstalled, remove its line there")  # fmt: skip
            raise HostKeyRejected(self.problem)
        if entry is not None or self.policy == "strict":
            self.problem = (f"the SSH host key of {hostname} ({fingerprint(key)}) is not in the lab's known hosts "
                            f"({self.where()}) and the lab's policy is {self.policy}")  # fmt: skip
            raise HostKeyRejected(self.problem)
        self.known.add(hostname, key.get_name(), key)
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.known.save(str(self.path))
        self.log(f"SSH host key of {hostname} accepted on first use (host_keys: accept-new): {fingerprint(key)}, "
                 f"kept in {self.where()}")  # fmt: skip


def ssh_library() -> Any:
    """The run's SSHLibrary instance (GLOBAL scope: the one a user suite's `Library  SSHLibrary` gets), or a private
    one outside a Robot run."""
    try:
        from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError

        try:
            return BuiltIn().get_library_instance("SSHLibrary")
        except RobotNotRunningError:
            pass
    except Exception:  # not imported in this Robot namespace: a private instance
        pass
    from SSHLibrary import SSHLibrary

    return SSHLibrary()


class SshShell:
    """One SSHLibrary connection (alias `board`); `run` opens a channel per command (exec), stdout+stderr combined."""

    def __init__(self, host: str, port: int, user: str, password: str | None = None,
                 key_file: str | None = None, timeout: float = 30.0, library: Any = None,
                 host_keys: HostKeys | None = None) -> None:  # fmt: skip
        self.host, self.port, self.user = host, int(port), user
        self.password, self.key_file, self.timeout = password, key_file, timeout
        self.library = library if library is not None else ssh_library()
        self.host_keys = host_keys or HostKeys()
        self.connection: Any = None  # SSHLibrary's client object
        self.transport: paramiko.Transport | None = None

    def __str__(self) -> str:
        return f"ssh {self.user}@{self.host}:{self.port} (SSHLibrary connection {ALIAS!r})"

    def connect(self, retry_for: float | None = None) -> None:
        """Open the connection and log in (key, password or none: SSHLibrary's login), retrying while sshd starts;
        a host key the lab refuses ends it at once."""
        deadline = time.monotonic() + (self.timeout if retry_for is None else retry_for)
        last: Exception | None = None
        while True:
            try:
                self._connect_once()
                return
            except HostKeyRejected:
                self.close()
                raise
            except Exception as e:  # SSHLibrary raises RuntimeError/SSHClientException; paramiko its own; OSError
                if self.host_keys.problem:
                    self.close()
                    raise HostKeyRejected(self.host_keys.problem) from None
                last = e
                self.close()
            if time.monotonic() >= deadline:
                raise ConnectionDropped(f"cannot open {self} within {self.timeout:g} s: {last}")
            time.sleep(0.3)

    def _connect_once(self) -> None:
        """Register the connection in SSHLibrary (alias `board`) and authenticate its paramiko client: the lab's
        key, else the password (empty for a TI SDK root), else `none`. SSHLibrary's own `Login` is not used: with
        an empty password it sends `none` after a password login that already succeeded, which servers that ignore
        requests after success never answer (the simulated board's asyncssh, OpenSSH)."""
        lib = self.library
        self.host_keys.problem = None
        lib.open_connection(self.host, alias=ALIAS, port=self.port, timeout=f"{self.timeout:g} seconds")
        self.connection = lib.current
        client: paramiko.SSHClient = self.connection.client
        client.set_missing_host_key_policy(self.host_keys)
        try:
            client.connect(self.host, self.port, self.user, password=self.password or "", key_filename=self.key_file,
                           look_for_keys=False, allow_agent=False, timeout=self.timeout,
                           banner_timeout=self.timeout, auth_timeout=self.timeout)  # fmt: skip
        except paramiko.AuthenticationException:
            transport = client.get_transport()
            if transport is None or not transport.is_active():
                raise
            transport.auth_none(self.user)  # a board user without a password and a server that wants `none`
        if self.host_keys.problem:
            raise HostKeyRejected(self.host_keys.problem)
        transport = client.get_transport()
        if transport is None or not transport.is_authenticated():
            raise ConnectionDropped(f"{self}: not authenticated")
        transport.set_keepalive(5)
        self.transport = transport

    @property
    def connected(self) -> bool:
        return self.transport is not None and self.transport.is_active()

    def close(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(Exception):  # closing a half-open connection
                self.connection.close()
        self.connection = None
        self.transport = None

    def run(self, command: str, timeout: float) -> tuple[str, int]:
        if not self.connected:
            self.connect()
        assert self.transport is not None
        try:
            chan = self.transport.open_session(timeout=self.timeout)
        except (paramiko.SSHException, OSError, EOFError) as e:
            self.close()
            raise ConnectionDropped(f"{self}: cannot open a session for `{command}`: {e}") from None
        chan.set_combine_stderr(True)
        chan.settimeout(0.5)
        chan.exec_command(command)
        out = bytearray()
        deadline = time.monotonic() + timeout
        while True:
            try:
                data = chan.recv(65536)
            except TimeoutError:
                data = None
            except (OSError, paramiko.SSHException, EOFError) as e:
                self.close()
                raise ConnectionDropped(
                    f"{self}: the connection dropped during `{command}` after {len(out)} bytes: {e}"
                ) from None
            if data:
                out += data
            elif data == b"":  # EOF
                break
            if time.monotonic() > deadline:
                chan.close()
                raise CommandTimeout(f"`{command}` did not finish within {timeout:g} s over {self}; "
                                     f"last output: {bytes(out[-300:]).decode(errors='replace')!r}")  # fmt: skip
        deadline = time.monotonic() + 5
        while not chan.exit_status_ready() and time.monotonic() < deadline and self.connected:
            time.sleep(0.02)
        status = chan.recv_exit_status() if chan.exit_status_ready() else -1
        if status == -1:  # paramiko's value for a channel closed without an exit status
            self.close()
            raise ConnectionDropped(
                f"{self}: the SSH session dropped during `{command}`: closed without an exit status after "
                f"{len(out)} bytes of output"
            )
        chan.close()
        return out.decode("utf-8", errors="replace"), status


class SshDriver:
    """The board's SSH connection: where (address, port), who (user, password or key), the host-key policy, and the
    open SshShell."""

    def __init__(self, port: int, user: str, password: str = "", key_file: str | None = None,
                 timeout: float = 30.0, host_keys: HostKeys | None = None, library: Any = None) -> None:  # fmt: skip
        self.port, self.user, self.password, self.key_file, self.timeout = port, user, password, key_file, timeout
        self.host_keys = host_keys or HostKeys()
        self.library = library
        self.shell: SshShell | None = None

    @classmethod
    def from_lab(cls, lab: Lab, context: dict, user: str, password: str, timeout: float,
                 log: Callable[[str], None] = print, library: Any = None) -> SshDriver:  # fmt: skip
        """The lab's `ssh`: port (a number, `discover` or `{state.ssh_port}`), key (relative to the lab file's folder),
        host_keys and known_hosts (else for a hardware lab ~/.config/perfgate/known_hosts.<lab>; a virtual lab's
        boards make new keys when they start: kept for the run only)."""
        ssh = lab.data.get("ssh") if isinstance(lab.data.get("ssh"), dict) else {}
        port = ssh.get("port", 22)
        if port == "discover":
            port = (context.get("state_data") or {}).get("ssh_port", 22)
        key = lab.file(expand(str(ssh["key"]), context)) if ssh.get("key") else None
        known = ssh.get("known_hosts")
        path: Path | None = None
        if known:
            path = lab.file(str(known))
        elif not lab.virtual:
            path = Path.home() / ".config" / "perfgate" / f"known_hosts.{lab.name}"
        host_keys = HostKeys(str(ssh.get("host_keys") or "accept-new"), path, log=log)
        return cls(int(expand(str(port), context)), user, password, key_file=str(key) if key else None,
                   timeout=timeout, host_keys=host_keys, library=library)  # fmt: skip

    @property
    def connected(self) -> bool:
        return self.shell is not None and self.shell.connected

    def open(self, address: str) -> SshShell:
        self.close()
        if self.library is None:
            self.library = ssh_library()
        shell = SshShell(address, self.port, self.user, self.password, key_file=self.key_file, timeout=self.timeout,
                         library=self.library, host_keys=self.host_keys)  # fmt: skip
        shell.connect()
        self.shell = shell
        return shell

    def close(self) -> None:
        if self.shell:
            self.shell.close()
        self.shell = None

    def run(self, command: str, timeout: float) -> tuple[str, int]:
        if self.shell is None:
            raise ConnectionDropped("no SSH connection to the board")
        return self.shell.run(command, timeout)

    def local_address(self) -> str | None:
        """This host's address on the connection (the interface that reaches the board)."""
        if self.shell and self.shell.connected and self.shell.transport is not None:
            return str(self.shell.transport.sock.getsockname()[0])
        return None
