"""Network workloads (ethernet, pcie_eth, usb_eth, ipsec) on the boards' imported criteria, answered the way the
simulated board answers (tests/workload_harness.py: the suite's expected() + the tool's render()), parsed by the
real parsers."""

from __future__ import annotations

import shutil

import pytest

from perfgate import criteria
from perfgate.sim import workloads as sim_workloads
from perfgate.tools.common import THROUGHPUT
from perfgate.workloads import ethernet, ipsec, network, pcie_eth, usb_eth
from seed_releases import seed
from workload_harness import SIM_LAB, FakeContext, context

BOARDS = ["am43xx_gpevm", "am574x_idk", "am62xx_lp_sk", "am62xx_sk", "am62xxsip_sk", "am64xx_evm", "j7200_evm",
          "j721e_idk_gw", "j721s2_evm", "j784s4_evm"]  # fmt: skip
WORKLOADS = {"ethernet": ethernet.WORKLOAD, "pcie_eth": pcie_eth.WORKLOAD, "usb_eth": usb_eth.WORKLOAD,
             "ipsec": ipsec.WORKLOAD}  # fmt: skip
CASES = [(b, s) for b in BOARDS for s in WORKLOADS if criteria.load(b, s, release=seed(b))]


def within(measured: float, published: float, rel: float = 0.10) -> bool:
    return abs(measured - published) <= rel * max(abs(published), 1.0)


def test_every_board_has_network_criteria_to_run() -> None:
    assert len(CASES) >= 10
    assert sum(len(criteria.load(b, s, release=seed(b))) for b, s in CASES) > 300


@pytest.mark.parametrize(("board", "suite"), CASES)
def test_every_criterion_measured_near_its_published_value(board: str, suite: str) -> None:
    wl = WORKLOADS[suite]
    ctx = context(wl, board, suite)
    assert wl.applicable(ctx.criteria, ctx.profile, ctx.lab) is None
    m = wl.measure(ctx.criteria, ctx)
    for c in ctx.criteria:
        assert c.id in m.values, (c.name, m.missing.get(c.id), m.unavailable.get(c.id))
        assert within(m.values[c.id], c.value), (c.name, c.value, m.values[c.id])
        assert m.tools[c.id] in ("netperf", "iperf", "iperf3")
        assert m.evidence[c.id]


def test_ethernet_uses_netperf_and_the_rfc2544_search() -> None:
    ctx = context(ethernet.WORKLOAD, "j721e_idk_gw", "ethernet")
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    assert set(m.tools.values()) == {"netperf"}
    searches = [n for n in ctx.notes if "RFC 2544 search" in n]
    assert len(searches) == 10  # 5 frame sizes, egress and ingress
    assert all("converged" in n and "NOT" not in n for n in searches)
    limited = [cmd for _, cmd in ctx.commands if " -b " in cmd and "UDP_STREAM" in cmd]
    assert len(limited) >= 10 * 2  # each search tries several rates
    ingress = [(where, cmd) for where, cmd in ctx.commands if " -C " in cmd]
    assert ingress and all(where == "shell" for where, _ in ingress)  # sim lab: the simulator is the tester
    paced = [cmd for _, cmd in ctx.commands if "rx-usecs 100" in cmd]
    assert len(paced) == 1 and "TCP_MAERTS" in paced[0]


def test_zero_loss_search_finds_a_degraded_capacity() -> None:
    base = context(ethernet.WORKLOAD, "am64xx_evm", "ethernet")
    slow = context(ethernet.WORKLOAD, "am64xx_evm", "ethernet", scale={"throughput (Mbits/sec)": 0.7})
    a = ethernet.WORKLOAD.measure(base.criteria, base)
    b = ethernet.WORKLOAD.measure(slow.criteria, slow)
    zero = [c for c in base.criteria if "0% loss" in c.table and "Throughput" in c.metric]
    assert zero
    for c in zero:
        assert b.values[c.id] == pytest.approx(0.7 * a.values[c.id], rel=0.08)


def test_falls_back_to_iperf3_when_netperf_is_missing() -> None:
    ctx = context(ethernet.WORKLOAD, "am62xx_sk", "ethernet", missing_tools={"netperf"})
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    assert set(m.tools.values()) == {"iperf3"}
    assert not m.missing and len(m.values) == len(ctx.criteria)
    assert any("netperf cannot be used" in n for n in ctx.notes)
    assert any("--bidir" in cmd for _, cmd in ctx.commands)
    assert any(" -R " in cmd for _, cmd in ctx.commands)  # ingress from the board


def test_no_tool_at_all_is_unavailable_not_zero() -> None:
    ctx = context(ethernet.WORKLOAD, "am62xx_sk", "ethernet", missing_tools={"netperf", "iperf3"})
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    assert not m.values
    assert set(m.unavailable) == {c.id for c in ctx.criteria}


def test_hardware_lab_starts_and_stops_tester_servers_on_the_host() -> None:
    lab = dict(SIM_LAB, kind="hardware", name="bench")
    ctx = context(ethernet.WORKLOAD, "am64xx_evm", "ethernet", lab=lab)
    ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    host = [cmd for where, cmd in ctx.commands if where == "host"]
    assert any(c.startswith("nohup netserver -D -p 12865") for c in host)
    assert any(c.startswith("kill $(cat /tmp/perfgate-netperf-12865.pid)") for c in host)
    assert [w for w, c in ctx.commands if " -C " in c] == ["host"] * len([c for _, c in ctx.commands if " -C " in c])


def test_foreign_commands_are_not_claimed() -> None:
    crits = criteria.load("am62xx_sk", "ethernet", release=seed("am62xx_sk"))
    from perfgate import boards

    profile = boards.profile("am62xx_sk")
    for cmd in ["fio --name=emmc-ext4-1m-write --rw=write", "openssl speed -evp aes-128-cbc", "netserver -p 12865",
                "iperf -c 1.2.3.4 -w 8K -p 5002 -t 2",
                "iperf3 -c 1.2.3.4 -p 5205 -u -b 0 -l 1472 -t 2 -J -T ipsec-aes128-sha1"]:  # fmt: skip
        assert sim_workloads.expected(ethernet.WORKLOAD, cmd, crits, profile, SIM_LAB) is None


def test_classification_of_the_guides_tables() -> None:
    conf = network.settings("ethernet", {}, SIM_LAB)
    seen = {}
    for b in BOARDS:
        for c in criteria.load(b, "ethernet", release=seed(b)):
            got = ethernet.classify(c, conf)
            assert not isinstance(got, str), (c.name, got)
            seen.setdefault(got[0].kind, set()).add(got[0].datagram)
    assert set(seen) == {"tcp", "tcp_pacing", "udp_zero", "udp_loss", "iperf_udp"}
    assert seen["udp_zero"] == {18, 82, 210, 978, 1472}
    assert seen["iperf_udp"] == {64, 128, 256, 512, 1024, 1470}


def test_duration_comes_from_variable_lab_then_data() -> None:
    conf = network.settings("ethernet", {}, SIM_LAB)
    ctx = context(ethernet.WORKLOAD, "am62xx_sk", "ethernet")
    assert network.duration(ctx, conf) == 2
    ctx.duration = None  # type: ignore[assignment]
    assert network.duration(ctx, conf) == 2  # sim lab: data by lab kind
    ctx.lab = dict(SIM_LAB, kind="hardware")
    assert network.duration(ctx, conf) == 60
    ctx.lab = dict(SIM_LAB, duration=7)
    assert network.duration(ctx, conf) == 7


def test_pacing_without_ethtool_is_unavailable_and_netperf_stays_in_use() -> None:
    ctx = context(ethernet.WORKLOAD, "j721s2_evm", "ethernet", missing_tools={"ethtool"})
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    paced = {c.id for c in ctx.criteria if "Pacing" in c.table}
    assert paced and set(m.unavailable) == paced
    assert "ethtool" in next(iter(m.unavailable.values()))
    assert set(m.tools.values()) == {"netperf"}
    assert len(m.values) == len(ctx.criteria) - len(paced)


def test_ipsec_tester_tunnel_refused_is_reported_not_measured() -> None:
    lab = dict(SIM_LAB, kind="hardware")
    ctx = context(ipsec.WORKLOAD, "j721e_idk_gw", "ipsec", lab=lab)
    real_run = ctx.run

    def run(command: str, **kw: object) -> str:
        if kw.get("where") == "host" and command.startswith("ip xfrm state flush; ip xfrm policy flush; ip xfrm state"):
            return "RTNETLINK answers: Operation not permitted\n"
        return real_run(command, **kw)  # type: ignore[arg-type]

    ctx.run = run  # type: ignore[method-assign]
    m = ipsec.WORKLOAD.measure(ctx.criteria, ctx)
    assert not m.values
    assert all("tunnel could not be set up" in r for r in m.missing.values())
    assert len(m.missing) == len(ctx.criteria)


def test_am57x_iperf_tcp_window_table_with_and_without_pacing() -> None:
    """The AM57x guide's TCP table (iperf -w <window> -d, CPU from /proc/stat), as the importer would give it."""
    from dataclasses import replace

    base = criteria.load("am574x_idk", "ethernet", release=seed("am574x_idk"))[0]
    rows = [("8", "Bandwidth (without interrupt pacing, in Mbits/sec)", "Mbits/sec", 293.6),
            ("8", "CPU Load (without interrupt pacing, in %)", "%", 40.0),
            ("64", "Bandwidth (with interrupt pacing, in Mbits/sec)", "Mbits/sec", 311.2),
            ("64", "CPU Load (with interrupt pacing, in %)", "%", 17.52)]  # fmt: skip
    crits = [replace(base, id=f"am574x_idk.ethernet.tcp.{i}", name=f"tcp {i}", table="Ethernet performance table",
                     row=row, metric=metric, unit=unit, value=value, context="",
                     direction="lower" if unit == "%" else "higher")
             for i, (row, metric, unit, value) in enumerate(rows)]  # fmt: skip
    ctx = context(ethernet.WORKLOAD, "am574x_idk", "ethernet")
    ctx.criteria = crits
    m = ethernet.WORKLOAD.measure(crits, ctx)
    for c in crits:
        assert abs(m.values[c.id] - c.value) <= 0.1 * c.value, (c.metric, m.values.get(c.id), m.missing)
        assert m.tools[c.id] == "iperf"
    cmds = [cmd for _, cmd in ctx.commands]
    assert any("-w 8K -m -f M -d" in c and "rx-usecs" not in c for c in cmds)
    assert any("-w 64K -m -f M -d" in c and "rx-usecs 100" in c for c in cmds)


def test_ipsec_evidence_is_the_iperf3_output_not_the_tunnel_flush() -> None:
    ctx = context(ipsec.WORKLOAD, "j721e_idk_gw", "ipsec")
    m = ipsec.WORKLOAD.measure(ctx.criteria, ctx)
    assert m.values and set(m.values) == set(m.evidence)
    assert all(len(files) == 1 and "/iperf3-ipsec-" in files[0] for files in m.evidence.values())


def test_a_labs_per_board_workload_settings_apply_over_the_lab_and_the_profile() -> None:
    lab = dict(SIM_LAB, workloads={"ethernet": {"interface": "eth1"}},
               boards={"am64xx_evm": {"workloads": {"ethernet": {"interface": "eth2"}}}})  # fmt: skip
    assert network.settings("ethernet", {"name": "am62xx_sk"}, lab)["interface"] == "eth1"
    assert network.settings("ethernet", {"name": "am64xx_evm"}, lab)["interface"] == "eth2"
    assert network.settings("ethernet", {"name": "am64xx_evm"}, SIM_LAB)["interface"] == "eth0"


def test_udp_throughput_counted_as_frames_is_decided_from_the_guide_s_own_numbers() -> None:
    """linux-12.00.00-am62x.rst:554 `"64","","38.06","74",...`: 38.06 Mbit/s = 74 kpps x 64-byte frames, not x 18-byte
    datagrams (10.7); linux-10.00-am62x.rst:605 `"64","18.00","15.01","104.00",...`: 15.01 = 104 kpps x 18 bytes."""
    conf = network.settings("ethernet", {}, SIM_LAB)
    new = [c for c in criteria.load("am62xx_lp_sk", "ethernet", release="12.00.00")
           if c.table == "CPSW2g UDP Egress Throughput 0 loss" and c.row == "64"]  # fmt: skip
    old = [c for c in criteria.load("am62xx_lp_sk", "ethernet", release="10.00")
           if c.table == "CPSW2g UDP Egress Throughput 0 loss" and c.row == "64"]  # fmt: skip
    assert ethernet.frames(new, conf) == {(new[0].table, "64", "")}
    assert ethernet.frames(old, conf) == set()
    (m,) = ethernet.groups(new, conf)[0]
    assert (m.datagram, m.frame) == (18, 64)


@pytest.mark.parametrize("board", ["am62xx_sk", "am64xx_evm", "j784s4_evm"])
def test_newest_release_ethernet_measured_near_published(board: str) -> None:
    """The SDK 11-12 tables (throughput per frame) end to end: what the tool prints (datagram bytes) comes back as
    the guide's number. The AM64x RT guide's ICSSG tables are measured on the ICSSG port (below)."""
    ctx = context(ethernet.WORKLOAD, board, "ethernet", release=criteria.default_release(board))
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    icssg = {c.id for c in ctx.criteria if "ICSSG" in c.table}
    assert len(icssg) == (34 if board == "am64xx_evm" else 0)
    assert not m.missing and not m.unavailable
    for c in ctx.criteria:
        assert abs(m.values[c.id] - c.value) <= 0.06 * max(abs(c.value), 1.0), (c.name, c.value, m.values[c.id])
    assert any("counted as whole frames" in n for n in ctx.notes)


def icssg_run(lab: dict | None = None, profile: dict | None = None, **kw: object) -> tuple[object, object, set[str]]:
    ctx = context(ethernet.WORKLOAD, "am64xx_evm", "ethernet", lab=lab, release="12.00.00-RT", **kw)
    if profile is not None:
        ctx.profile = profile
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    return ctx, m, {c.id for c in ctx.criteria if "ICSSG" in c.table}


def test_icssg_tables_run_on_the_icssg_port_against_its_own_peer() -> None:
    """The ICSSG tables: TI's commands against the ICSSG peer (the sim lab's 192.168.2.1, the guide's own), each
    client bound to the board's address on eth1 (read from the board), pacing set on eth1; the CPSW tables keep
    the default tester and eth0."""
    ctx, m, icssg = icssg_run()
    assert len(icssg) == 34 and icssg <= set(m.values)
    cmds = [c for _, c in ctx.commands]
    assert cmds[cmds.index("ip -4 -o addr show dev eth1") + 1] == "ip route get 192.168.2.1 from 192.168.2.100"
    assert cmds[cmds.index("ip -4 -o addr show dev eth1") + 2] == "ethtool -i eth1"  # the ICSSG driver checked
    port = [c for c in cmds if "192.168.2.1 " in c]
    assert any("TCP_MAERTS" in c and "ethtool -C eth1 rx-usecs 100" in c for c in port)  # the paced ICSSG run
    egress = [c for c in port if "UDP_STREAM" in c and " -c " in c]
    assert egress and all("netperf -H 192.168.2.1 -L 192.168.2.100 -j -c" in c for c in egress)
    ingress = [c for c in cmds if "UDP_STREAM" in c and " -C " in c and "192.168.2" in c]  # run on the peer
    assert ingress and all(c.startswith("netperf -H 192.168.2.100 -L 192.168.2.1 -j -C") for c in ingress)
    default = [c for c in cmds if "192.168.0.1" in c]
    assert default and not any(" -L " in c for c in default)
    assert any("ethtool -C eth0 rx-usecs 100" in c for c in default)
    assert any("the ICSSG port: interface eth1, the board 192.168.2.100, tester 192.168.2.1" in n for n in ctx.notes)


def test_icssg_with_iperf3_binds_the_client_to_the_port() -> None:
    ctx, m, icssg = icssg_run(missing_tools={"netperf"})
    assert icssg <= set(m.values) and {m.tools[i] for i in icssg} == {"iperf3"}
    port = [c for _, c in ctx.commands if c.startswith("iperf3 -c 192.168.2.1 ")]
    assert port and all(c.startswith("iperf3 -c 192.168.2.1 -B 192.168.2.100 -p 5201") for c in port)
    assert any(" -R " in c for c in port) and any("--bidir" in c for c in port)


def _without_port_key(key: str) -> dict:
    lab = dict(SIM_LAB, name="bench")
    lab["workloads"] = {"ethernet": {"ports": {"icssg": {k: v for k, v in
                                                          SIM_LAB["workloads"]["ethernet"]["ports"]["icssg"].items()
                                                          if k != key}}}}  # fmt: skip
    return lab


def test_a_lab_without_the_icssg_peer_fails_those_tables_by_the_lab_key() -> None:
    ctx, m, icssg = icssg_run(lab=_without_port_key("tester"))
    assert set(m.missing) == icssg and not icssg & set(m.values)
    assert {m.missing[i] for i in icssg} == {
        "not measured on the ICSSG port: lab bench names no peer wired to it "
        "(variables/labs/bench.yaml: workloads.ethernet.ports.icssg.tester)"
    }
    assert not any("192.168.2" in c for _, c in ctx.commands)
    assert len(m.values) == len(ctx.criteria) - 34  # the CPSW tables are still measured


def test_a_board_without_the_icssg_interface_fails_those_tables_by_name() -> None:
    from perfgate import boards
    from perfgate.datafile import merge

    profile = merge(boards.profile("am64xx_evm"), {"workloads": {"ethernet": {"ports": {"icssg": {"interface": ""}}}}})
    _, m, icssg = icssg_run(profile=profile)
    assert set(m.missing) == icssg
    assert all("not measured on the ICSSG port: no interface is named for it" in m.missing[i] for i in icssg)
    assert all("workloads.ethernet.ports.icssg.interface" in m.missing[i] for i in icssg)


class RealIp:
    """A Context whose commands run on this host: the real iproute2 `ip` answers (stdout and stderr, as the
    gate's run gives both)."""

    board = "am64xx_evm"

    def __init__(self) -> None:
        self.profile = {"name": "am64xx_evm"}
        self.lab = {"name": "bench"}
        self.commands: list[str] = []

    def run(self, command: str, *, timeout: float = 30, label: str = "", where: str = "shell") -> str:
        import subprocess

        self.commands.append(command)
        done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=timeout, check=False)
        return done.stdout + done.stderr


def port_conf(**port: str) -> dict:
    return {"ports": {"icssg": {"match": "icssg", "name": "the ICSSG port", **port}},
            "address_command": "ip -4 -o addr show dev {interface}"}  # fmt: skip


@pytest.mark.skipif(not shutil.which("ip"), reason="iproute2's ip is not installed")
def test_the_port_address_is_read_from_real_ip_output() -> None:
    """Real iproute2 on this host: an interface the host lacks (what `ip` prints is in the reason), the address of
    one it has (lo), and a lab whose `board` address is not what `ip` prints."""
    ctx = RealIp()
    got = ethernet.resolve_port(ctx, port_conf(interface="eth7x", tester="192.168.2.1"), "icssg")  # type: ignore[arg-type]
    assert got == ("not measured on the ICSSG port: the board has no IPv4 address on eth7x (`ip -4 -o addr show dev "
                   "eth7x` printed 'Device \"eth7x\" does not exist.'; variables/labs/bench.yaml (or "
                   "variables/boards/am64xx_evm.yaml): workloads.ethernet.ports.icssg.interface)")  # fmt: skip
    got = ethernet.resolve_port(ctx, port_conf(interface="lo", tester="127.0.0.2"), "icssg")  # type: ignore[arg-type]
    assert got == ethernet.Port("icssg", "the ICSSG port", "lo", "127.0.0.2", "127.0.0.1")
    got = ethernet.resolve_port(ctx, port_conf(interface="lo", tester="127.0.0.2", board="127.0.0.9"), "icssg")  # type: ignore[arg-type]
    assert got == ("not measured on the ICSSG port: lab bench says the board is 127.0.0.9 on lo, the board says "
                   "127.0.0.1 (variables/labs/bench.yaml: workloads.ethernet.ports.icssg.board)")  # fmt: skip
    # a peer the board does not reach through the port (here: not at all from lo's address)
    got = ethernet.resolve_port(ctx, port_conf(interface="lo", tester="203.0.113.1"), "icssg")  # type: ignore[arg-type]
    assert isinstance(got, str) and got.startswith(
        "not measured on the ICSSG port: the board does not reach its peer 203.0.113.1 through lo "
        "(`ip route get 203.0.113.1 from 127.0.0.1` printed 'RTNETLINK answers:"
    ), got
    assert got.endswith("; variables/labs/bench.yaml: workloads.ethernet.ports.icssg.tester)")
    if shutil.which("ethtool"):  # an interface that is not the port's driver (real ethtool: lo has none)
        conf = port_conf(interface="lo", tester="127.0.0.2", driver="icssg-prueth")
        got = ethernet.resolve_port(ctx, conf, "icssg")  # type: ignore[arg-type]
        assert got == ("not measured on the ICSSG port: lo is not that port: `ethtool -i lo` printed 'Cannot get "
                       "driver information: Operation not supported', not driver icssg-prueth (variables/labs/"
                       "bench.yaml (or variables/boards/am64xx_evm.yaml): workloads.ethernet.ports.icssg.interface; "
                       "workloads.ethernet.ports.icssg.driver)")  # fmt: skip
        assert ctx.commands[-3:] == ["ip -4 -o addr show dev lo", "ip route get 127.0.0.2 from 127.0.0.1",
                                     "ethtool -i lo"]  # fmt: skip
        del ctx.commands[-3:]
    assert ctx.commands == [
        "ip -4 -o addr show dev eth7x",
        "ip -4 -o addr show dev lo",
        "ip route get 127.0.0.2 from 127.0.0.1",
        "ip -4 -o addr show dev lo",
        "ip -4 -o addr show dev lo",
        "ip route get 203.0.113.1 from 127.0.0.1",
    ]


def test_a_peer_reached_through_another_port_fails_those_tables() -> None:
    """A lab whose ICSSG peer the board reaches through eth0 (not on eth1's subnet): the ICSSG tables would measure
    the CPSW port, so they fail as not measured, with what `ip route get` printed."""
    lab = _without_port_key("")
    lab["workloads"]["ethernet"]["ports"]["icssg"]["tester"] = "10.1.1.1"
    ctx, m, icssg = icssg_run(lab=lab)
    assert set(m.missing) == icssg and not any("10.1.1.1" in c for _, c in ctx.commands if "ip route" not in c)
    assert {m.missing[i] for i in icssg} == {
        "not measured on the ICSSG port: the board does not reach its peer 10.1.1.1 through eth1 (`ip route get "
        "10.1.1.1 from 192.168.2.100` printed '10.1.1.1 from 192.168.2.100 dev eth0 uid 0 cache'; "
        "variables/labs/bench.yaml: workloads.ethernet.ports.icssg.tester)"
    }


def test_an_icssg_interface_without_ethtool_is_not_measured() -> None:
    _, m, icssg = icssg_run(missing_tools={"ethtool"})
    assert set(m.missing) == icssg
    assert all("eth1 is not that port: `ethtool -i eth1` printed" in m.missing[i] and "ethtool: not found" in
               m.missing[i] for i in icssg)  # fmt: skip


def test_port_data_never_reaches_a_shell_unquoted() -> None:
    lab = _without_port_key("")
    lab["workloads"]["ethernet"]["ports"]["icssg"]["tester"] = "192.168.2.1; reboot"
    ctx, m, icssg = icssg_run(lab=lab)
    assert all("is not an IP address or a host name" in m.missing[i] for i in icssg)
    from perfgate import boards
    from perfgate.datafile import merge

    profile = merge(boards.profile("am64xx_evm"),
                    {"workloads": {"ethernet": {"ports": {"icssg": {"interface": "eth1;reboot"}}}}})  # fmt: skip
    ctx, m, icssg = icssg_run(profile=profile)
    assert all("'eth1;reboot' is not an interface name" in m.missing[i] for i in icssg)
    assert not any("reboot" in c for _, c in ctx.commands)


def test_am57x_icssm_ingress_runs_on_the_icssm_port_and_forwarding_through_the_board() -> None:
    """AM57x 11.01: the ICSSM (PRU-ICSS) ingress table is measured on that port (am574x_idk's eth2, the sim lab's
    ICSSM peer), no longer on the CPSW port; the Switch/HSR forwarding tables between the sim lab's two peers, the
    board in each mode; a lab without the peers fails them as not measured, naming the keys."""
    ctx = context(ethernet.WORKLOAD, "am574x_idk", "ethernet", release="11.01")
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    ingress = {c.id for c in ctx.criteria if c.table == "ICSSM UDP Ingress Throughput 0 loss"}
    forwarding = {c.id for c in ctx.criteria if "Forwarding" in c.table}
    assert (len(ingress), len(forwarding)) == (15, 4)
    assert set(m.values) == ingress | forwarding and not m.missing
    for c in ctx.criteria:
        if c.id in forwarding:
            assert abs(m.values[c.id] - c.value) <= 0.05 * c.value + 0.01, (c.id, m.values[c.id])
    cmds = [c for _, c in ctx.commands]
    switch = next(c for c in cmds if "type bridge" in c)
    assert switch.startswith("ip link set dev eth2 down && ip link set dev eth3 down && ip link add name br0")
    assert switch.endswith("&& echo perfgate-forwarding-ready")
    hsr = next(c for c in cmds if "type hsr" in c)
    assert "ip link add name hsr0 type hsr slave1 eth2 slave2 eth3 supervision 45 version 1" in hsr
    assert "iperf3 -c 192.168.4.2 -p 5211 -t 2 -J > /tmp/perfgate-forwarding-switch.json 2>&1 &" in cmds
    assert "echo '# hsr'; head -1 /proc/stat; sleep 1; head -1 /proc/stat" in cmds
    assert cmds.index("ip link set dev br0 down; ip link del br0") > cmds.index(switch)
    assert cmds[0] == "ip -4 -o addr show dev eth2"
    udp = [c for c in cmds if "UDP_STREAM" in c]
    assert udp and all(c.startswith("netperf -H 192.168.3.100 -L 192.168.3.1 -j -C") for c in udp)
    # a lab without an ICSSM peer: the ingress table fails by the lab key, nothing is measured on the CPSW port
    lab = dict(SIM_LAB, name="bench", workloads={})
    ctx = context(ethernet.WORKLOAD, "am574x_idk", "ethernet", release="11.01", lab=lab)
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    assert not m.values and not any("UDP_STREAM" in c or "type bridge" in c for _, c in ctx.commands)
    assert {m.missing[i] for i in forwarding} == {
        "not measured: lab bench names no forwarding peers (variables/labs/bench.yaml: "
        "workloads.ethernet.forwarding.peers.a.address and workloads.ethernet.forwarding.peers.b.address, the hosts "
        "on the board's two ports)"
    }
    assert {m.missing[i] for i in ingress} == {
        "not measured on the ICSSM (PRU-ICSS) port: lab bench names no peer wired to it "
        "(variables/labs/bench.yaml: workloads.ethernet.ports.icssm.tester)"
    }


def test_hardware_lab_icssg_port_shares_the_testers_servers_and_runs_ingress_there() -> None:
    """A real lab: the tester's netserver is started once on this host for both ports (it listens on every
    address) and stopped once; the ICSSG ingress client runs on this host, bound to the tester's ICSSG address."""
    lab = dict(SIM_LAB, kind="hardware", name="bench")
    ctx, m, icssg = icssg_run(lab=lab)
    assert icssg <= set(m.values)
    host = [cmd for where, cmd in ctx.commands if where == "host"]
    assert len([c for c in host if c.startswith("nohup netserver -D -p 12865")]) == 1
    assert len([c for c in host if c.startswith("kill $(cat /tmp/perfgate-netperf-12865.pid)")]) == 1
    ingress = [c for c in host if "UDP_STREAM" in c and "192.168.2" in c]
    assert ingress and all(c.startswith("netperf -H 192.168.2.100 -L 192.168.2.1 -j -C") for c in ingress)


def test_a_failed_trial_inside_the_rate_search_is_an_invalid_run_not_a_low_rate() -> None:
    """The third rate-limited trial of a search carries nothing (0 Mbit/s received, 100 % loss: the peer or the link
    failed, as TI's UDP cells with min 0.00 show). The previous search took it as loss at that rate and settled below
    what the board carries, a value judged as a slow run (one false FAIL in 3 end-to-end gates); the search's run is
    now INVALID with the reason and its evidence, set aside and run again by the judge, and the other searches are
    measured as before."""

    class OneFailedTrial(FakeContext):
        trials = 0

        def run(self, command: str, **kw: object) -> str:
            trial = " -b " in command and "UDP_STREAM" in command
            self.trials += trial
            self.scale = {THROUGHPUT: 0.0} if trial and self.trials == 3 else {}
            return super().run(command, **kw)  # type: ignore[arg-type]

    base = context(ethernet.WORKLOAD, "j721e_idk_gw", "ethernet")
    ctx = OneFailedTrial(ethernet.WORKLOAD, base.criteria, base.board, base.profile, base.lab)
    m = ethernet.WORKLOAD.measure(ctx.criteria, ctx)
    assert m.invalid and all(not any(cid == v for v in m.values) for cid in m.invalid)
    for reasons in m.invalid.values():
        assert len(reasons) == 1 and "carried nothing" in reasons[0] and "a failed trial" in reasons[0]
    assert any("RFC 2544 search with netperf INVALID" in n for n in ctx.notes)
    searched = [c for c in ctx.criteria if "udp" in c.table.lower() and c.id not in m.invalid]
    assert searched and all(c.id in m.values for c in searched)
