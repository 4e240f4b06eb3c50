"""netperf parser on reconstructed `-k` captures and on real netperf 2.7.0 captures (Debian non-free's netperf,
tests/fixtures/netperf/PROVENANCE.md: the default table, -o, -k), and the sim round trip, including rate-limited
UDP trials (-b/-w) that lose packets only above the capacity."""

from __future__ import annotations

import random
import socket
import subprocess
import time

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import netperf as sim_netperf
from perfgate.tools import netperf
from testpaths import FIXTURES, ROOT

FIX = FIXTURES / "netperf"
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


# --- real netperf 2.7.0 captures (issue 21): the default table, -o, -k checked against a real run ------------------


def real(name: str) -> str:
    from captures import capture

    return capture(FIX / name)


def test_default_table_tcp_stream_and_maerts() -> None:
    """No -k: the test's table, throughput in the units its header names (`10^6bits/sec`), the banner's `: demo`."""
    m = netperf.parse(real("real-tcp-stream-table.txt"), "netperf -H 127.0.0.1 -l 2 -t TCP_STREAM")
    assert m == {"throughput (Mbits/sec)": 10482.97, "send throughput (Mbits/sec)": 10482.97}
    m = netperf.parse(real("real-tcp-maerts-table.txt"))
    assert m == {"throughput (Mbits/sec)": 17742.04, "receive throughput (Mbits/sec)": 17742.04}
    m = netperf.parse(real("real-tcp-stream-table-c-C.txt"))
    assert m["throughput (Mbits/sec)"] == 11325.41
    assert m["cpu load (%)"] == 100.0 and m["remote cpu load (%)"] == 100.0


def test_default_table_of_tis_concurrent_stream_and_maerts_adds_both() -> None:
    m = netperf.parse(real("real-tcp-stream-maerts-concurrent-table.txt"))
    assert m["throughput (Mbits/sec)"] == pytest.approx(14984.67 + 9071.47)
    assert m["send throughput (Mbits/sec)"] == 9071.47 and m["receive throughput (Mbits/sec)"] == 14984.67
    assert m["cpu load (%)"] == 100.0
    assert "remote cpu load (%)" not in m  # -1.00: not measured (no -C)


def test_default_table_udp_stream_reads_what_the_receiver_got() -> None:
    """UDP_STREAM's table has two lines: the sender's (messages okay, its rate) and the receiver's (messages
    received, the rate that arrived). The throughput is the receiver's, as -k's THROUGHPUT is."""
    m = netperf.parse(real("real-udp-stream-table-m1472.txt"), "netperf -H 127.0.0.1 -l 2 -t UDP_STREAM -- -m 1472")
    assert m["throughput (Mbits/sec)"] == 1685.80
    assert m["send throughput (Mbits/sec)"] == 5349.36
    assert m["datagram size (bytes)"] == 1472
    assert m["packet loss (%)"] == pytest.approx(100.0 * (909396 - 286587) / 909396)
    assert m["packets per second (kPPS)"] == pytest.approx(1685.80e6 / 8 / 1472 / 1e3)
    m = netperf.parse(real("real-udp-stream-table-c-C-m1472.txt"))
    assert m["throughput (Mbits/sec)"] == 2497.6 and m["cpu load (%)"] == 100.0


def test_k_reader_agrees_with_a_real_run() -> None:
    """The -k reader was written from netperf's source; on a real run its UDP THROUGHPUT is the received rate
    (REMOTE_BYTES_RECVD over 2 s), -1.00 is a CPU not measured, and no THROUGHPUT_UNITS is printed unless asked."""
    text = real("real-udp-stream-k-ti-keys-m1472.txt")
    m = netperf.parse(text, f"netperf -H 127.0.0.1 -j -c -l 2 -t UDP_STREAM -- -m 1472 {K}")
    assert m["throughput (Mbits/sec)"] == 1655.85
    assert m["throughput (Mbits/sec)"] == pytest.approx(413986752 * 8 / 2.0 / 1e6, rel=0.01)
    assert m["packet loss (%)"] == pytest.approx(100.0 * (1205180864 - 413986752) / 1205180864)
    assert m["cpu load (%)"] == 99.50 and "remote cpu load (%)" not in m
    # DIRECTION=Send, but THROUGHPUT is what arrived: what was sent is LOCAL_BYTES_SENT over the 2 s
    assert m["send throughput (Mbits/sec)"] == pytest.approx(1205180864 * 8 / 2.0 / 1e6, rel=0.01)
    m = netperf.parse(real("real-tcp-stream-k-ti-keys.txt"))
    assert m["throughput (Mbits/sec)"] == 9725.45 and m["send throughput (Mbits/sec)"] == 9725.45
    assert m["mean latency (us)"] == 13.41


def test_o_csv_output_reads_as_k() -> None:
    m = netperf.parse(real("real-tcp-stream-o-ti-keys.txt"))
    assert m["throughput (Mbits/sec)"] == 21327.03 and m["cpu load (%)"] == 99.75
    m = netperf.parse(real("real-udp-stream-o-ti-keys-m1472.txt"), "netperf -t UDP_STREAM -- -m 1472 -o ...")
    assert m["throughput (Mbits/sec)"] == 1655.09
    assert m["packet loss (%)"] == pytest.approx(100.0 * (1298105280 - 413882240) / 1298105280)
    assert netperf.parse(real("real-tcp-stream-o.txt"))["throughput (Mbits/sec)"] == 12036.28


def test_request_response_is_a_transaction_rate_not_a_throughput() -> None:
    m = netperf.parse(real("real-tcp-rr-table.txt"))
    assert m == {"transaction rate (Trans/s)": 122321.96}
    m = netperf.parse(real("real-tcp-rr-k.txt"))
    assert m["transaction rate (Trans/s)"] == 120848.79 and "throughput (Mbits/sec)" not in m


def test_rate_limit_not_compiled_in_is_refused() -> None:
    """Debian's netperf is built without --enable-intervals: `-b 425 -w 10` is ignored, saying so, and the trial
    runs unlimited. A rate-limited trial that was not limited must not be read as one."""
    text = real("real-udp-stream-b425-w10-not-compiled-in.txt")
    with pytest.raises(ParseError, match="not compiled in") as e:
        netperf.parse(text, "netperf -H 127.0.0.1 -l 2 -t UDP_STREAM -b 425 -w 10 -- -m 1472")
    assert e.value.line == 1 and "-b/-w did not limit the rate" in str(e.value)


def test_real_netserver_start_and_no_netserver() -> None:
    assert netperf.parse(real("real-netserver-start.txt"), "netserver -p 12865 -D") == {}
    with pytest.raises(ParseError, match="are you sure there is a netserver") as e:
        netperf.parse(real("real-no-netserver.txt"))
    assert e.value.line == 1


def test_a_table_it_cannot_read_is_refused() -> None:
    text = real("real-tcp-stream-table.txt").replace("10482.97", "lots")
    with pytest.raises(ParseError, match="netperf TCP STREAM table"):
        netperf.parse(text)


NETPERF = ROOT / "build" / "netperf" / "usr" / "bin"  # setup.sh unpacks Debian's there


@pytest.mark.skipif(not (NETPERF / "netperf").exists(), reason="needs netperf (setup.sh unpacks it under build/)")
def test_live_netperf_table_and_keywords_agree() -> None:
    """The real netperf 2.7.0 here, netserver on 127.0.0.1: the default table and `-k` of one kind of run are read
    alike (TCP_STREAM: a throughput; UDP_STREAM: the receiver's rate and a loss; TCP_RR: a transaction rate)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    server = subprocess.Popen([str(NETPERF / "netserver"), "-p", port, "-D"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        base = [str(NETPERF / "netperf"), "-H", "127.0.0.1", "-p", port, "-l", "1"]

        def run(*args: str) -> dict[str, float]:
            for _ in range(50):  # netserver listens within a moment
                p = subprocess.run([*base, *args], capture_output=True, text=True, timeout=30, check=False)
                if "establish control" not in p.stdout + p.stderr:
                    break
                time.sleep(0.1)
            return netperf.parse(p.stdout + p.stderr, " ".join(["netperf", *args]))

        table = run("-t", "TCP_STREAM")
        keys = run("-t", "TCP_STREAM", "--", "-k", netperf.KEYS)
        assert table["throughput (Mbits/sec)"] > 0 and keys["throughput (Mbits/sec)"] > 0
        assert set(table) <= set(keys)
        udp = run("-t", "UDP_STREAM", "--", "-m", "1472")
        assert udp["datagram size (bytes)"] == 1472 and 0.0 <= udp["packet loss (%)"] < 100.0
        assert udp["throughput (Mbits/sec)"] <= udp["send throughput (Mbits/sec)"]
        assert set(run("-t", "TCP_RR")) == {"transaction rate (Trans/s)"}
        with pytest.raises(ParseError, match="not compiled in"):
            run("-t", "UDP_STREAM", "-b", "4", "-w", "10", "--", "-m", "1472")
    finally:
        server.kill()
        server.wait()


def test_the_sims_bound_banner_is_the_real_one() -> None:
    """The sim's banner for a client bound with -L was constructed from the source; a real run agrees up to the
    build's suffix (Debian's ` : demo`, the sim's ` : histogram` for -j)."""
    real_banner = real("real-tcp-stream-bound-L-k.txt").splitlines()[0]
    sim = sim_netperf.render("netperf -H 127.0.0.1 -L 127.0.0.1 -j -c -l 1 -t TCP_STREAM -- -k THROUGHPUT",
                             {"throughput (Mbits/sec)": 900.0}, random.Random(1))  # fmt: skip
    sim_banner = next(line for line in sim.splitlines() if line.startswith("MIGRATED"))
    assert real_banner.split(" : ")[0] == sim_banner.split(" : ")[0]
    assert netperf.parse(real("real-tcp-stream-bound-L-k.txt"))["throughput (Mbits/sec)"] == 17632.62


def test_the_same_test_run_several_times_in_one_output_is_refused_not_summed() -> None:
    """Three TCP_MAERTS runs one after the other (a real netperf 2.7.0 log made here, corpus/, as a Raspberry Pi 3
    log showed it) are three measurements: refused naming two banners; one run alone is read, and TI's concurrent
    STREAM + MAERTS is still one figure."""
    with pytest.raises(ParseError, match=r"two TCP MAERTS results \(lines 1 and 8\)"):
        netperf.parse(real("corpus/tcp-maerts-l1-three-runs.txt"))
    assert netperf.parse(real("corpus/tcp-maerts-l1.txt"))["throughput (Mbits/sec)"] == 27052.44
    both = netperf.parse(real("real-tcp-stream-maerts-concurrent-table.txt"))
    assert both["throughput (Mbits/sec)"] == pytest.approx(14984.67 + 9071.47)
