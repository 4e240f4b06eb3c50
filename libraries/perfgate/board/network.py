"""The network driver: where the board and the tester are, and the SSH connection between them.

The board's address is the lab's `ssh.address`, or read from the board's console (the shell driver's address
command) once per boot and then reused; a power-cycle forgets it (DHCP may give another one). The tester's address
(the network peer the workloads point the board at) is the lab's `tester.address`, or for `host` this host's address
on the connection that reaches the board. It knows nothing of states or power: the strategy asks it for the address
and the SSH connection when the board reaches its shell, and tells it to forget them when the power goes.
"""

from __future__ import annotations

import os
import socket

from perfgate.board.errors import BringUpError
from perfgate.board.labfile import Lab, expand
from perfgate.board.shell import ShellDriver
from perfgate.board.ssh import SshDriver, SshShell


class NetworkDriver:
    """The board's and the tester's addresses, and the board's SSH connection (`ssh`, an SshDriver)."""

    def __init__(self, lab: Lab, context: dict, shell: ShellDriver, ssh: SshDriver, timeout: float) -> None:
        self.lab, self.context, self.shell, self.ssh, self.timeout = lab, context, shell, ssh, timeout
        self.address: str | None = None

    def _ssh_settings(self) -> dict:
        ssh = self.lab.data.get("ssh")
        return ssh if isinstance(ssh, dict) else {}  # `ssh: none`: a console-only lab

    def forget(self) -> None:
        """The board goes down: close SSH and forget its address."""
        self.ssh.close()
        self.address = None

    def learn_address(self, refresh: bool = False) -> str:
        """The board's address: the lab's ssh.address, or read from the console once per boot and then reused."""
        configured = str(self._ssh_settings().get("address", "discover"))
        if configured != "discover":
            self.address = expand(configured, self.context)
            return self.address
        if self.address and not refresh:
            return self.address
        found, out = self.shell.addresses(self.timeout, loopback_ok=self.lab.virtual)
        if not found:
            raise BringUpError(f"the board reports no IPv4 address on its console "
                               f"(`{self.shell.traits.address_command}` printed {out.strip()[:300]!r}): is the "
                               "network up?")  # fmt: skip
        self.address = found[0]
        return self.address

    def open_ssh(self) -> SshShell:
        if not self.address:
            self.learn_address()
        assert self.address
        self.ssh.password = self.shell.password  # read when used: the environment may change
        return self.ssh.open(self.address)

    def tester_address(self) -> str:
        """The network peer (this host) as the board sees it: the lab's tester.address, or for `host` the local
        address of the gate's SSH connection to the board (the interface that reaches it)."""
        configured = str((self.lab.data.get("tester") or {}).get("address", "host"))
        if configured != "host":
            return expand(configured, self.context)
        if os.environ.get("PERFGATE_TESTER"):
            return os.environ["PERFGATE_TESTER"]
        local = self.ssh.local_address()
        if local:
            return local
        if self.address:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((self.address, 9))  # no packet is sent: only the route is looked up
                return str(s.getsockname()[0])
        raise BringUpError("the tester address is `host` but the board's address is not known yet")
