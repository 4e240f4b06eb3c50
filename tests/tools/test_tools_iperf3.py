"""iperf3 parser on real iperf 3.12 captures over 127.0.0.1 (tests/fixtures/iperf3/PROVENANCE.md) and the sim
round trip, including the rate-limited UDP trials of the RFC 2544 search."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from captures import capture
from perfgate.errors import ParseError
from perfgate.sim.tools import iperf3 as sim_iperf3
from perfgate.tools import iperf3
from testpaths import FIXTURES

FIX = FIXTURES / "iperf3"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_tcp_client_json() -> None:
    m = iperf3.parse(read("client-tcp-t2.json"))
    assert m["throughput (Mbits/sec)"] == pytest.approx(27029626861.754116 / 1e6)
    assert m["send throughput (Mbits/sec)"] == pytest.approx(27030343095.29714 / 1e6)
    assert m["cpu load (%)"] == pytest.approx(97.8138491312923)
    assert m["remote cpu load (%)"] == pytest.approx(67.3357930627631)
    assert "packet loss (%)" not in m


def test_bidir_adds_both_directions() -> None:
    m = iperf3.parse(read("client-tcp-bidir-t2.json"))
    assert m["throughput (Mbits/sec)"] == pytest.approx((4713354967.945126 + 4393141447.45855) / 1e6)


def test_udp_client_json() -> None:
    m = iperf3.parse(read("client-udp-b100M-l1472-t2.json"))
    assert m["throughput (Mbits/sec)"] == pytest.approx(99952620.56205215 / 1e6)
    assert m["packet loss (%)"] == 0.0
    assert m["datagram size (bytes)"] == 1472
    assert m["packets per second (kPPS)"] == pytest.approx(m["throughput (Mbits/sec)"] * 1e6 / 8 / 1472 / 1e3, rel=0.01)


def test_udp_reverse_with_loss() -> None:
    m = iperf3.parse(read("client-udp-reverse-b50M-l18-t2.json"))
    assert m["packet loss (%)"] == pytest.approx(6.16772945970211)
    assert m["packets per second (kPPS)"] == pytest.approx((217195 - 13396) / 2.003374 / 1e3)


def test_server_side_json_and_text_summary() -> None:
    assert iperf3.parse(read("server-tcp.json"))["throughput (Mbits/sec)"] > 0
    m = iperf3.parse(read("client-tcp-t2.txt"))
    assert m["throughput (Mbits/sec)"] == pytest.approx(19100.0)
    assert m["send throughput (Mbits/sec)"] == pytest.approx(19200.0)


def test_error_document_and_garbage() -> None:
    with pytest.raises(ParseError, match="Connection refused"):
        iperf3.parse(read("client-no-server.json"))
    with pytest.raises(ParseError):
        iperf3.parse("iperf3: error - unable to connect to server: Connection refused\n")
    with pytest.raises(ParseError):
        iperf3.parse("hello\n")


def test_round_trip_tcp_bidir() -> None:
    cmd = "iperf3 -c 192.168.0.1 -p 5201 -t 5 --bidir -J"
    m = iperf3.parse(
        sim_iperf3.render(cmd, {"throughput (Mbits/sec)": 1835.59, "cpu load (%)": 67.36}, random.Random(2))
    )
    assert m["throughput (Mbits/sec)"] == pytest.approx(1835.59, rel=0.01)
    assert m["cpu load (%)"] == pytest.approx(67.36, rel=0.03)


def test_round_trip_udp_trials_show_loss_only_above_capacity() -> None:
    values = {"throughput (Mbits/sec)": 188.16, "cpu load (%)": 39.8}
    below = iperf3.parse(sim_iperf3.render("iperf3 -c h -u -b 150M -l 210 -t 2 -J", values, random.Random(1)))
    above = iperf3.parse(sim_iperf3.render("iperf3 -c h -u -b 300M -l 210 -t 2 -J", values, random.Random(1)))
    assert below["packet loss (%)"] == 0.0
    assert below["throughput (Mbits/sec)"] == pytest.approx(150.0, rel=0.01)
    assert above["packet loss (%)"] > 30
    assert above["throughput (Mbits/sec)"] == pytest.approx(188.16, rel=0.01)


def test_round_trip_udp_possible_loss() -> None:
    values = {"throughput (Mbits/sec)": 139.74, "packet loss (%)": 47.43, "cpu load (%)": 43.66}
    m = iperf3.parse(sim_iperf3.render("iperf3 -c h -u -b 1000M -l 82 -t 2 -R -J", values, random.Random(5)))
    assert m["throughput (Mbits/sec)"] == pytest.approx(139.74, rel=0.01)
    assert m["packet loss (%)"] == pytest.approx(47.43, rel=0.03)
    assert m["packets per second (kPPS)"] == pytest.approx(139.74e6 / 8 / 82 / 1e3, rel=0.02)


def test_round_trip_packet_rate_limits_the_capacity() -> None:
    values = {"throughput (Mbits/sec)": 211.8, "packets per second (kPPS)": 15.0, "cpu load (%)": 34.6}
    m = iperf3.parse(sim_iperf3.render("iperf3 -c h -u -b 0 -l 1400 -t 2 -J", values, random.Random(5)))
    assert m["packets per second (kPPS)"] == pytest.approx(15.0, rel=0.02)


def test_two_text_runs_in_one_output_are_an_error_naming_both() -> None:
    text = capture(FIX / "two-runs-tcp-then-reverse-t1.txt")
    headers = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("Connecting to host")]
    assert len(headers) == 2
    with pytest.raises(ParseError) as e:
        iperf3.parse(text, "iperf3 -c 127.0.0.1 -p 5298 -t 1; iperf3 -R -c 127.0.0.1 -p 5298 -t 1")
    assert f"line {headers[0]}" in str(e.value) and f"line {headers[1]}" in str(e.value)
    assert "two iperf3 runs" in str(e.value) and e.value.line == headers[1]
    first = text.split("iperf Done.")[0] + "iperf Done.\n"
    assert iperf3.parse(first)["throughput (Mbits/sec)"] == pytest.approx(9270.0)  # one run alone reads


def test_two_json_runs_in_one_output_are_an_error_naming_both() -> None:
    text = capture(FIX / "two-runs-tcp-then-reverse-t1.json")
    starts = [n for n, line in enumerate(text.splitlines(), 1) if line == "{"]
    assert len(starts) == 2
    with pytest.raises(ParseError) as e:
        iperf3.parse(text)
    message = str(e.value)
    assert (
        f"line {starts[0]} (TCP to 127.0.0.1)" in message and f"line {starts[1]} (TCP reverse to 127.0.0.1)" in message
    )
    assert e.value.line == starts[1]


def test_text_bidir_adds_both_directions_and_parallel_reads_the_sum() -> None:
    m = iperf3.parse(capture(FIX / "client-tcp-bidir-t1.txt"), "iperf3 -c 127.0.0.1 -p 5296 -t 1 --bidir")
    assert m["throughput (Mbits/sec)"] == pytest.approx(16300.0 + 11600.0)  # TX-C receiver + RX-C receiver
    m = iperf3.parse(capture(FIX / "client-tcp-P2-t1.txt"), "iperf3 -c 127.0.0.1 -p 5296 -t 1 -P 2")
    assert m["throughput (Mbits/sec)"] == pytest.approx(23900.0)  # the [SUM] receiver line, not the last stream
    assert m["send throughput (Mbits/sec)"] == pytest.approx(23900.0)


def test_round_trip_packet_rate_published_as_zero_is_no_limit() -> None:
    # am62xx_sk 12.00.00 IPSec aes192 (linux-12.00.00-am62x.rst:999) publishes 0.60 Mbps beside "0.00" (thousand)
    # packets/s. Zero packets carry no bits, so the zero is no packet limit of the board but a figure too small for
    # TI's table (0.6 Mbit/s of 1400-byte datagrams is ~54 packets/s): the healthy board carries 0.60 Mbit/s.
    values = {"throughput (Mbits/sec)": 0.6, "packets per second (kPPS)": 0.0, "cpu load (%)": 56.22}
    m = iperf3.parse(sim_iperf3.render("iperf3 -c h -u -b 0 -l 1400 -t 10 -J", values, random.Random(5)))
    assert m["throughput (Mbits/sec)"] == pytest.approx(0.6, rel=0.01)
    assert m["packets per second (kPPS)"] >= 0.0


def test_bound_client_real_capture_and_the_sim_print_the_bound_address_as_local_host() -> None:
    """A client bound with -B (perfgate on another Ethernet port than the default): real iperf 3.12 prints the bound
    address as start.connected[].local_host and nothing else changes; the parser reads it as any run; the
    simulated board prints the same shape."""
    import json

    text = capture(FIX / "client-udp-reverse-bind-B-l1426-t1.json")
    real = json.loads(text)
    assert real["start"]["connected"][0]["local_host"] == "127.0.0.1"
    m = iperf3.parse(text)
    assert m["datagram size (bytes)"] == 1426 and m["packet loss (%)"] == 0.0
    assert m["throughput (Mbits/sec)"] == pytest.approx(49.8591339417068)
    cmd = "iperf3 -c 192.168.2.1 -B 192.168.2.100 -p 5201 -u -b 50000000 -l 1426 -t 2 -R -J"
    out = sim_iperf3.render(cmd, {"throughput (Mbits/sec)": 600.0}, random.Random(1))
    sim = json.loads(out)
    assert sim["start"]["connected"][0]["local_host"] == "192.168.2.100"
    assert sim["start"]["connected"][0]["remote_host"] == "192.168.2.1"
    assert set(sim["start"]["connected"][0]) == set(real["start"]["connected"][0])
    assert iperf3.parse(out, command=cmd)["datagram size (bytes)"] == 1426


# --- one stream reported by both ends (issue 21): counted once, an error when the two reports disagree ---------------

THROUGHPUT, SEND, LOSS = "throughput (Mbits/sec)", "send throughput (Mbits/sec)", "packet loss (%)"


def test_udp_stream_reported_by_the_server_and_the_client_is_counted_once() -> None:
    """TI's docs show the board's `iperf3 -s` summary and the client's summary of the same UDP stream in one log: the
    receiver line of stream [5] appears twice, once per end, with the same figures. It is one stream of 100 Mbit/s,
    not two (the reader added every receiver line and reported 200)."""
    text = capture(FIX / "udp-b100M-t2-server-then-client.txt")
    receivers = [line for line in text.splitlines() if line.startswith("[  5]") and line.rstrip().endswith("receiver")]
    assert len(receivers) == 2
    m = iperf3.parse(text, "iperf3 -c 127.0.0.1 -p 5401 -u -b 100M -t 2")
    assert m[THROUGHPUT] == pytest.approx(100.0)
    assert m[LOSS] == 0.0
    # the docs' excerpt: only the two ends' summary blocks, no connection header left to tell the ends apart
    excerpt = "".join(
        line + "\n"
        for line in text.splitlines()
        if line.startswith("[ ID]") or line.rstrip().endswith(("sender", "receiver"))
    )
    assert excerpt.count("receiver") == 2
    assert iperf3.parse(excerpt)[THROUGHPUT] == pytest.approx(100.0)


def test_tcp_stream_reported_by_both_ends_and_get_server_output_are_counted_once() -> None:
    assert iperf3.parse(capture(FIX / "tcp-t2-server-then-client.txt"))[THROUGHPUT] == pytest.approx(20100.0)
    m = iperf3.parse(capture(FIX / "udp-b100M-t2-get-server-output.txt"))
    assert m[THROUGHPUT] == pytest.approx(100.0) and m[SEND] == pytest.approx(100.0)
    m = iperf3.parse(capture(FIX / "tcp-reverse-t1-get-server-output.txt"))
    assert m[THROUGHPUT] == pytest.approx(21700.0) and m[SEND] == pytest.approx(21700.0)


def test_parallel_streams_with_server_output_read_the_sum_once() -> None:
    """-P 2 -t 2: several interval blocks (three separators) are one run; with --get-server-output the server's
    [SUM] receiver line repeats the client's, and the server numbers its streams [5] [6] where the client says
    [5] [7]."""
    assert iperf3.parse(capture(FIX / "udp-P2-b100M-t2.txt"))[THROUGHPUT] == pytest.approx(200.0)
    assert iperf3.parse(capture(FIX / "udp-P2-b100M-t2-get-server-output.txt"))[THROUGHPUT] == pytest.approx(200.0)
    m = iperf3.parse(capture(FIX / "tcp-P2-t2-get-server-output.txt"))
    assert m[THROUGHPUT] == pytest.approx(18500.0) and m[SEND] == pytest.approx(18600.0)
    m = iperf3.parse(capture(FIX / "udp-reverse-P2-b100M-t1-get-server-output.txt"))
    assert m[THROUGHPUT] == pytest.approx(200.0) and m[SEND] == pytest.approx(200.0)


def test_bidir_with_server_output_adds_each_direction_once() -> None:
    """--bidir --get-server-output: the server's [5][RX-S] receiver line is the client's [5][TX-C] receiver line
    (the same stream, seen from the other end); the client's [7][RX-C] summary comes after the server output."""
    m = iperf3.parse(capture(FIX / "tcp-bidir-t1-get-server-output.txt"))
    assert m[THROUGHPUT] == pytest.approx(6360.0 + 14900.0)
    assert m[SEND] == pytest.approx(6410.0 + 15000.0)


def test_one_stream_id_reported_twice_with_different_figures_is_an_error_naming_both_lines() -> None:
    text = capture(FIX / "tcp-two-ends-of-different-runs.txt")
    lines = [n for n, line in enumerate(text.splitlines(), 1) if line.rstrip().endswith("receiver")]
    assert len(lines) == 2
    with pytest.raises(ParseError) as e:
        iperf3.parse(text)
    message = str(e.value)
    assert "[5]" in message and f"line {lines[0]}" in message and f"line {lines[1]}" in message
    assert "20.1 Gbits/sec" in message and "18.7 Gbits/sec" in message
    assert e.value.line == lines[1]


def test_udp_text_summary_reads_packet_loss_and_rate_from_the_datagram_counts() -> None:
    """Packet loss from the text summary, not only from -J: `[SUM] ... 90873/1498514 (6.1%)  receiver` (the printed
    percentage is rounded; the counts are not), the same stream also in the server's log above."""
    text = capture(FIX / "udp-P2-b0-l18-t2-loss-server-then-client.txt")
    m = iperf3.parse(text, "iperf3 -c 127.0.0.1 -p 5408 -u -b 0 -l 18 -t 2 -P 2")
    assert m[LOSS] == pytest.approx(100.0 * 90873 / 1498514)
    assert m["packets per second (kPPS)"] == pytest.approx((1498514 - 90873) / 2.0 / 1e3)
    assert m["datagram size (bytes)"] == 18
    assert m[THROUGHPUT] == pytest.approx(101.0)
    # one stream of the docs' shape, per stream and no [SUM]: `0/763 (0%)`
    m = iperf3.parse(capture(FIX / "udp-b100M-t2-get-server-output.txt"))
    assert m[LOSS] == 0.0 and m["packets per second (kPPS)"] == pytest.approx(763 / 2.0 / 1e3)
    assert "datagram size (bytes)" not in m  # the text does not say it, and no -l was given
    # TCP prints no datagram counts: no loss is invented
    assert LOSS not in iperf3.parse(capture(FIX / "tcp-t2-server-then-client.txt"))


def test_udp_loss_of_the_docs_shape_keeps_its_precision() -> None:
    # constructed: the [SUM] receiver line TI's docs show (`1/235500 (0.00042%)`), in iperf 3.12's layout
    line = "[SUM]   0.00-60.00  sec  1.54 GBytes   220 Mbits/sec  0.011 ms  1/235500 (0.00042%)  receiver\n"
    assert iperf3.parse(line)[LOSS] == pytest.approx(100.0 / 235500)


@pytest.mark.skipif(not shutil.which("iperf3"), reason="needs iperf3 (setup.sh installs it)")
def test_live_udp_run_with_the_server_output_counts_the_stream_once(tmp_path: Path) -> None:
    """The real iperf3 here: a UDP run with --get-server-output, and the server's own log put before the client's
    output (a log of both ends): each reads one stream at the offered rate, not twice it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    log = tmp_path / "server.txt"
    with log.open("w") as out:
        server = subprocess.Popen(["iperf3", "-s", "-1", "-p", port], stdout=out, stderr=subprocess.STDOUT)
        try:
            client = ""
            for _ in range(50):  # the server listens within a moment
                run = subprocess.run(["iperf3", "-c", "127.0.0.1", "-p", port, "-u", "-b", "40M", "-t", "1",
                                      "--get-server-output"], capture_output=True, text=True, timeout=30)  # fmt: skip
                client = run.stdout
                if run.returncode == 0:
                    break
                time.sleep(0.1)
            server.wait(timeout=30)
        finally:
            server.kill()
    assert "Server output:" in client and client.count("receiver") == 2
    m = iperf3.parse(client)
    assert m[THROUGHPUT] == pytest.approx(40.0, rel=0.1) and LOSS in m
    assert iperf3.parse(log.read_text() + client)[THROUGHPUT] == m[THROUGHPUT]


def test_a_server_log_of_two_connections_is_two_runs() -> None:
    udp = capture(FIX / "udp-b100M-t2-server-then-client.txt").split("Connecting to host")[0]
    tcp = capture(FIX / "tcp-t2-server-then-client.txt").split("Connecting to host")[0]
    assert iperf3.parse(udp)[THROUGHPUT] == pytest.approx(100.0)  # the server's log alone reads
    with pytest.raises(ParseError, match="two iperf3 runs in one output: a header at line 4"):
        iperf3.parse(udp + tcp)


def test_iperf31_ends_with_their_own_ids_and_times_are_one_stream() -> None:
    """iperf 3.1's two ends of one run, quoted without headers: the ids differ ([5] server, [4] client), the server
    timed 10.04 s, the client 10.00 s; the same 1.09 GBytes is one stream (the reader added both: 1869)."""
    text = capture(FIX / "v3.1-server-then-client-tcp-excerpt.txt")
    m = iperf3.parse(text)
    assert m[THROUGHPUT] == pytest.approx(933.0)  # the first of the two; the client's 936 is the same stream
    assert m[SEND] == pytest.approx(942.0)  # the server's `0.00 Bytes` sender line is no stream
    with pytest.raises(ParseError, match=r"\[5\] receiver at line 3 .* \[4\] receiver at line 6 .*not one stream"):
        iperf3.parse(text.replace("1.09 GBytes   936", "1.19 GBytes  1020"))  # two runs: other bytes


def test_title_prefix_of_T_is_taken_off_and_several_titles_are_refused() -> None:
    """`iperf3 -T pri0` prints `pri0:  ` before every line (as in TI's CPSW CBS guide; real runs made here,
    corpus/title-T-*): read as without it; three titled clients in one output are three runs, refused naming each
    title; with --json the title is a member of the document, no prefix."""
    one = capture(FIX / "corpus" / "title-T-pri0-tcp-t1.txt")
    assert iperf3.parse(one) == iperf3.parse("\n".join(ln.removeprefix("pri0:  ") for ln in one.splitlines()))
    assert iperf3.parse(one)["throughput (Mbits/sec)"] == pytest.approx(16600.0)  # 16.6 Gbits/sec, the receiver
    with pytest.raises(ParseError, match=r"several iperf3 runs titled.*'pri0'.*'pri7'.*'pri6'"):
        iperf3.parse(capture(FIX / "corpus" / "title-T-three-concurrent-clients.txt"))
    assert iperf3.parse(capture(FIX / "corpus" / "title-T-pri0-tcp-t1-json.json"))["throughput (Mbits/sec)"] > 0


def test_a_udp_run_that_carried_no_packets_measured_zero_packets_per_second() -> None:
    """A real UDP client's JSON (client-udp-b100M-l1472-t2.json) made into a run that carried nothing (the sim's
    failed run through an IPSec tunnel: 0 bits, 0 packets). Its packet rate is 0, a run the judge sets aside as
    INVALID and runs again (perfgate.decision.validity); before, no packet rate at all made the packets criterion
    `not measured`, a FAIL with no rerun, on a healthy board (am62xx_sk aes256, SIM_SEED 31012)."""
    import json

    doc = json.loads(read("client-udp-b100M-l1472-t2.json"))
    for part in ("sum", "sum_sent", "sum_received"):
        if isinstance(doc["end"].get(part), dict):
            doc["end"][part].update(bits_per_second=0.0, bytes=0, packets=0, lost_packets=0, lost_percent=0.0)
    m = iperf3.parse(json.dumps(doc))
    assert m["throughput (Mbits/sec)"] == 0.0
    assert m["packets per second (kPPS)"] == 0.0
