"""System Benchmarks parsers on their fixtures (tests/fixtures/<tool>/, see each PROVENANCE.md): every gotcha of
/work/shared/reference/tool-outputs.md, errors instead of zeros, and the values the AM62x guide publishes."""

from __future__ import annotations

import random

import pytest

from captures import capture
from perfgate import criteria, tools
from perfgate.errors import ParseError
from perfgate.sim.tools import coremark_pro as sim_coremark_pro
from perfgate.sim.tools import dhrystone as sim_dhrystone
from perfgate.sim.tools import lmbench as sim_lmbench
from perfgate.sim.tools import nbench as sim_nbench
from perfgate.sim.tools import whetstone as sim_whetstone
from perfgate.tools import coremark_pro, dhrystone, lmbench, nbench, whetstone
from seed_releases import seed
from testpaths import FIXTURES

FIX = FIXTURES


def text(tool: str, name: str) -> str:
    return (FIX / tool / name).read_text(encoding="utf-8")


def test_every_fixture_is_in_its_provenance() -> None:
    for tool in ("lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark-pro", "multibench"):
        prov = (FIX / tool / "PROVENANCE.md").read_text(encoding="utf-8")
        for f in (FIX / tool).glob("*.txt"):
            assert f"`{f.name}`" in prov, f"{f} is not described in {tool}/PROVENANCE.md"


# --------------------------------------------------------------------------------------------------- LMBench
def test_lmbench_labelled_lines_and_summary_names() -> None:
    m = tools.parse("lmbench", text("lmbench", "lat-labelled.txt"))
    assert m["lat_syscall-null (us)"] == 0.46
    assert m["lat_syscall-open (us)"] == 169.09
    assert m["lat_tcp (us)"] == 0.94
    assert m["lat_proc-proccall (us)"] == 0.01
    assert m["lat_proc-exec (us)"] == 1103.0
    assert m["lat_sig-prot (us)"] == 0.95
    assert m["lat_pagefault (us)"] == 1.49
    assert m["bw_unix (MB/s)"] == 633.32
    # TI publishes the same numbers under its summary names
    assert m["tcp_latency_using_localhost (microsec)"] == m["lat_tcp (us)"]
    assert m["af_unix_socket_stream_bandwidth (MBs)"] == m["bw_unix (MB/s)"]
    assert m["pipe_latency (microsec)"] == m["lat_pipe (us)"] == 22.16
    assert m["signal_handler_overhead (microsec)"] == m["lat_sig-catch (us)"] == 5.33
    assert m["select_on_200_tcp_fds (microsec)"] == 36.07
    assert m["tcp_ip_connection_cost_to_localhost (microsec)"] == 52.95


def test_lmbench_lat_mem_rd_rows_are_named_by_size() -> None:
    m = tools.parse("lmbench", text("lmbench", "lat_mem_rd-1M-128.txt"), command="lat_mem_rd 1M 128 2>&1")
    assert m["lat_mem_rd-stride128-sz31k (ns)"] == 3.652
    assert m["lat_mem_rd-stride128-sz62k (ns)"] == 5.251
    assert m["lat_mem_rd-stride128-sz125k (ns)"] == 5.571
    assert m["lat_mem_rd-stride128-sz250k (ns)"] == 5.832
    assert m["lat_mem_rd-stride128-sz500k (ns)"] == 15.301
    assert m["lat_mem_rd-stride128-sz1000k (ns)"] == 52.614
    assert m["lat_mem_rd-stride128-sz50 (ns)"] == 2.151  # the smallest row
    assert m["latency_for_0.50_mb_block_size (nanosec)"] == 15.301
    # TI's parser averages the 1.00 MB row with a 0.00: the guides print "x (min 0.00, max <row>)"
    assert m["latency_for_1.00_mb_block_size (nanosec)"] == pytest.approx(52.614 / 2)


def test_lmbench_lat_ops_labels() -> None:
    m = tools.parse("lmbench", text("lmbench", "lat_ops.txt"))
    assert m["lat_ops-int-add (ns)"] == 0.72
    assert m["lat_ops-int-bit (ns)"] == 0.48
    assert m["lat_ops-int64-div (ns)"] == 6.80
    assert m["lat_ops-double-div (ns)"] == 15.74
    assert not [k for k in m if "bogomflops" in k]
    assert not [k for k in m if "integer" in k]


def test_lmbench_lat_ctx_and_lat_fs() -> None:
    m = tools.parse("lmbench", text("lmbench", "lat_ctx-s128K-2-4.txt"))
    assert m == {"lat_ctx-2-128k (us)": 6.48, "lat_ctx-4-128k (us)": 5.62}
    m = tools.parse("lmbench", text("lmbench", "lat_fs.txt"))
    assert m == {"lat_fs-0k (num_files)": 272, "lat_fs-1k (num_files)": 154, "lat_fs-4k (num_files)": 184,
                 "lat_fs-10k (num_files)": 108}  # fmt: skip


def test_lmbench_bare_pairs_are_named_from_the_command() -> None:
    assert tools.parse("lmbench", text("lmbench", "bw_mem-1M-rd.txt"), "bw_mem 1M rd 2>&1") == {
        "bw_mem-rd-1mb (MB/s)": 1301.12
    }
    assert tools.parse("lmbench", text("lmbench", "bw_mem-16M-bcopy.txt"), "/opt/lmbench/bw_mem 16M bcopy") == {
        "bw_mem-bcopy-16mb (MB/s)": 756.89
    }
    assert tools.parse("lmbench", text("lmbench", "bw_file_rd-1M-io_only.txt"), "bw_file_rd 1M io_only test1.txt") == {
        "bw_file_rd-io-1mb (MB/s)": 876.42
    }
    assert tools.parse("lmbench", text("lmbench", "lat_mmap-1M.txt"), "lat_mmap 1M test1.txt 2>&1") == {
        "lat_mmap-1m (us)": 68.0
    }
    with pytest.raises(ParseError, match="--command"):
        tools.parse("lmbench", text("lmbench", "bw_mem-1M-rd.txt"))


def test_lmbench_error_output_is_an_error_not_a_number() -> None:
    with pytest.raises(ParseError) as e:
        tools.parse("lmbench", text("lmbench", "error-no-file.txt"), "lat_syscall open test1.txt")
    assert e.value.line == 1
    with pytest.raises(ParseError):
        tools.parse("lmbench", "", "lat_pipe")


def _chain(board: str, mb: int) -> tuple[dict[str, float], dict[str, float]]:
    """The published bw_mem values of one size, and the per-operation results they imply (the guides' min/max)."""
    pub = {
        c.row.split(" ")[0]: c
        for c in criteria.load(board, "lmbench", release=seed(board))
        if c.row.startswith("bw_mem-") and c.row.endswith(f"-{mb}mb (MB/s)")
    }
    own: dict[str, float] = {}
    for op in reversed(lmbench.BW_MEM_OPS):
        c = pub[f"bw_mem-{op}-{mb}mb"]
        partner = lmbench.ti_partner(mb, op)
        if partner is None:
            own[op] = c.value
        elif c.min is None:  # both results were equal
            own[op] = c.value
            assert own[partner] == pytest.approx(c.value, abs=0.02)
        else:  # the guide's min and max are the two results: the partner's, and this operation's
            assert min(abs(own[partner] - c.min), abs(own[partner] - c.max)) <= 0.02
            own[op] = c.max if abs(own[partner] - c.min) < abs(own[partner] - c.max) else c.min
    return {k.split("-")[1]: c.value for k, c in pub.items()}, own


@pytest.mark.parametrize("board", ["am62xx_sk", "am62xx_lp_sk", "j721e_idk_gw", "am64xx_evm"])
@pytest.mark.parametrize("mb", [1, 2, 4, 8])
def test_lmbench_bw_mem_shared_names_reproduce_the_guide(board: str, mb: int) -> None:
    """TI's parser files each bw_mem result at 1-8 MB under its name and the previous operation's: the mean of two
    results is what the guide publishes. The loop output of real per-operation results reads back the guide."""
    if not criteria.load(board, "lmbench", release=seed(board)):
        pytest.skip(f"no LMBench criteria for {board} yet")
    published, own = _chain(board, mb)
    command = f'for op in {" ".join(lmbench.BW_MEM_OPS)}; do echo "bw_mem {mb}M $op"; bw_mem {mb}M $op; done 2>&1'
    out = "".join(f"bw_mem {mb}M {op}\n{mb * 1.048576:.2f} {own[op]:.2f}\n" for op in lmbench.BW_MEM_OPS)
    m = tools.parse("lmbench", out, command)
    for op, value in published.items():
        assert m[f"bw_mem-{op}-{mb}mb (MB/s)"] == pytest.approx(value, abs=0.02), op


def test_lmbench_keys_for_matches_what_the_parser_reads() -> None:
    rng = random.Random(5)
    loop = 'for op in rd bcopy; do echo "bw_mem 8M $op"; bw_mem 8M $op; done'
    for command in ["lat_ctx -s 256K 2 4 2>&1", "lat_mem_rd 1M 128", "lat_ops", "lat_fs", "lat_syscall stat f",
                    "bw_mmap_rd 1M open2close f", loop]:  # fmt: skip
        out = sim_lmbench.render(command, {}, rng)
        assert set(lmbench.parse(out, command)) == set(lmbench.keys_for(command)), command
    assert sim_lmbench.render("lat_tcp -s >/dev/null 2>&1", {}, rng) == ""
    assert lmbench.keys_for("lat_tcp -S localhost") == []


# --------------------------------------------------------------------------------------------------- Dhrystone
def test_dhrystone_ti_lines() -> None:
    m = tools.parse("dhrystone", text("dhrystone", "runDhrystone-am62xx_sk.txt"))
    assert m == {"dhrystone_per_second (DhrystoneP)": 7142857.0, "cpu_clock (MHz)": 1400.0,
                 "dhrystone_per_mhz (DMIPS/MHz)": 2.9}  # fmt: skip


def test_dhrystone_without_dmips_line_computes_it_as_ti() -> None:
    m = tools.parse("dhrystone", text("dhrystone", "no-dmips-line.txt"))
    assert m["dhrystone_per_mhz (DMIPS/MHz)"] == 2.9  # 7142857 / 1757 / 1400


def test_dhrystone_too_small_is_an_error() -> None:
    with pytest.raises(ParseError, match="too small"):
        tools.parse("dhrystone", text("dhrystone", "too-small.txt"))


def test_dhrystone_render_is_quantised_like_the_published_figures() -> None:
    rng = random.Random(1)
    seen = {round(dhrystone.parse(sim_dhrystone.render("dhrystone 40000000 1400",
                                                   {"dhrystone_per_second (DhrystoneP)": 7142857.0}, rng))
                  ["dhrystone_per_second (DhrystoneP)"]) for _ in range(20)}  # fmt: skip
    assert seen <= {round(4e7 / (n * 0.2)) for n in range(20, 40)}
    assert 7142857 in seen


# --------------------------------------------------------------------------------------------------- Whetstone
def test_whetstone_mips_and_kips() -> None:
    assert tools.parse("whetstone", text("whetstone", "runWhetstone-am62xx_sk.txt")) == {"whetstone (MIPS)": 10000.0}
    assert tools.parse("whetstone", text("whetstone", "kips-under-1000.txt")) == {"whetstone (MIPS)": 0.5}
    with pytest.raises(ParseError):
        tools.parse("whetstone", text("whetstone", "usage.txt"))


def test_whetstone_render_prints_kips_under_1000() -> None:
    out = sim_whetstone.render("whetstone 100000", {"whetstone (MIPS)": 0.5}, random.Random(0))
    assert "KIPS" in out and "MIPS" not in out
    assert whetstone.parse(out)["whetstone (MIPS)"] == pytest.approx(0.5, rel=0.05)


# --------------------------------------------------------------------------------------------------- Linpack
def test_linpack_result_after_the_stderr_table() -> None:
    assert tools.parse("linpack", text("linpack", "linpack-am62xx_sk.txt")) == {"linpack (Kflops)": 578100.0}


def test_linpack_table_without_result_is_an_error() -> None:
    with pytest.raises(ParseError, match="Kflops"):
        tools.parse("linpack", text("linpack", "table-only-crashed.txt"))


def test_linpack_new_version_table_gives_its_last_row() -> None:
    """netlib's linpackc.new prints runs of doubling repetitions (constructed after an Arm FVP's run,
    linpack/corpus/linpackc-new-table-constructed.txt): the last row, the run of 10 CPU seconds, is the result; a
    header with no row is no result."""
    out = capture(FIX / "linpack" / "corpus" / "linpackc-new-table-constructed.txt")
    assert tools.parse("linpack", out) == {"linpack (Kflops)": 185990.75}
    assert tools.parse("linpack", out.replace("  185990.750", "  99.5")) == {"linpack (Kflops)": 99.5}
    with pytest.raises(ParseError, match="Kflops"):
        tools.parse("linpack", "\n".join(out.splitlines()[:4]))


# --------------------------------------------------------------------------------------------------- NBench
def test_nbench_warning_pushes_the_value_to_the_next_line_and_exponents() -> None:
    m = tools.parse("nbench", text("nbench", "nbench-am62xx_sk.txt"))
    assert m["huffman (Iterations)"] == 1184.4  # after the two WARNING lines
    assert m["bitfield (Iterations)"] == 2.0562e08  # %15.5g exponent form
    assert m["numeric_sort (Iterations)"] == 628.9
    assert m["fourier (Iterations)"] == 22833.0
    assert m["lu_decomposition (Iterations)"] == 527.77
    assert len(m) == 10


def test_nbench_cut_after_a_warning_names_the_test_and_line() -> None:
    with pytest.raises(ParseError, match="HUFFMAN") as e:
        tools.parse("nbench", text("nbench", "cut-after-warning.txt"))
    assert e.value.line == 16


def test_nbench_render_round_trip_with_exponent_values() -> None:
    out = sim_nbench.render("nbench", {"fourier (Iterations)": 2.5e7}, random.Random(2))
    assert "e+07" in out
    assert nbench.parse(out)["fourier (Iterations)"] == pytest.approx(2.5e7, rel=0.02)


# --------------------------------------------------------------------------------------------------- STREAM
def test_stream_best_rates() -> None:
    assert tools.parse("stream", text("stream", "stream_c-am62xx_sk.txt")) == {
        "copy (MB/s)": 1637.6, "scale (MB/s)": 1830.5, "add (MB/s)": 1442.5, "triad (MB/s)": 1481.4}  # fmt: skip


def test_stream_lmbench_stream_lines() -> None:
    """LMBench's `stream` (constructed after TI's AM62L application note, stream/corpus/) prints `STREAM copy
    bandwidth: 2000.00 MB/sec`: read as the copy rate and so on; its latency lines and STREAM2's kernels are not
    STREAM rates; a kernel printed twice is refused."""
    out = capture(FIX / "stream" / "corpus" / "lmbench-stream-constructed.txt")
    assert tools.parse("stream", out) == {
        "copy (MB/s)": 2000.0, "scale (MB/s)": 1600.0, "add (MB/s)": 2000.0, "triad (MB/s)": 1600.0}  # fmt: skip
    stream2 = "\n".join(ln for ln in out.splitlines() if ln.startswith("STREAM2"))
    with pytest.raises(ParseError, match="STREAM <kernel> bandwidth"):
        tools.parse("stream", stream2)
    with pytest.raises(ParseError, match="copy twice"):
        tools.parse("stream", out + out)


def test_stream_failed_validation_is_an_error() -> None:
    with pytest.raises(ParseError, match="validation"):
        tools.parse("stream", text("stream", "failed-validation.txt"))


# --------------------------------------------------------------------------------------------------- CoreMark-PRO
def test_coremark_pro_one_context() -> None:
    m = tools.parse("coremark-pro", text("coremark-pro", "certify-all-c1-am62xx_sk.txt"))
    assert m["coremark-pro ()"] == 885.95
    assert m["cjpeg-rose7-preset (workloads/)"] == 42.02
    assert m["radix2-big-64k (workloads/)"] == 51.08


def test_coremark_pro_two_contexts_multicore_and_singlecore_columns() -> None:
    m = tools.parse("coremark-pro", text("coremark-pro", "certify-all-c2-am62xx_sk.txt"))
    assert m["coremark-pro ()"] == 1498.39
    assert m["single-core coremark-pro ()"] == 885.95
    assert m["sha-test (workloads/)"] == 158.73
    assert m["single-core sha-test (workloads/)"] == 80.65


def test_coremark_pro_mith_lines_only() -> None:
    m = tools.parse("coremark-pro", text("coremark-pro", "mith-log-only.txt"))
    assert m["zip-test (workloads/)"] == 20.83
    assert "coremark-pro ()" not in m  # the mark needs the results table: never made up


def test_coremark_pro_unreadable_table_row() -> None:
    with pytest.raises(ParseError, match="sha-test") as e:
        tools.parse("coremark-pro", text("coremark-pro", "bad-table-row.txt"))
    assert e.value.line


def test_coremark_pro_contexts_from_the_command() -> None:
    out = sim_coremark_pro.render("make XCMD='-c2' certify-all", {"core (workloads/)": 0.6}, random.Random(0))
    assert "-- core:contexts=2" in out and "-- core:contexts=1" in out
    assert coremark_pro.parse(out)["core (workloads/)"] == pytest.approx(0.6, rel=0.02)


# --------------------------------------------------------------------------------------------------- MultiBench
def test_multibench_mith_lines() -> None:
    m = tools.parse("multibench", text("multibench", "mith-am62xx_sk-excerpt.txt"))
    assert m["4m-check (workloads/)"] == 311.06
    assert m["empty-wld (workloads/)"] == 1.0
    assert m["x264-4mq (workloads/)"] == 0.56
    with pytest.raises(ParseError):
        tools.parse("multibench", text("multibench", "not-found.txt"))


# --------------------------------------------------------------------------------------------------- all tools
@pytest.mark.parametrize("tool", ["lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark-pro",
                                  "multibench"])  # fmt: skip
def test_garbage_is_an_error_never_zeros(tool: str) -> None:
    with pytest.raises(ParseError):
        tools.parse(
            tool, "Segmentation fault\n\x00\x07 random line noise\n", command="lat_pipe" if tool == "lmbench" else None
        )


@pytest.mark.parametrize(
    ("name", "command"),
    [("lat_mem_rd-1M-128.txt", "lat_mem_rd 1M 128 2>&1"), ("lat_ctx-s128K-2-4.txt", "lat_ctx -s 128K 2 4 2>&1"),
     ("lat_ops.txt", "lat_ops 2>&1"), ("lat_fs.txt", "lat_fs 2>&1"), ("bw_mem-1M-rd.txt", "bw_mem 1M rd 2>&1"),
     ("lat_mmap-1M.txt", "lat_mmap 1M test1.txt 2>&1")],
)  # fmt: skip
def test_lmbench_keys_for_matches_the_fixtures_not_only_the_sim(name: str, command: str) -> None:
    """What planning expects a command to yield is what the parser reads from the tool's own format (the fixtures
    under tests/fixtures/lmbench, PROVENANCE.md), not only from the sim's renderer."""
    assert set(lmbench.parse(text("lmbench", name), command)) == set(lmbench.keys_for(command))


def test_whetstone_of_another_program_is_refused_as_such() -> None:
    """Roy Longbottom's Whetstone (constructed after an AE350 run, whetstone/corpus/) ends with `MWIPS 512.500
    10.040`: refused naming the program, not as "not Whetstone output"."""
    out = capture(FIX / "whetstone" / "corpus" / "longbottom-mwips-constructed.txt")
    with pytest.raises(ParseError, match="Longbottom") as e:
        tools.parse("whetstone", out)
    assert e.value.line == 3
