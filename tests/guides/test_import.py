"""The importer on the five real guides and on small malformed samples (tests/fixtures/guides/)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from guide_counts import AM57X_EXPECTED, RELEASES, count_guide
from perfgate import criteria, paths
from perfgate.guides.importer import Importer, guide_files
from perfgate.model import FIELDS
from testpaths import FIXTURES

REPO = paths.root()
GUIDES = paths.guides()
GUIDE_FIXTURES = FIXTURES / "guides"
BOARDS = {
    "am43xx_gpevm", "am574x_idk", "am62xx_lp_sk", "am62xx_sk", "am62xxsip_sk",
    "am64xx_evm", "j7200_evm", "j721e_idk_gw", "j721s2_evm", "j784s4_evm",
}  # fmt: skip


def perfgate(*args: str, root: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if root is not None:
        env["PERFGATE_ROOT"] = str(root)
        env["PERFGATE_GUIDES"] = str(GUIDES)
    return subprocess.run(
        [sys.executable, "-m", "perfgate", *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


SEEDS = [
    "linux-09.01.00-j7.rst",
    "linux-10.00-am62x.rst",
    "linux-11.02-am437x.rst",
    "rt-linux-2017.05-am57x.rst",
    "rt-linux-am64x.rst",
]


@pytest.fixture(scope="module")
def everything():
    """All fifteen guides imported together (releases side by side)."""
    return Importer().run(guide_files())


@pytest.fixture(scope="module")
def imported():
    """The five guides the importer was built on."""
    return Importer().run([GUIDES / name for name in SEEDS])


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A repository root with the importer's data files and the committed thresholds, to write into."""
    v = tmp_path / "variables"
    v.mkdir()
    for name in ("sections.yaml", "units.yaml", "directions.yaml"):
        shutil.copy(REPO / "variables" / name, v / name)
    shutil.copytree(REPO / "variables" / "boards", v / "boards")
    shutil.copytree(REPO / "variables" / "thresholds", v / "thresholds")
    return tmp_path


def test_committed_thresholds_match_the_guides():
    """`import --check` is the gate on the committed files: they regenerate from the guides."""
    r = perfgate("import", "--check", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "match the guides" in r.stdout


def _from_baseline(path: Path) -> bool:
    rows = criteria.read(path)
    return bool(rows) and all(c.guide.startswith("baseline") for c in rows)


def test_import_regenerates_byte_for_byte(scratch: Path):
    thresholds = scratch / "variables" / "thresholds"
    shutil.rmtree(thresholds)
    r = perfgate("import", root=scratch)
    assert r.returncode == 0, r.stderr
    committed = sorted(
        p.relative_to(REPO / "variables" / "thresholds")
        for p in paths.thresholds().rglob("*.csv")
        if not _from_baseline(p)  # `perfgate baseline` writes boards no guide covers (qemu_arm64)
    )
    regenerated = sorted(p.relative_to(thresholds) for p in thresholds.rglob("*.csv"))
    assert regenerated == committed
    for rel in committed:
        assert (thresholds / rel).read_bytes() == (paths.thresholds() / rel).read_bytes(), rel


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_check_fails_on_a_changed_missing_or_stale_file(scratch: Path):
    thresholds = scratch / "variables" / "thresholds"
    assert perfgate("import", "--check", "-q", root=scratch).returncode == 0
    f = thresholds / "am62xx_sk" / "10.00" / "stream.csv"
    f.write_text(f.read_text().replace("1637.6", "1637.7"))
    (thresholds / "j7200_evm" / "11.02" / "dhrystone.csv").unlink()
    stream = (thresholds / "am64xx_evm" / "unstated-RT" / "stream.csv").read_text()
    (thresholds / "am64xx_evm" / "unstated-RT" / "old_suite.csv").write_text(stream)  # a suite no longer published
    (thresholds / "am64xx_evm" / "stream.csv").write_text(stream)  # the layout before releases: no release folder
    (thresholds / "custom_board").mkdir()
    (thresholds / "custom_board" / "openssl.csv").write_text("not from a guide\n")  # `perfgate baseline`
    r = perfgate("import", "--check", "-q", root=scratch)
    assert r.returncode == 1
    assert "differs: " in r.stderr and "am62xx_sk/10.00/stream.csv" in r.stderr
    assert "missing: " in r.stderr and "j7200_evm/11.02/dhrystone.csv" in r.stderr
    assert "stale: " in r.stderr and "unstated-RT/old_suite.csv" in r.stderr
    assert "stale: " in r.stderr and "am64xx_evm/stream.csv" in r.stderr
    # import repairs all four
    assert perfgate("import", "-q", root=scratch).returncode == 0
    assert perfgate("import", "--check", "-q", root=scratch).returncode == 0
    assert not (thresholds / "am64xx_evm" / "unstated-RT" / "old_suite.csv").exists()
    assert not (thresholds / "am64xx_evm" / "stream.csv").exists()
    assert (thresholds / "custom_board" / "openssl.csv").exists()


def test_no_arguments_imports_the_fifteen_guides():
    names = [p.relative_to(GUIDES).as_posix() for p in guide_files()]
    assert names[:5] == SEEDS
    assert names[5:] == [
        "current/linux-11.01-am57x.rst",
        "current/linux-11.01-am62ax.rst",
        "current/linux-11.02-am335x.rst",
        "current/linux-11.02-j7.rst",
        "current/linux-12.00.00-am62x.rst",
        "current/linux-12.00.00-am64x.rst",
        "current/rt-linux-11.01-am62ax.rst",
        "current/rt-linux-11.02-am65x.rst",
        "current/rt-linux-12.00.00-am62x.rst",
        "current/rt-linux-12.00.00-am64x.rst",
    ]


def test_import_of_all_guides_exits_0_with_no_error(everything):
    assert [e for gi in everything for e in gi.errors] == []
    assert sum(len(gi.criteria) for gi in everything) > 9000


def test_ten_boards_each_with_one_guide_and_release(imported):
    boards = {c.board for gi in imported for c in gi.criteria}
    assert boards == BOARDS
    guide_of = {}
    for gi in imported:
        for c in gi.criteria:
            assert guide_of.setdefault(c.board, c.guide) == c.guide
    releases = {gi.name: gi.release for gi in imported}
    assert releases == {
        "linux-09.01.00-j7.rst": "09.01.00",
        "linux-10.00-am62x.rst": "10.00",
        "linux-11.02-am437x.rst": "11.02",
        "rt-linux-2017.05-am57x.rst": "2017.05-RT",  # an RT-Linux guide: a different SDK from Linux 2017.05
        "rt-linux-am64x.rst": "unstated-RT",  # the AM64x RT guide names no release
    }


def test_releases_of_the_current_guides(everything):
    releases = {gi.name: gi.release for gi in everything}
    assert releases["linux-12.00.00-am62x.rst"] == "12.00.00"
    assert releases["rt-linux-12.00.00-am64x.rst"] == "12.00.00-RT"
    assert releases["rt-linux-11.01-am62ax.rst"] == "11.01-RT"
    assert releases["linux-11.02-j7.rst"] == "11.02"


def test_boards_command_counts_match_an_independent_count():
    """Per board and release: `python -m perfgate boards --json` against regex counts over the raw guides
    (guide_counts.py), for the five seeds and the ten current guides."""
    r = perfgate("boards", "--json")
    assert r.returncode == 0, r.stderr
    listed = {(row["board"], rel["release"]): rel for row in json.loads(r.stdout) for rel in row["per_release"]}
    expected: Counter[tuple[str, str]] = Counter()
    for guide in guide_files():
        release = RELEASES[guide.name]
        expected += Counter({(board, release): n for board, n in count_guide(guide).items()})
    assert set(expected) == {k for k in listed if k[1] != "baseline"}
    for key, n in expected.items():
        assert listed[key]["criteria"] == n, key
    assert listed[("am574x_idk", "2017.05-RT")]["suites"] == AM57X_EXPECTED


def test_boards_command_prints_each_board_s_releases_newest_first():
    r = perfgate("boards")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("j7200_evm "))
    assert "11.02*" in lines[k] and "linux-11.02-j7.rst" in lines[k] and "lmbench 115" in lines[k]
    assert lines[k + 1].split()[:2] == ["09.01.00", "linux-09.01.00-j7.rst"]
    rows = {row["board"]: row for row in json.loads(perfgate("boards", "--json").stdout)}
    assert rows["am64xx_evm"]["releases"] == ["12.00.00-RT", "12.00.00", "unstated-RT"]
    assert rows["am62xx_sk"]["releases"] == ["12.00.00", "10.00"]
    assert rows["j721e_idk_gw"]["releases"] == ["11.02", "09.01.00"]


def test_criterion_fields(imported):
    allc = [c for gi in imported for c in gi.criteria]
    assert len({c.id for c in allc}) == len(allc)
    by_id = {c.id: c for c in allc}
    c = by_id["am62xx_sk.lmbench.lmbench-benchmarks.bw-mem-bzero-1mb-mb-s.perf"]
    assert (c.name, c.row, c.metric, c.unit) == ("bw_mem-bzero-1mb (MB/s)", "bw_mem-bzero-1mb (MB/s)", "perf", "MB/s")
    assert (c.value, c.min, c.max, c.direction) == (1263.86, 794.91, 1732.80, "higher")
    assert (c.chapter, c.suite, c.table, c.release) == ("system", "lmbench", "LMBench Benchmarks", "10.00")
    assert c.source == "linux-10.00-am62x.rst:82"
    # two key columns; hex sizes are keys; settings are context, not criteria
    c = by_id["j721e_idk_gw.openssl.openssl-performance.aes-128-cbc-1024.throughput-kbytes-sec"]
    assert (c.row, c.name, c.unit, c.value) == ("aes-128-cbc / 1024", "aes-128-cbc / 1024", "KB/s", 48453.63)
    c = by_id["am62xx_sk.uboot_emmc.uboot-emmc-raw.2000000.write-throughput-kbytes-sec"]
    assert (c.row, c.value, c.chapter) == ("2000000", 59470.05, "uboot")
    c = by_id["j721s2_evm.ethernet.cpsw-udp-egress-throughput.1518.throughput-mbits-sec"]
    assert c.context == "UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)=1472.00"
    assert c.name == "CPSW UDP Egress Throughput · 1518 · THROUGHPUT (Mbits/sec)"
    assert not any("Datagram" in x.metric or "Rail voltage" in x.metric for x in allc)
    # bare board column (low power), `n/a` is not a number; the rail voltage is context
    c = by_id["am62xx_sk.low_power.deep-sleep.vdd-core"]
    assert (c.name, c.value, c.unit, c.direction, c.context) == ("Deep sleep · vdd_core", 7.95, "mW", "lower",
                                                                 "Rail voltage(V)=0.85")  # fmt: skip
    assert "am62xx_sk.low_power.deep-sleep.vddr-core" not in by_id


def test_am57x_flat_lists(imported):
    by_id = {c.id: c for gi in imported for c in gi.criteria}
    lm = [c for c in by_id.values() if c.board == "am574x_idk" and c.suite == "lmbench"]
    names = {c.name for c in lm}
    assert "af_unix_socket_stream_bandwidt (MBs)" in names  # truncated as printed, unescaped
    assert "tcp_ip_connection_cost_to_loca (microsec)" in names
    assert not any("\\" in n for n in names)
    c = next(c for c in lm if c.name == "bw_mem-bzero-1mb (MB/s)")
    assert (c.value, c.min, c.max, c.source) == (3916.5, 3534.23, 4298.76, "rt-linux-2017.05-am57x.rst:74")
    c = by_id["am574x_idk.glbenchmark.glbenchmark-2-5-pixel-throughput.glb25-filltestc24z16-test.fps"]
    assert (c.value, c.min, c.max, c.context) == (30.71, 30.49, 31.0, "Test Number=2500101.0")
    udp = [c for c in by_id.values() if c.board == "am574x_idk" and c.suite == "ethernet"]
    assert len(udp) == 20 and all(c.context.startswith("packet_size (bytes)=") for c in udp)
    assert {c.release for c in udp} == {"2017.05-RT"}  # the guide's release, RT-Linux
    c = by_id["am574x_idk.rt_latency.osadl-test.max-latencies"]
    assert (c.value, c.unit, c.direction, c.context) == (27.0, "us", "lower", "Total=100000000")
    mmc = [c for c in by_id.values() if c.board == "am574x_idk" and c.suite == "mmcsd"]
    assert len(mmc) == 60 and len({c.name for c in mmc}) == 60


def test_ambiguous_tables_are_reported_and_skipped(imported):
    am57 = next(gi for gi in imported if gi.name.startswith("rt-linux-2017.05"))
    skipped = {tr.title: tr.skipped for tr in am57.results if tr.skipped}
    assert "cannot tell which column" in skipped["Ethernet performance table"]
    assert skipped["Sensor Capture"].startswith("no values")
    assert not any(c.table == "Ethernet performance table" for c in am57.criteria)


def test_guide_names_stay_distinct_and_unique_per_file(imported):
    for board in BOARDS:
        for suite in {c.suite for gi in imported for c in gi.criteria if c.board == board}:
            names = [c.name.casefold() for gi in imported for c in gi.criteria if c.board == board and c.suite == suite]
            assert len(names) == len(set(names)), (board, suite)
    # published twice under two names: two criteria
    am62 = {c.name for gi in imported for c in gi.criteria if c.board == "am62xx_sk" and c.suite == "lmbench"}
    assert {"lat_tcp (us)", "tcp_latency_using_localhost (microsec)"} <= am62
    # two rows differing only in case (AM62x boot time) stay two criteria
    boot = [c for gi in imported for c in gi.criteria if c.board == "am62xx_lp_sk" and c.suite == "boot_time"]
    assert [c.value for c in boot] == [17.28, 4.42, 23.13]
    assert boot[2].name.endswith(" #2") and boot[2].id.endswith("-2")


def test_threshold_files_are_readable_and_complete():
    for board in BOARDS:
        for release in criteria.releases(board):
            for suite in criteria.suites_of(board, release):
                for c in criteria.read(criteria.release_dir(board, release) / f"{suite}.csv"):
                    assert c.board == board and c.suite == suite and c.release == release
                    assert c.direction in ("higher", "lower", "match")
                    assert set(c.to_json()) == set(FIELDS)


def test_malformed_csv_table_names_file_and_line_and_the_rest_imports(scratch: Path):
    guide = GUIDE_FIXTURES / "malformed.rst"
    r = perfgate("import", str(guide), root=scratch)
    assert r.returncode == 1
    assert "malformed.rst:15: malformed csv row" in r.stderr  # unbalanced quote
    assert "malformed.rst:23: row has 3 cells, the header has 2" in r.stderr
    written = criteria.read(scratch / "variables" / "thresholds" / "am62xx_sk" / "99.01" / "linpack.csv")
    assert [(c.name, c.value, c.source) for c in written] == [("linpack (Kflops)", 578100.0, "malformed.rst:31")]
    # the files of the other guides are not this guide's: importing it leaves them alone
    assert criteria.read(scratch / "variables" / "thresholds" / "am62xx_sk" / "10.00" / "dhrystone.csv")[0].guide == (
        "linux-10.00-am62x.rst"
    )
    assert (scratch / "variables" / "thresholds" / "am62xx_sk" / "10.00" / "lmbench.csv").exists()


def test_flat_list_forms():
    (gi,) = Importer().run([GUIDE_FIXTURES / "flat.rst"])
    got = {(c.suite, c.name): c for c in gi.criteria}
    assert set(got) == {
        ("stream", "copy (MB/s)"),
        ("stream", "triad (MB/s)"),
        ("ethernet", "throughput (Mbits/s)"),
        ("emmc", "102400 · Write EXT4 Throughput (Mbytes/sec)"),
        ("emmc", "102400 · Read EXT4 CPU Load (%)"),
        ("emmc", "262144 · Write EXT4 Throughput (Mbytes/sec)"),
        ("emmc", "262144 · Read EXT4 CPU Load (%)"),
    }
    c = got[("stream", "triad (MB/s)")]
    # the release is the guide's (the first `**2017.05**` line): a list's own `**2017.05-RT**` does not split it
    assert (c.value, c.min, c.max, c.table, c.release) == (2834.9, 2800.1, 2870.0, "Stream Benchmarks", "2017.05")
    c = got[("ethernet", "throughput (Mbits/s)")]
    assert (c.context, c.unit, c.release, c.source) == ("packet_size (bytes)=64.0", "Mbits/sec", "2017.05",
                                                        "flat.rst:41")  # fmt: skip
    assert got[("emmc", "262144 · Write EXT4 Throughput (Mbytes/sec)")].min == 40.0
    skipped = {tr.title: tr.skipped for tr in gi.results if tr.skipped}
    assert set(skipped) == {"Ethernet performance table", "Sensor Capture"}
    assert gi.errors == []


def test_unreadable_guide_is_an_error_with_its_path(tmp_path: Path):
    r = perfgate("import", "--check", str(tmp_path / "nope.rst"))
    assert r.returncode == 2
    assert "nope.rst: cannot read guide" in r.stderr


def test_a_table_no_section_rule_places_is_an_error(scratch: Path):
    guide = scratch / "linux-99.02-frob.rst"
    guide.write_text(
        "Frobnicator\n-----------\n\n.. csv-table:: Frob rate\n"
        '    :header: "Size","am62xx_sk-fs: Rate (MB/s)"\n\n    "1m","12.5"\n'
    )
    r = perfgate("import", str(guide), root=scratch)
    assert r.returncode == 1
    assert "linux-99.02-frob.rst:4: no suite in variables/sections.yaml matches its titles: Frobnicator" in r.stderr


def test_import_report_names_tables_read_criteria_per_board_and_skips():
    r = perfgate("import", "--check", str(GUIDES / "rt-linux-2017.05-am57x.rst"))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("rt-linux-2017.05-am57x.rst (release 2017.05-RT): ")
    assert "  am574x_idk: 454 criteria (decode 17, dhrystone 3, display 36," in out
    assert "  read     rt-linux-2017.05-am57x.rst:51 flat-pairs 'LMBench' -> lmbench: 112" in out
    assert "  skipped  rt-linux-2017.05-am57x.rst:760 flat-list 'Ethernet performance table': " in out
    assert "  skipped  rt-linux-2017.05-am57x.rst:466 flat-list 'Sensor Capture': no values" in out
    assert "  skipped  rt-linux-2017.05-am57x.rst:8 grid-table 'Evaluation Modules': board descriptions" in out
    assert "29 histogram bins" in out
