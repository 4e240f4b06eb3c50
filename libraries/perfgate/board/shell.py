"""Running a command on the board's Linux: over SSH (paramiko), or over the serial console when the board has no
network. Both return (output, exit status) with stdout and stderr together, and fail with a clear message on a
timeout (CommandTimeout, an AssertionError) or a lost connection (ConnectionDropped: BoardLost and AssertionError).
"""

from __future__ import annotations

import itertools
import re
import socket
import time

import paramiko

from perfgate.board.console import Console, ConsoleTimeout
from perfgate.board.text import without_kernel_messages
from perfgate.errors import BoardLost


class CommandTimeout(AssertionError):
    """A command on the board did not finish in time."""


class ConnectionDropped(BoardLost, AssertionError):
    """The SSH session or the console went away while a command ran."""


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


class ConsoleShell:
    """Commands typed on the serial console. The end is a marker the shell prints with the exit status
    (`echo PG""END-n $?`: the typed text never matches it), so kernel messages in the middle of the output or of
    the prompt do not matter; they are taken out of the returned output (they stay in the transcript)."""

    _ids = itertools.count(1)

    def __init__(self, console: Console) -> None:
        self.console = console

    def __str__(self) -> str:
        return f"the serial console {self.console.port}"

    def run(self, command: str, timeout: float) -> tuple[str, int]:
        n = next(self._ids)
        marker = re.compile(rf"PGEND-{n}-(\d+)")
        since = self.console.sendline(f'{command}; echo PG""END-{n}-$?')
        try:
            m = self.console.expect(marker, timeout, what=f"the end of `{command}`", since=since)
        except ConsoleTimeout:
            self.console.write("\x03")  # Ctrl-C: give the shell back
            raise CommandTimeout(f"`{command}` did not finish within {timeout:g} s on {self}") from None
        text = self.console.text(since, m.start)
        first = text.find("\n")  # the echo of what was typed
        output = text[first + 1 :] if first >= 0 else ""
        return without_kernel_messages(output).strip("\n") + "\n", int(m.group(1))

    def ready(self, timeout: float) -> None:
        """The shell answers (after login, after a reboot into init=/bin/sh...)."""
        n = next(self._ids)
        since = self.console.sendline(f'echo PG""READY-{n}')
        self.console.expect(f"PGREADY-{n}", timeout, what="a shell answering `echo`", since=since)
