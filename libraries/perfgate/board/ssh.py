"""The SSH driver: commands on the board's Linux over SSH (paramiko), stdout and stderr together, with a timeout.
It knows nothing of consoles or power: the strategy gives it the address (the lab's, or the one the shell driver
read on the console) and reopens it after a reboot."""

from __future__ import annotations

import socket
import time

import paramiko

from perfgate.board.shell import CommandTimeout, ConnectionDropped


class SshShell:
    """One SSH connection; `run` opens a channel per command (exec), stdout+stderr combined."""

    def __init__(self, host: str, port: int, user: str, password: str | None = None,
                 key_file: str | None = None, timeout: float = 30.0) -> None:  # fmt: skip
        self.host, self.port, self.user = host, int(port), user
        self.password, self.key_file, self.timeout = password, key_file, timeout
        self.transport: paramiko.Transport | None = None

    def __str__(self) -> str:
        return f"ssh {self.user}@{self.host}:{self.port}"

    def connect(self, retry_for: float | None = None) -> None:
        """Connect and authenticate (none, key, password: what the board accepts), retrying while sshd starts."""
        deadline = time.monotonic() + (self.timeout if retry_for is None else retry_for)
        last: Exception | None = None
        while True:
            try:
                self._connect_once()
                return
            except (OSError, paramiko.SSHException, EOFError) as e:
                last = e
                self.close()
            if time.monotonic() >= deadline:
                raise ConnectionDropped(f"cannot open {self} within {self.timeout:g} s: {last}")
            time.sleep(0.3)

    def _connect_once(self) -> None:
        sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        t = paramiko.Transport(sock)
        t.banner_timeout = self.timeout
        t.auth_timeout = self.timeout
        t.start_client(timeout=self.timeout)
        if not t.is_authenticated():
            try:
                t.auth_none(self.user)
            except paramiko.BadAuthenticationType as e:
                if self.key_file and "publickey" in e.allowed_types:
                    t.auth_publickey(self.user, paramiko.PKey.from_path(self.key_file))
                elif "password" in e.allowed_types:
                    t.auth_password(self.user, self.password or "")
                else:
                    raise
        t.set_keepalive(5)
        self.transport = t

    @property
    def connected(self) -> bool:
        return self.transport is not None and self.transport.is_active()

    def close(self) -> None:
        if self.transport:
            self.transport.close()
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
    """The board's SSH connection: where (address, port), who (user, password or key), and the open SshShell."""

    def __init__(self, port: int, user: str, password: str = "", key_file: str | None = None,
                 timeout: float = 30.0) -> None:  # fmt: skip
        self.port, self.user, self.password, self.key_file, self.timeout = port, user, password, key_file, timeout
        self.shell: SshShell | None = None

    @property
    def connected(self) -> bool:
        return self.shell is not None and self.shell.connected

    def open(self, address: str) -> SshShell:
        self.close()
        shell = SshShell(address, self.port, self.user, self.password, key_file=self.key_file, timeout=self.timeout)
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
