"""netperf `-k` parser on reconstructed captures (netperf is not in Debian: tests/fixtures/netperf/PROVENANCE.md)
and the sim round trip, including rate-limited UDP trials (-b/-w) that lose packets only above the capacity."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import netperf as sim_netperf
from perfgate.tools import netperf

FIX = Path(__file__).parent / "fixtures" / "netperf"
K = f"-k {netperf.KEYS}"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_bidirectional_tcp_adds_both_tests() -> None:
    m = netperf.parse(read("tcp-stream-maerts-bidirectional.txt"))
    assert m["throughput (Mbits/sec)"] == pytest.approx(921.47 + 912.86)
    assert m["send throughput (Mbits/sec)"] == pytest.approx(921.47)
    assert m["receive throughput (Mbits/sec)"] == pytest.approx(912.86)
    assert m["cpu load (%)"] == pytest.approx((73.12 + 73.88) / 2)
    assert "remote cpu load (%)" not in m  # -1 means not measured
    assert "packet loss (%)" not in m


def test_udp_rate_limited_trial() -> None:
    m = netperf.parse(read("udp-stream-b425-w10-m1472.txt"))
    assert m["packet loss (%)"] == 0.0
    assert m["datagram size (bytes)"] == 1472
    assert m["packets per second (kPPS)"] == pytest.approx(500.43e6 / 8 / 1472 / 1e3)


def test_udp_with_loss_and_remote_cpu() -> None:
    m = netperf.parse(read("udp-stream-unlimited-m18-loss.txt"))
    assert m["packet loss (%)"] == pytest.approx(1.78, abs=0.01)
    assert m["packets per second (kPPS)"] == pytest.approx(410.3, abs=0.1)
    assert m["remote cpu load (%)"] == 88.04


def test_netserver_start_is_recognised_without_metrics() -> None:
    assert netperf.parse(read("netserver-start.txt"), "netserver -p 12865") == {}


def test_no_netserver_is_a_parse_error_with_line() -> None:
    with pytest.raises(ParseError) as e:
        netperf.parse(read("no-netserver.txt"))
    assert e.value.line == 1


def test_output_without_keywords_fails() -> None:
    with pytest.raises(ParseError):
        netperf.parse("MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to h () port 0 AF_INET\n")


def test_offered_rate_follows_the_guides_formula() -> None:
    glob, _ = netperf.options(["netperf", "-H", "h", "-b", "425", "-w", "10", "--", "-m", "1472"])
    assert sim_netperf.offered_rate(glob, 1472) == pytest.approx(425 * 1472 * 8 * 100)  # ≈ 500 Mbit/s


def test_round_trip_bidirectional() -> None:
    cmd = (f"netperf -H 10.0.0.1 -j -c -l 5 -t TCP_STREAM -- {K} & "
           f"netperf -H 10.0.0.1 -j -c -l 5 -t TCP_MAERTS -- {K} & wait")  # fmt: skip
    m = netperf.parse(
        sim_netperf.render(cmd, {"throughput (Mbits/sec)": 1834.33, "cpu load (%)": 73.5}, random.Random(1)), cmd
    )
    assert m["throughput (Mbits/sec)"] == pytest.approx(1834.33, rel=0.01)
    assert m["cpu load (%)"] == pytest.approx(73.5, rel=0.03)
    assert m["send throughput (Mbits/sec)"] > 0 and m["receive throughput (Mbits/sec)"] > 0


@pytest.mark.parametrize(("burst", "lossy"), [(100, False), (3000, True)])
def test_round_trip_udp_trial(burst: int, lossy: bool) -> None:
    # capacity 146.16 Mbit/s at 82-byte datagrams; burst 100 offers 6.56 Mbit/s, 3000 offers 196.8 Mbit/s
    cmd = f"netperf -H 10.0.0.1 -j -c -l 2 -t UDP_STREAM -b {burst} -w 10 -- -m 82 {K}"
    m = netperf.parse(
        sim_netperf.render(cmd, {"throughput (Mbits/sec)": 146.16, "cpu load (%)": 88.8}, random.Random(2)), cmd
    )
    assert (m["packet loss (%)"] > 1) is lossy
    expected = 146.16 if lossy else burst * 82 * 8 * 100 / 1e6
    assert m["throughput (Mbits/sec)"] == pytest.approx(expected, rel=0.01)


def test_round_trip_ingress_from_tester_reports_remote_cpu() -> None:
    cmd = f"netperf -H 10.0.0.2 -j -C -l 2 -t UDP_STREAM -- -m 18 {K}"
    values = {"throughput (Mbits/sec)": 59.08, "packet loss (%)": 1.78, "remote cpu load (%)": 88.04}
    m = netperf.parse(sim_netperf.render(cmd, values, random.Random(3)), cmd)
    assert m["remote cpu load (%)"] == pytest.approx(88.04, rel=0.03)
    assert m["packet loss (%)"] == pytest.approx(1.78, rel=0.05)
    assert m["packets per second (kPPS)"] == pytest.approx(410.3, rel=0.01)


def test_round_trip_packet_rate_limits_the_capacity() -> None:
    # 225 kpps of 18-byte datagrams is 32.4 Mbit/s: a board degraded to 180 kpps carries 25.9 Mbit/s
    cmd = f"netperf -H 10.0.0.1 -j -c -l 2 -t UDP_STREAM -b 3000 -w 10 -- -m 18 {K}"
    values = {"throughput (Mbits/sec)": 32.39, "packets per second (kPPS)": 180.0, "cpu load (%)": 88.0}
    m = netperf.parse(sim_netperf.render(cmd, values, random.Random(2)), cmd)
    assert m["packets per second (kPPS)"] == pytest.approx(180.0, rel=0.01)
    assert m["throughput (Mbits/sec)"] == pytest.approx(180e3 * 18 * 8 / 1e6, rel=0.01)
