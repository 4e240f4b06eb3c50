"""Issue 33: every version of TI's guides imports, or is reported, table by table and row by row.

Each trait is tested on a constructed guide excerpt (tests/fixtures/guides/history/, written here in TI's RST form
with invented numbers) whose first lines cite where the trait is seen in TexasInstruments/processor-sdk-doc's history:
path, revision and lines.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import paths
from perfgate.guides import history, identity
from perfgate.guides.diff import diff
from perfgate.guides.importer import Importer
from testpaths import FIXTURES

REPO = paths.root()
HISTORY = FIXTURES / "guides" / "history"
AM62X = HISTORY / "2025-12-18_fc5d30a0__devices__AM62X__linux__Linux_Performance_Guide.rst"


def one(path: Path, variables: Path | None = None):
    (gi,) = Importer(variables).run([path])
    return gi


def by(gi, **fields):
    return [c for c in gi.criteria if all(getattr(c, k) == v for k, v in fields.items())]


def line_of(path: Path, text: str, after: int = 0) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if i > after and text in ln)


@pytest.fixture
def variables(tmp_path: Path) -> Path:
    v = tmp_path / "variables"
    v.mkdir()
    for name in ("sections.yaml", "units.yaml", "directions.yaml"):
        shutil.copy(REPO / "variables" / name, v / name)
    shutil.copytree(REPO / "variables" / "boards", v / "boards")
    return v


# -- 1. one unknown metric never stops the import -----------------------------------------------------------------


def test_an_unknown_metric_is_reported_once_with_line_and_remedy_and_the_rest_imports(variables: Path):
    guide = HISTORY / "nvme-mibytes.rst"  # as AM64x RT 10.00 (8af5bfcf): `Write EXT4 Throughput (Mibytes/sec)`
    units = variables / "units.yaml"
    units.write_text(units.read_text().replace("  - {match: 'mibytes/sec', unit: MiB/s}\n", ""))
    gi = one(guide, variables)
    unknown = [e for e in gi.errors if "no direction rule" in e.message]
    assert len(unknown) == 2  # one per metric (write, read), not one per number
    write = next(e for e in unknown if "Write EXT4" in e.message)
    assert (write.path, write.line) == (guide.name, line_of(guide, '"4k","92.7"'))
    assert "4 numbers" in write.message and "variables/units.yaml" in write.message
    assert {c.metric for c in gi.criteria} == {"Write EXT4 CPU Load (%)", "Read EXT4 CPU Load (%)"}
    assert gi.reported == 8


def test_units_and_directions_for_the_history_s_metrics():
    nvme = one(HISTORY / "nvme-mibytes.rst")
    c = by(nvme, row="4k", metric="Write EXT4 Throughput (Mibytes/sec)")[0]
    assert (c.unit, c.direction, c.value) == ("MiB/s", "higher", 92.7)
    # 2018-2020 multi-board guides print `<board>: perf` over bare row names (d9d3043d)
    perf = one(HISTORY / "perf-columns.rst")
    assert not perf.errors
    units = {(c.suite, c.row): (c.unit, c.direction) for c in perf.criteria}
    assert units[("lmbench", "bw_mmap_rd-mo-1mb")] == ("MB/s", "higher")
    assert units[("lmbench", "lat_mem_rd-stride128-sz250k")] == ("ns", "lower")
    assert units[("lmbench", "lat_proc-exec")] == ("us", "lower")
    assert units[("lmbench", "lat_fs-10k")] == ("num_files", "higher")
    assert units[("dhrystone", "cpu_clock")] == ("MHz", "match")
    assert units[("dhrystone", "dhrystone_per_mhz")] == ("DMIPS/MHz", "higher")


def test_a_partial_import_exits_1_and_writes_what_it_read(tmp_path: Path):
    root = tmp_path / "root"
    (root / "variables").mkdir(parents=True)
    for name in ("sections.yaml", "units.yaml", "directions.yaml"):
        shutil.copy(REPO / "variables" / name, root / "variables" / name)
    shutil.copytree(REPO / "variables" / "boards", root / "variables" / "boards")
    guide = HISTORY / "printed-twice.rst"
    env = {**os.environ, "PERFGATE_ROOT": str(root), "PERFGATE_GUIDES": str(HISTORY)}
    r = subprocess.run([sys.executable, "-m", "perfgate", "import", "-q", str(guide)], capture_output=True, text=True,
                       env=env, timeout=60, check=False)  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert f"{guide.name}:{line_of(guide, '12.96 (min')}: a table printed 2 times" in r.stderr
    assert "partial: 1 problems reported above, 4 published numbers not imported" in r.stderr
    written = sorted(p.relative_to(root / "variables" / "thresholds").as_posix()
                     for p in (root / "variables" / "thresholds").rglob("*.csv"))  # fmt: skip
    assert "j721e_idk_gw/09.01.00/boot_time.csv" in written and "am62lxx_evm/09.01.00/ospi.csv" in written


# -- 3. a table or row printed twice ------------------------------------------------------------------------------


def test_identical_copies_collapse_and_differing_copies_are_reported():
    guide = HISTORY / "printed-twice.rst"
    gi = one(guide)
    # as AM62Lx (4fbbae76), the OSPI raw table printed twice with the same number: one criterion
    ospi = by(gi, board="am62lxx_evm", suite="ospi", table="OSPI NOR read through the raw MTD device")
    assert [(c.row, c.value, c.source) for c in ospi] == [("50", 16.84, f"{guide.name}:{line_of(guide, '16.84')}")]
    assert gi.collapsed == 1
    # as the J7 guide (f9360c53), the boot-time table printed again for j7200 with other numbers (12.96 s, then
    # 15.08 s): reported, none imported
    assert not by(gi, board="j7200_evm", suite="boot_time")
    clashes = [e for e in gi.errors if "printed 2 times" in e.message]  # one problem for the table, not one a row
    first, again = line_of(guide, "12.96 (min"), line_of(guide, "15.08 (min")
    assert len(clashes) == 1 and f"line {first} = 12.96, line {again} = 15.08" in clashes[0].message
    assert f"line {first + 1} = 4.44, line {again + 1} = 4.26" in clashes[0].message and "remedy" in clashes[0].message
    assert len(by(gi, board="j721e_idk_gw", suite="boot_time")) == 2  # the rest of the table imports


# -- 4. review decisions keyed by the guide's identity ------------------------------------------------------------


def test_identity_of_shipped_and_history_file_names():
    assert identity.identity("linux-12.00.00-am62x.rst") == "am62x linux"
    assert identity.identity("rt-linux-am64x.rst") == "am64x rt"
    assert identity.identity(AM62X.name) == "am62x linux"
    assert identity.identity("2025-07-18_9fee643a__devices__AM64X__linux__RT_Linux_Performance_Guide.rst") == "am64x rt"
    assert identity.identity("2023-11-27_f9360c53__devices__J7_Family__linux___Release_Specific_Kernel_"
                             "Performance_Guide.rst") == "j7 linux"  # fmt: skip
    assert identity.identity("2018-03-28_2609fa53__linux__Release_Specific__Performance_Guide__RT_Kernel_"
                             "Performance_Guide.rst") == "processor-sdk rt"  # fmt: skip


def test_table_boards_carry_to_every_version_of_the_guide(tmp_path: Path):
    # as AM62x 11.02.08.02 (fc5d30a0): three Evaluation Modules, power tables whose columns name no board
    gi = one(AM62X)
    power = by(gi, suite="low_power")
    assert len(power) == 12 and {c.board for c in power} == {"am62xx_sk"}
    assert {c.table for c in power} == {"Deep Sleep Power Performance", "MCU Only Power Performance"}
    # the same text under a name that is no version of the AM62x Linux guide keeps no decision: reported
    other = tmp_path / "linux-11.02-am62ax.rst"
    other.write_text(AM62X.read_text())
    gi = one(other)
    assert not by(gi, suite="low_power")
    assert any("table_boards (identity: 'am62ax linux')" in e.message for e in gi.errors)


# -- 5. every table format TI used since 2018 ----------------------------------------------------------------------


def test_2018_multi_board_lists_and_refused_power_lists():
    guide = HISTORY / "export-2018-lists.rst"  # as 2609fa53: release, boards, then name + one value a board
    gi = one(guide)
    lat = by(gi, row="af_unix_sock_stream_latency (microsec)")
    assert {(c.board, c.value) for c in lat} == {
        ("am335x_evm", 39.87), ("am43xx_gpevm", 25.12), ("am57xx_evm", 33.06), ("k2g_evm", 46.71),
        ("omapl138_lcdk", 712.40),
    }  # fmt: skip
    assert {c.release for c in gi.criteria} == {"2017.05"}
    # USBHOST (the first list at 2017.05): rows with 4 values for 5 boards are reported one by one, the others import
    first = line_of(guide, "write\\_102400\\_cpuload (%)")
    assert any(e.line == first and "4 values for 5 columns" in e.message for e in gi.errors)
    assert not by(gi, row="write_102400_cpuload (%)", board="am335x_evm")
    assert len(by(gi, row="read_5242880_throughput (MBytes/sec)")) == 5
    # the next list, where no row fits its boards, is one problem (not one a row)
    second = [e for e in gi.errors if e.line > first + 30 and "values for 5 columns" in e.message]
    assert len(second) == 1 and second[0].message.startswith("every row has 4 values for 5 columns")
    # the power list (bold headers, no release, no board) is refused with the reason, its numbers counted
    refused = [e for e in gi.errors if "bold column headers" in e.message]
    assert len(refused) == 1 and "no board is named" in refused[0].message
    assert refused[0].line == line_of(guide, "**Test Case**")
    assert gi.reported >= 6 * 4 + 10 * 4 + 25


def test_2018_grid_tables_without_separator_and_transposed():
    guide = HISTORY / "export-2018-grids.rst"  # as 907fc098
    gi = one(guide)
    assert not gi.errors
    rates = by(gi, suite="glbenchmark", row="GLB25_TriangleTexTestC24Z16 test")
    assert {(c.board, c.value) for c in rates} == {
        ("am335x_evm", 10984412.0), ("am43xx_gpevm", 12046935.0), ("am57xx_evm", 98873140.0)}  # fmt: skip
    assert all(c.context == "Test Number=2500301.0" for c in rates)
    # one column a board, one row a metric; the packet size row is the context of the others
    tput = by(gi, suite="ethernet", board="am57xx_evm", row="throughput (Mbits/s)")
    assert [(c.value, c.unit, c.context) for c in tput] == [
        (47.6, "Mbits/sec", "packet_size (bytes)=64.0"), (94.4, "Mbits/sec", "packet_size (bytes)=128.0")]  # fmt: skip
    assert tput[0].table == "Ethernet__eth0_1G Ethernet_performance_UDP_64B_egress"


def test_tab_indented_header():
    guide = HISTORY / "tab-indented-header.rst"  # as AM64x RT (9fee643a): `<TAB>:header:`
    gi = one(guide)
    assert not gi.errors
    pacing = by(gi, table="CPSW2g TCP both ways at once with interrupt pacing")
    assert sorted(c.value for c in pacing) == [96.81, 1174.52]
    assert len(by(gi, table="CPSW2g UDP egress with no datagram lost")) == 5 * 3  # tab-indented rows, not a caption


def test_emphasis_around_titles_is_not_part_of_them():
    gi = one(HISTORY / "emphasis-captions.rst")  # as the 2023 RT guide (f8dd1bfb): `Table:  *<title>*`
    assert not gi.errors
    assert {(c.table, c.suite) for c in gi.criteria} == {
        ("Dhrystone on each board", "dhrystone"), ("Whetstone on each board", "whetstone")}  # fmt: skip
    assert not any("*" in c.name or "*" in c.id for c in gi.criteria)


def test_per_core_cells_are_one_number_per_cpu():
    gi = one(HISTORY / "per-core.rst")  # as the 08.06.00 RT guide (2712d347): `"am62xx_sk:per-core"`, `"5,5,5,5"`
    assert not gi.errors
    top = {(c.board, c.metric): c.value for c in gi.criteria if c.row == "Maximum (usec)"}
    sk = {("am62xx_sk", f"CPU {n}"): v for n, v in enumerate([58.0, 71.0, 39.0, 44.0])}
    assert top == {**sk, ("am64xx_evm", "CPU 0"): 131.0, ("am64xx_evm", "CPU 1"): 97.0}
    assert {(c.suite, c.unit, c.direction, c.release) for c in gi.criteria} == {("rt_latency", "us", "lower",
                                                                                 "08.06.00-RT")}  # fmt: skip


def test_power_tables_under_an_unrelated_heading_are_power():
    gi = one(AM62X)  # as fc5d30a0: rail tables whose titles and columns name no power-related suite or board
    assert {(c.suite, c.chapter) for c in gi.criteria} == {("low_power", "power")}
    c = by(gi, table="MCU Only Power Performance", row="vdd_core")[0]
    assert (c.value, c.unit, c.direction, c.context) == (104.36, "mW", "lower", "Rail voltage(V)=0.85")


# -- 6. many versions of one release, side by side ----------------------------------------------------------------


def test_history_releases_rule_and_side_by_side_import(tmp_path: Path):
    folder = HISTORY / "versions"
    committed = {p: p.read_bytes() for p in (REPO / "variables" / "thresholds").rglob("*.csv")}
    h = history.import_history(folder, tmp_path / "out")
    got = {v.revision[:8]: v for v in h.versions}
    assert got["f9360c53"].release == "09.01.00" and not got["f9360c53"].assumed
    # 1ea03ae4 states no release: the newest any guide had stated by its date (the J7 guide's 09.01.00)
    assert got["1ea03ae4"].release == "09.01.00" and "newest release any guide had stated" in got["1ea03ae4"].assumed
    # two versions state 09.02.00: the newer gives the release's thresholds
    assert (got["c380954b"].release, got["3d155cdc"].release) == ("09.02.00", "09.02.00")
    assert got["3d155cdc"].chosen and not got["c380954b"].chosen
    out = tmp_path / "out"
    assert (out / "versions" / Path(got["c380954b"].file).stem / "am62xx_sk" / "09.02.00" / "dhrystone.csv").is_file()
    chosen = (out / "variables" / "thresholds" / "am62xx_sk" / "09.02.00" / "dhrystone.csv").read_text()
    assert "c380954b" not in chosen and got["3d155cdc"].file in chosen
    saved = json.loads((out / "history.json").read_text())
    assert {v["file"] for v in saved["versions"]} == {v.file for v in h.versions}
    # the committed thresholds are not touched
    assert committed == {p: p.read_bytes() for p in (REPO / "variables" / "thresholds").rglob("*.csv")}
    # 7. what changed between two releases, number by number (the table was renamed: matched by row and metric)
    changes = {(c.board, c.name): c for c in diff(out / "variables" / "thresholds", "09.01.00", "09.02.00")}
    mhz = next(c for (b, n), c in changes.items() if b == "am62xx_sk" and "dhrystone_per_mhz" in n)
    assert (mhz.a, mhz.b, mhz.verdict) == (2.9, 3.0, "better")
    lp = next(c for (b, n), c in changes.items() if b == "am62xx_lp_sk" and "dhrystone_per_mhz" in n)
    assert lp.verdict == "same"


def test_history_command_refuses_to_write_into_variables():
    out = str(paths.variables() / "history")
    r = subprocess.run([sys.executable, "-m", "perfgate", "guides", "history", str(HISTORY / "versions"), "--out", out],
                       capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert r.returncode == 2 and "inside" in r.stderr
    assert not (paths.variables() / "history").exists()


# -- the history benchmark -----------------------------------------------------------------------------------------


def _bench(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "benchmarks" / "import_history.py"), str(folder)],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_history_benchmark_counts_published_imported_and_reported(tmp_path: Path):
    r = _bench(HISTORY)
    assert r.returncode == 0, r.stdout + r.stderr
    # the 2018 lists: 149 numbers by the benchmark's own count; 60 imported, the rest reported with a reason
    assert "      149       60       89  100.0%  export-2018-lists.rst" in r.stdout
    assert "stopped whole 0, tracebacks 0" in r.stdout and r.stdout.rstrip().endswith("OK")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _bench(empty)
    assert r.returncode == 1 and "NOTHING MEASURED" in r.stdout and not r.stdout.rstrip().endswith("OK")


def test_guides_diff_between_two_committed_releases():
    r = subprocess.run([sys.executable, "-m", "perfgate", "guides", "diff", "10.00", "12.00.00", "--board", "am62xx_sk",
                        "--json"], capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    changes = json.loads(r.stdout)
    paired = [c for c in changes if c["a"] is not None and c["b"] is not None]
    assert paired and {c["verdict"] for c in changes} >= {"better", "worse", "added"}
    for c in paired:  # better and worse follow the criterion's direction
        if c["verdict"] == "better":
            assert (c["b"] > c["a"]) == (c["direction"] == "higher")
        if c["verdict"] == "worse":
            assert (c["b"] < c["a"]) == (c["direction"] == "higher")
    r = subprocess.run([sys.executable, "-m", "perfgate", "guides", "diff", "10.00", "9.99", "--board", "am62xx_sk"],
                       capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert r.returncode == 2 and "releases there: 10.00, 12.00.00" in r.stderr
