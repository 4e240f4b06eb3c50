"""The parsers on real output captured from the QEMU board (tests/fixtures/<tool>/qemu_arm64-*, see the
qemu_arm64-PROVENANCE.md beside them). Expected numbers are read off the captures by eye."""

from __future__ import annotations

import pytest

from perfgate.tools import parse
from testpaths import FIXTURES


def text(tool: str, name: str) -> str:
    return (FIXTURES / tool / f"qemu_arm64-{name}").read_text(encoding="utf-8")


def test_every_capture_has_provenance():
    for provenance_file in FIXTURES.glob("*/qemu_arm64-PROVENANCE.md"):
        provenance = provenance_file.read_text(encoding="utf-8")
        for f in provenance_file.parent.glob("qemu_arm64-*"):
            if f != provenance_file:
                assert f"`{f.name}`" in provenance, f"{f} has no provenance line in {provenance_file}"


def test_openssl_speed_with_busybox_time_v():
    m = parse("openssl", text("openssl", "time-v-aes-256-cbc.txt"),
              "time -v openssl speed -elapsed -seconds 1 -evp aes-256-cbc")  # fmt: skip
    assert m["aes-256-cbc/16384 (KBytes/s)"] == pytest.approx(17465.34)
    assert m["aes-256-cbc/16 (KBytes/s)"] == pytest.approx(9557.98)
    assert m["cpu load (%)"] == 99.0


def test_openssl_sha256():
    m = parse("openssl", text("openssl", "sha256.txt"), "openssl speed -elapsed -seconds 1 -evp sha256")
    assert set(m) == {f"sha256/{n} ({unit})" for n in (16, 64, 256, 1024, 8192, 16384) for unit in ("KBytes/s", "MB/s")}
    assert all(v > 0 for v in m.values())


def test_fio_static_psync_on_tmpfs():
    m = parse("fio", text("fio", "write-1m-json.json"))
    assert m["write throughput (MB/s)"] == pytest.approx(362.003401)
    m = parse("fio", text("fio", "randwrite-256k-normal.txt"))
    assert m["write iops"] == 834.0


def test_iperf3_through_qemu_user_networking():
    assert parse("iperf3", text("iperf3", "tcp-text.txt"))["throughput (Mbits/sec)"] == 14.4
    udp = parse("iperf3", text("iperf3", "udp-json.json"))
    assert udp["packet loss (%)"] == 0.0 and udp["datagram size (bytes)"] == 1472.0


def test_cyclictest_under_stress_ng():
    m = parse("cyclictest", text("cyclictest", "stress-hist.txt"))
    assert (m["min latency (us)"], m["max latency (us)"]) == (76.0, 43871.0)
    assert m["histogram overflows"] == 5619.0
    idle = parse("cyclictest", text("cyclictest", "idle-summary.txt"))
    assert idle["max latency (us)"] == 16341.0


def test_the_gates_own_evidence_from_the_board():
    boot = parse("boot", text("boot", "gate-boot-time-3-cycles.txt"), "boot-time default")
    assert boot["cycles"] == 3.0 and 4.8 < boot["boot time (sec)"] < 5.0
    fio = parse("fio", text("fio", "gate-ext4-virtio-write-read-1m.txt"))
    assert fio["mmcsd-ext4-1m-read: read throughput (MB/s)"] == pytest.approx(720.293309)
    osadl = parse("cyclictest", text("cyclictest", "gate-osadl-l50000.txt"))
    assert (osadl["samples"], osadl["max latency (us)"]) == (50000.0, 11952.0)
    bidir = parse("iperf3", text("iperf3", "gate-tcp-bidir-json.json"), "iperf3 -c 10.0.2.2 -p 5201 -t 5 --bidir -J")
    assert bidir["send throughput (Mbits/sec)"] > 0 and bidir["cpu load (%)"] > 0
