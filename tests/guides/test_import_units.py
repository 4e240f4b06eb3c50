"""Units: the guides' spellings normalised in `unit`, kept verbatim in `metric` and `name`; short rows."""

from __future__ import annotations

import pytest

from perfgate import paths
from perfgate.guides.importer import Importer, guide_files
from perfgate.guides.units import Units


@pytest.fixture(scope="module")
def by_id():
    """The five seed guides' criteria (ids are unique within one release; these tests read the seed tables)."""
    seeds = [g for g in guide_files() if g.parent == paths.guides()]
    return {c.id: c for gi in Importer().run(seeds) for c in gi.criteria}


def test_the_current_guides_units():
    units = {c.unit for gi in Importer().run(guide_files()) for c in gi.criteria}
    assert {"ms", "mW", "us", "MB/s", "%"} <= units  # resume latency, power rails, cyclictest/RPMsg, crypto


@pytest.mark.parametrize(
    ("metric", "row", "unit"),
    [
        ("perf", "af_unix_socket_stream_bandwidth (MBs)", "MB/s"),
        ("perf", "pipe_bandwidth (mb\\s)", "MB/s"),
        ("perf", "bw_mem-rd-1mb (mb/s)", "MB/s"),
        ("perf", "af_unix_sock_stream_latency (microsec)", "us"),
        ("perf", "latency_for_0.50_mb_block_size (nanosec)", "ns"),
        ("perf", "cpu_clock (mhz)", "MHz"),
        ("perf", "dhrystone_per_mhz (dmips/mhz)", "DMIPS/MHz"),
        ("THROUGHPUT (Mbits/sec)", "64", "Mbits/sec"),
        ("Throughput (Mbps)", "aes128", "Mbits/sec"),
        ("", "throughput (Mbits/s)", "Mbits/sec"),
        ("CPU Load % (LOCAL_CPU_UTIL)", "64", "%"),
        ("CPU Load", "aes-128-cbc", "%"),
        ("Packet Loss %", "64", "%"),
        ("Write Throughput (Kbytes/sec)", "400000", "KB/s"),
        ("throughput (KBytes/Sec)", "sha1 / 16", "KB/s"),
        ("Raw Read Throughput (Mbytes/sec)", "50", "MB/s"),
        ("Transfer Rate (in MBytes/sec)", "102400", "MB/s"),
        ("boot time (sec)", "Kernel boot time test", "s"),
        ("Boot time in seconds: avg(min,max)", "Linux boot time from SD", "s"),
        ("", "aes-128-cbc_system_time (s)", "s"),
        ("Throughput (bits/sec)", "8000", "bits/s"),
        ("Fps", "1080p", "fps"),
        ("Latency", "L_PERF_SHIELD_SMP_NO_LOAD", "us"),
        ("", "Max Latencies", "us"),
    ],
)
def test_spellings(metric: str, row: str, unit: str):
    assert Units().unit(metric, row, "any") == unit


def test_metric_and_name_keep_the_guide_spelling(by_id):
    c = by_id["am43xx_gpevm.lmbench.lmbench-benchmarks.pipe-bandwidth-mb-s.perf"]
    assert (c.name, c.row, c.unit) == ("pipe_bandwidth (mb\\s)", "pipe_bandwidth (mb\\s)", "MB/s")
    c = by_id["am574x_idk.usb_msc.am574x-idk-usb-slave-read-performance-values.50.transfer-rate-mb-sec"]
    assert (c.metric, c.unit, c.value) == ("Transfer Rate (MB/sec)", "MB/s", 37.8)


def test_the_normalised_units(by_id):
    assert {c.unit for c in by_id.values()} == {
        "", "%", "DMIPS/MHz", "DhrystoneP", "KB/s", "Kflops", "MB/s", "MHz", "MIPS", "Mbits/sec", "bits/s", "fps",
        "iterations", "kpps", "mW", "ns", "num_files", "packets/s", "s", "samples", "score", "texels/s",
        "triangles/s", "us", "workloads/s",
    }  # fmt: skip
    assert {c.row for c in by_id.values() if c.unit == ""} == {"coremark-pro ()"}  # the guide prints "()"


def test_short_rows_miss_their_last_cells_never_shift(by_id):
    # CPSW2g UDP Ingress 0 loss, row 64: values for am62xx_lp_sk and am62xx_sk only
    table = "cpsw2g-udp-ingress-throughput-0-loss"
    assert by_id[f"am62xx_sk.ethernet.{table}.64.throughput-mbits-sec"].value == 17.93
    assert by_id[f"am62xx_lp_sk.ethernet.{table}.64.throughput-mbits-sec"].value == 1.05
    assert f"am62xxsip_sk.ethernet.{table}.64.throughput-mbits-sec" not in by_id
    assert by_id[f"am62xxsip_sk.ethernet.{table}.128.throughput-mbits-sec"].value == 4.72
    # GFXBench 3.x rows: am62xx_lp_sk's Score and Fps only
    gfx = [c for c in by_id.values() if c.suite == "gfxbench"]
    assert sorted((c.board, c.name, c.value) for c in gfx if "3.x" in c.row) == [
        ("am62xx_lp_sk", "GFXBench 3.x gl_manhattan_off · Fps", 1.33),
        ("am62xx_lp_sk", "GFXBench 3.x gl_manhattan_off · Score", 82.32),
        ("am62xx_lp_sk", "GFXBench 3.x gl_trex_off · Fps", 2.2),
        ("am62xx_lp_sk", "GFXBench 3.x gl_trex_off · Score", 122.97),
    ]
    # J7 Glmark2-DRM: two values under three boards
    drm = {c.board: c.value for c in by_id.values() if c.suite == "glmark2" and c.row == "Glmark2-DRM"}
    assert {b: v for b, v in drm.items() if b.startswith("j7")} == {"j721e_idk_gw": 28.0, "j721s2_evm": 28.0}
