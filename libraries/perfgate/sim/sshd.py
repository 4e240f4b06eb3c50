"""The board's SSH server: asyncssh on 127.0.0.1, up only while the board's Linux has its network up
(otherwise the port refuses connections, as a board without sshd does). The board's user logs in with no
password, any password or any key; every exec'd command and the interactive shell go to perfgate.sim.shell."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import asyncssh

from perfgate.sim.shell import Board, Dropped, Exit, PowerOff, Reboot, Session, Sink


def host_key(directory: Path) -> asyncssh.SSHKey:
    """An ed25519 host key generated once and cached (so clients see the same host each run)."""
    path = directory / "ssh_host_ed25519_key"
    if path.exists():
        with contextlib.suppress(Exception):
            return asyncssh.read_private_key(str(path))
    directory.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # boards started in parallel (pabot) race here
    key.write_private_key(str(tmp))
    tmp.chmod(0o600)
    tmp.replace(path)
    return key


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SshServer:
    def __init__(self, board: Board, key: asyncssh.SSHKey, on_reboot: Callable[[], None],
                 on_poweroff: Callable[[], None], port: int = 0) -> None:  # fmt: skip
        self.board = board
        self.key = key
        self.port = port or free_port()
        self.on_reboot = on_reboot
        self.on_poweroff = on_poweroff
        self._server: asyncssh.SSHAcceptor | None = None
        self._conns: set[asyncssh.SSHServerConnection] = set()

    @property
    def up(self) -> bool:
        return self._server is not None

    async def start(self) -> None:
        """Listen (the network came up)."""
        if self._server is not None:
            return
        for _ in range(20):
            try:
                self._server = await asyncssh.create_server(
                    self._make_server, "127.0.0.1", self.port, server_host_keys=[self.key],
                    process_factory=self._process, reuse_address=True, keepalive_interval=0,
                )  # fmt: skip
                return
            except OSError as e:  # the port is briefly busy after a stop: try again shortly
                last = e
                await asyncio.sleep(0.05)
        print(f"perfgate sim: cannot listen on 127.0.0.1:{self.port} for SSH: {last}", file=sys.stderr)

    async def stop(self) -> None:
        """The network went down (power off, reset, panic): refuse new connections, drop the open ones."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1)
            self._server = None
        for conn in list(self._conns):
            conn.abort()
        self._conns.clear()

    def _make_server(self) -> asyncssh.SSHServer:
        return _Auth(self, str(self.board.data.linux["user"]))

    async def _process(self, process: asyncssh.SSHServerProcess) -> None:
        conn = process.get_extra_info("connection")

        async def write(text: str, err: bool) -> None:
            stream = process.stderr if err else process.stdout
            stream.write(text)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(stream.drain(), 30)

        sink = Sink(write, "ssh", drop=conn.abort if conn else None)
        status = 0
        try:
            if process.command is not None:
                status = await Session(self.board, sink).run(process.command)
            else:
                await self._interactive(process, sink)
        except Reboot:
            process.exit(0)
            self.on_reboot()
            return
        except PowerOff:
            process.exit(0)
            self.on_poweroff()
            return
        except Exit as e:
            status = e.code
        except Dropped:
            return
        except (asyncssh.Error, BrokenPipeError, ConnectionError):
            return
        with contextlib.suppress(Exception):
            process.exit(status)

    async def _interactive(self, process: asyncssh.SSHServerProcess, sink: Sink) -> None:
        session = Session(self.board, sink, interactive=True)
        prompt = str(self.board.data.linux["prompt"])
        while True:
            process.stdout.write(prompt)
            try:
                line = await process.stdin.readline()
            except asyncssh.BreakReceived:
                process.stdout.write("^C\n")
                continue
            except (asyncssh.TerminalSizeChanged, asyncssh.SignalReceived):
                continue
            if not line:
                process.stdout.write("logout\n")
                return
            try:
                await session.run(line.rstrip("\r\n"))
            except Exit:
                return


class _Auth(asyncssh.SSHServer):
    """The board's user needs no password (a TI SDK root); any password or key is accepted too."""

    def __init__(self, server: SshServer, user: str) -> None:
        self.server = server
        self.user = user
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.server._conns.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.server._conns.discard(self.conn)

    def begin_auth(self, username: str) -> bool:
        return username != self.user  # False: no authentication needed

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        return username == self.user

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return username == self.user
