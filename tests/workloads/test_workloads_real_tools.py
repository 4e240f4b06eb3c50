"""The network, storage and crypto workloads' commands run for real on this host (the "board" and the tester are
both this machine): openssl speed under GNU time, fio on a scratch directory, iperf3 client and server on
127.0.0.1 (netperf is not installed here, so the suite must fall back to iperf3 by itself). The numbers say
nothing about a TI board; what is checked is that TI's commands run as written and the parsers read what the real
tools print."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from perfgate import boards, criteria
from perfgate.errors import ToolMissing
from perfgate.workloads import emmc, ethernet, openssl
from seed_releases import seed

pytestmark = pytest.mark.slow


@dataclass
class LocalContext:
    """Runs every command with sh on this host; exit status 127 is a missing tool, as on a board."""

    board: str
    profile: dict
    lab: dict
    duration: int = 1
    repeat: int = 1
    virtual: bool = False
    last_evidence: str = ""
    commands: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        self.commands.append((where, command))
        p = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=timeout, check=False)
        text = p.stdout + p.stderr
        if p.returncode == 127:
            raise ToolMissing(f"`{command.split()[0]}` is not here ({text.strip() or 'exit status 127'})")
        self.last_evidence = label
        return text

    def tester(self) -> str:
        return "127.0.0.1"

    def note(self, message: str) -> None:
        self.notes.append(message)


def lab(**extra: object) -> dict:
    return {"name": "localhost", "kind": "hardware", "virtual": False, "has": ["ethernet", "emmc", "crypto"],
            "tester": {"address": "127.0.0.1"}, "ssh": {"address": "127.0.0.1"}, **extra}  # fmt: skip


@pytest.mark.skipif(not shutil.which("openssl") or not Path("/usr/bin/time").exists(), reason="needs openssl, time")
def test_openssl_speed_under_gnu_time() -> None:
    crits = [
        c
        for c in criteria.load("j721e_idk_gw", "openssl", release=seed("j721e_idk_gw"))
        if c.row.startswith("aes-128-cbc")
    ]
    ctx = LocalContext("j721e_idk_gw", boards.profile("j721e_idk_gw"), lab(kind="qemu"))  # qemu: -seconds 1
    m = openssl.WORKLOAD.measure(crits, ctx)
    assert set(m.values) == {c.id for c in crits}, m.missing
    assert all(v > 0 for v in m.values.values())
    assert [cmd for _, cmd in ctx.commands] == ["/usr/bin/time -v openssl speed -elapsed -seconds 1 -evp aes-128-cbc"]


@pytest.mark.skipif(not shutil.which("fio"), reason="needs fio")
def test_fio_write_read_remove_on_a_named_directory(tmp_path: Path) -> None:
    crits = [c for c in criteria.load("am62xx_sk", "emmc", release=seed("am62xx_sk")) if c.row == "4k"]
    ctx = LocalContext("am62xx_sk", boards.profile("am62xx_sk"),
                       lab(storage={"emmc": str(tmp_path)}, workloads={"emmc": {"size": "16M"}}))  # fmt: skip
    m = emmc.WORKLOAD.measure(crits, ctx)
    assert set(m.values) == {c.id for c in crits}, m.missing
    assert all(v > 0 for v in m.values.values())
    assert list(tmp_path.iterdir()) == []  # the test file is removed


@pytest.mark.skipif(not shutil.which("iperf3"), reason="needs iperf3")
def test_ethernet_falls_back_to_iperf3_on_loopback() -> None:
    board = "am64xx_evm"
    wanted = ("CPSW TCP Bidirectional Throughput", "CPSW UDP Egress Throughput (possible loss)",
              "CPSW UDP Ingress Throughput (possible loss)")  # fmt: skip
    crits = [
        c
        for c in criteria.load(board, "ethernet", release=seed(board))
        if c.table in wanted and c.row in ("Default", "1518")
    ]
    settings = {"ethernet": {"iperf3": {"port": 5291}}}
    ctx = LocalContext(board, boards.profile(board), lab(workloads=settings))
    m = ethernet.WORKLOAD.measure(crits, ctx)
    assert set(m.values) == {c.id for c in crits}, (m.missing, m.unavailable, ctx.notes)
    assert set(m.tools.values()) == {"iperf3"}
    assert any("netperf cannot be used" in n for n in ctx.notes)
    host = [cmd for where, cmd in ctx.commands if where == "host"]
    assert "command -v netserver" in host  # the tester was asked first, and has none
    assert any(c.startswith("iperf3 -s -D -p 5291 -I /tmp/perfgate-iperf3-5291.pid") for c in host)
    assert host[-1].startswith("kill $(cat /tmp/perfgate-iperf3-5291.pid)")  # the server it started is stopped
    assert not Path("/tmp/perfgate-iperf3-5291.pid").exists()
