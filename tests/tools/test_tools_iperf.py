"""iperf 2 parser on real iperf 2.1.8 captures over 127.0.0.1 (tests/fixtures/iperf/PROVENANCE.md) and the sim
round trip in TI's 2.0.5 format."""

from __future__ import annotations

import random

import pytest

from captures import capture
from perfgate.errors import ParseError
from perfgate.sim.tools import iperf as sim_iperf
from perfgate.tools import iperf
from testpaths import FIXTURES

FIX = FIXTURES / "iperf"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_tcp_client_in_gbits() -> None:
    assert iperf.parse(read("tcp.txt"))["throughput (Mbits/sec)"] == pytest.approx(18500.0)


def test_upper_case_megabytes_are_binary() -> None:
    m = iperf.parse(read("tcp-w64k-fM.txt"), "iperf -c 127.0.0.1 -w 64K -m -f M -t 2")
    assert m["throughput (Mbits/sec)"] == pytest.approx(889 * 8 * 1024**2 / 1e6)


def test_full_duplex_uses_the_sum_line() -> None:
    m = iperf.parse(read("fullduplex-w64k.txt"))
    assert m["throughput (Mbits/sec)"] == pytest.approx(1315 * 8 * 1024**2 / 1e6)


def test_udp_server_report_gives_loss_and_kpps() -> None:
    m = iperf.parse(read("udp-1470.txt"))
    assert m["datagram size (bytes)"] == 1470
    assert m["packet loss (%)"] == 0.0
    assert m["throughput (Mbits/sec)"] == pytest.approx(210.0)
    assert m["packets per second (kPPS)"] == pytest.approx(35669 / 2.0003 / 1e3)
    assert iperf.parse(read("udp-server.txt"))["packets per second (kPPS)"] > 0


def test_csv_output() -> None:
    assert iperf.parse(read("tcp-csv.txt"))["throughput (Mbits/sec)"] == pytest.approx(29353.86329)


def test_proc_stat_lines_give_cpu_load() -> None:
    m = iperf.parse(read("proc-stat-wrapped-tcp-w64k.txt"))
    before = [56064, 124, 13587, 168578, 1380, 0, 1002, 415, 0, 0]
    after = [56190, 124, 13751, 168634, 1381, 0, 1039, 415, 0, 0]
    total = sum(after) - sum(before)
    idle = (168634 - 168578) + (1381 - 1380)
    assert m["cpu load (%)"] == pytest.approx(100.0 * (total - idle) / total)
    assert m["throughput (Mbits/sec)"] == pytest.approx(12546.0)


@pytest.mark.parametrize(("name", "line"), [("client-no-server.txt", 5), ("dualtest-w64k.txt", 14)])
def test_failures_are_parse_errors_with_line(name: str, line: int) -> None:
    with pytest.raises(ParseError) as e:
        iperf.parse(read(name))
    assert e.value.line == line


def test_nothing_recognised() -> None:
    with pytest.raises(ParseError):
        iperf.parse("iperf version 2.1.8\n")


@pytest.mark.parametrize("fmt", ["M", "m"])
def test_round_trip_dual_test_with_cpu(fmt: str) -> None:
    cmd = f"head -1 /proc/stat; iperf -c 192.168.0.1 -p 5001 -w 64K -m -f {fmt} -d -t 60; head -1 /proc/stat"
    values = {"throughput (Mbits/sec)": 311.2, "cpu load (%)": 17.52}
    m = iperf.parse(sim_iperf.render(cmd, values, random.Random(4)), cmd)
    assert m["throughput (Mbits/sec)"] == pytest.approx(311.2, rel=0.01)
    assert m["cpu load (%)"] == pytest.approx(17.52, rel=0.02)


def test_round_trip_udp() -> None:
    values = {"throughput (Mbits/sec)": 858.0}
    cmd = "iperf -c 192.168.0.1 -u -b 1000M -l 1470 -t 10"
    m = iperf.parse(sim_iperf.render(cmd, values, random.Random(4)), cmd)
    assert m["throughput (Mbits/sec)"] == pytest.approx(858.0, rel=0.01)
    assert m["packets per second (kPPS)"] == pytest.approx(858e6 / 8 / 1470 / 1e3, rel=0.01)
    assert m["packet loss (%)"] > 0


def test_round_trip_packet_rate_limits_the_capacity() -> None:
    values = {"throughput (Mbits/sec)": 30.1, "packets per second (kPPS)": 40.0}
    cmd = "iperf -c 192.168.0.1 -u -b 1000M -l 64 -t 10"
    m = iperf.parse(sim_iperf.render(cmd, values, random.Random(4)), cmd)
    assert m["packets per second (kPPS)"] == pytest.approx(40.0, rel=0.02)


def test_two_runs_in_one_output_are_an_error_naming_both() -> None:
    text = capture(FIX / "two-runs-tcp.txt")
    clients = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("Client connecting to")]
    assert len(clients) == 2
    with pytest.raises(ParseError) as e:
        iperf.parse(text, "iperf -c 127.0.0.1 -p 5297 -t 1; iperf -c 127.0.0.1 -p 5297 -t 1 -w 64k")
    assert f"line {clients[0]}" in str(e.value) and f"line {clients[1]}" in str(e.value)
    assert e.value.line == clients[1]
    first = "\n".join(text.splitlines()[: clients[1] - 2]) + "\n"
    assert iperf.parse(first)["throughput (Mbits/sec)"] == pytest.approx(13200.0)  # one run alone reads
