"""The gate's SSH session is an SSHLibrary connection: a user's suite tree brings the simulated board up with the
gate's keywords, then uses SSHLibrary keywords on the connection `board` and types on the console through the
documented console keywords (tests/robot/user_suite). And the SSH driver's host-key policy against a real SSH
server (the simulated board's asyncssh server on 127.0.0.1)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from testpaths import ROOT


@pytest.mark.slow
def test_user_suite_uses_sshlibrary_on_the_gate_connection(tmp_path):
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path), "--console", "dotted",
            str(ROOT / "tests" / "robot" / "user_suite")]  # fmt: skip
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    result = ExecutionResult(str(tmp_path / "output.xml"))
    tests = {t.name: (t.status, t.message) for t in result.suite.all_tests}
    assert len(tests) == 2, p.stdout + p.stderr
    for name, (status, message) in tests.items():
        assert status == "PASS", f"{name}: {message}\n{p.stdout[-2000:]}"
    assert p.returncode == 0
    log = (tmp_path / "output.xml").read_text(encoding="utf-8")
    assert "SSH host keys: policy accept-new" in log and "accepted on first use" in log


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    """The simulated board's real SSH server (asyncssh) on 127.0.0.1, powered on and logged in on its console."""
    from test_sim_support import Sim

    s = Sim(tmp_path_factory.mktemp("sim"), "am62xx_sk", "--seed", "1")
    try:
        s.power("cycle")
        s.login()
        yield int(s.state["ssh_port"])
    finally:
        s.stop()


def shell(port: int, policy: str, known: Path | None, said: list[str]):
    from SSHLibrary import SSHLibrary

    from perfgate.board.ssh import HostKeys, SshShell

    keys = HostKeys(policy, known, log=said.append)
    return SshShell("127.0.0.1", port, "root", "", timeout=5, library=SSHLibrary(), host_keys=keys)


@pytest.mark.slow
def test_host_key_policies_against_a_real_ssh_server(sshd, tmp_path):
    from perfgate.board.ssh import HostKeyRejected

    known = tmp_path / "known_hosts"
    said: list[str] = []
    with pytest.raises(HostKeyRejected, match=r"not in the lab's known hosts .* policy is strict"):
        shell(sshd, "strict", known, said).connect()
    assert not known.exists()

    first = shell(sshd, "accept-new", known, said)
    first.connect()  # first use: accepted, written, said
    assert f"[127.0.0.1]:{sshd}" in known.read_text() and any("accepted on first use" in m for m in said)
    assert first.run("echo hi", 5) == ("hi\n", 0)
    first.close()
    shell(sshd, "strict", known, said).connect()  # now known: strict accepts it

    host, kind, key = known.read_text().split()[:3]
    other = "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"  # another ed25519 key
    known.write_text(
        f"{host} ssh-ed25519 {other}\n" if kind == "ssh-ed25519" else f"{host} {kind} {key[:-8]}AAAAAAA=\n"
    )
    with pytest.raises(HostKeyRejected, match="changed"):
        shell(sshd, "accept-new", known, said).connect()

    off = shell(sshd, "off", known, said)
    off.connect()
    assert any("not checked (host_keys: off)" in m for m in said)
    off.close()


@pytest.mark.slow
def test_ssh_exec_is_bounded(sshd):
    from perfgate.board.shell import CommandTimeout

    s = shell(sshd, "off", None, [])
    s.connect()
    t0 = time.monotonic()
    with pytest.raises(CommandTimeout, match="did not finish within 1 s"):
        s.run("sleep 600", 1)
    assert time.monotonic() - t0 < 4
    s.close()
