"""cyclictest parser on real rt-tests 2.4 captures (tests/fixtures/cyclictest/PROVENANCE.md) and the sim round trip."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import cyclictest as sim_cyclictest
from perfgate.tools import cyclictest
from testpaths import FIXTURES

FIX = FIXTURES / "cyclictest"
OSADL = "cyclictest -l 1000 -m -a0 -t1 -p99 -i200 -h400 -q"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_histogram_block_one_thread() -> None:
    m = cyclictest.parse(read("osadl-h400-t1.txt"), OSADL)
    assert m["max latency (us)"] == 125.0
    assert m["min latency (us)"] == 4.0
    assert m["avg latency (us)"] == 6.0
    assert m["samples"] == 1000.0
    assert m["histogram overflows"] == 0.0


def test_histogram_block_two_threads_takes_worst_thread() -> None:
    m = cyclictest.parse(read("h400-t2.txt"))
    assert m["max latency (us)"] == 235.0
    assert m["max latency T0 (us)"] == 235.0
    assert m["max latency T1 (us)"] == 40.0
    assert m["samples"] == 2000.0


def test_histogram_rows_kept() -> None:
    h = cyclictest.histogram(read("h400-t2.txt"))
    assert h is not None and h.threads == 2
    assert len(h.counts) == 400
    assert h.counts[4] == [370, 84]
    assert sum(c[0] for c in h.counts.values()) == 1000


def test_overflows_counted() -> None:
    m = cyclictest.parse(read("h10-overflows.txt"))
    assert m["histogram overflows"] == 988.0
    assert m["max latency (us)"] == 95.0
    assert m["samples"] == 1000.0  # "# Total:" counts only the samples inside the histogram


def test_qemu_board_captures() -> None:
    m = cyclictest.parse(read("qemu_arm64-stress-hist.txt"), "cyclictest -m -Sp80 -D10 -h400 -i200 -M -q")
    assert m["max latency (us)"] == 43871.0 and m["histogram overflows"] == 5619.0
    assert m["samples"] == 5028 + 4053 + 5619
    m = cyclictest.parse(read("qemu_arm64-idle-summary.txt"))
    assert m["max latency T1 (us)"] == 13657.0 and m["avg latency (us)"] == 380.0


def test_under_stress() -> None:
    m = cyclictest.parse(read("osadl-h400-t1-stress.txt"), OSADL)
    assert m["max latency (us)"] > 0 and m["samples"] == 1000.0


def test_t_lines() -> None:
    assert cyclictest.parse(read("osadl-noh-t1.txt"))["max latency (us)"] == 1500.0
    m = cyclictest.parse(read("noh-t2.txt"))
    assert m["max latency (us)"] == 640.0 and m["max latency T1 (us)"] == 18.0
    assert m["samples"] == 1302.0


def test_old_rt_tests_format_from_the_guide() -> None:
    m = cyclictest.parse(read("guide-am574x-osadl.txt"))
    assert m["max latency (us)"] == 27.0 and m["samples"] == 100000000.0
    h = cyclictest.histogram(read("guide-am574x-osadl.txt"))
    assert h is not None and h.counts[11] == [53158895] and h.counts[25] == [133]


def test_old_t_line_format() -> None:
    text = "T: 0 ( 1234) P:80 I:200 C: 999 Min: 3 Act: 5 Avg: 5 Max: 29\n"
    assert cyclictest.parse(text)["max latency (us)"] == 29.0


def test_live_display_takes_last_line() -> None:
    text = (
        "T: 0 ( 1234) P:80 I:200 C:    10 Min:      3 Act:    5 Avg:    5 Max:      9\x1b[1A\n"
        "T: 0 ( 1234) P:80 I:200 C:    20 Min:      3 Act:    5 Avg:    5 Max:     31\n"
    )
    assert cyclictest.parse(text)["max latency (us)"] == 31.0


def test_nanoseconds_converted() -> None:
    text = "T: 0 ( 1234) P:80 I:200 C: 999 Min: 3000 Act: 5000 Avg: 5000 Max: 29500\n"
    assert cyclictest.parse(text, "cyclictest -N -q -l 999")["max latency (us)"] == 29.5


def test_rejected_option_is_a_parse_error_with_line() -> None:
    with pytest.raises(ParseError) as e:
        cyclictest.parse(read("rejected-n-option.txt"))
    assert e.value.line == 1 and "invalid option" in str(e.value)


def test_garbage_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        cyclictest.parse("hello\nworld\n")
    with pytest.raises(ParseError):
        cyclictest.parse("# Min Latencies: 00004 00005\n# Avg Latencies: 00005\n# Max Latencies: 00009 00010\n")


@pytest.mark.parametrize(
    "command",
    [
        OSADL,
        "cyclictest -l 500 -m -a1 -t2 -p99 -i200 -h400 -q",
        "cyclictest -l 500 -m -a1 -t1 -p99 -i200 -h20 -q",
        "cyclictest -l500 -m -t2 -p80 -i200 -q",
        "cyclictest -m -Sp80 -l 300 -h400 -i200 -M -q",
    ],
)
def test_render_round_trip(command: str) -> None:
    rng = random.Random(7)
    text = sim_cyclictest.render(command, {"max latency (us)": 48.0}, rng)
    m = cyclictest.parse(text, command)
    assert m["max latency (us)"] == 48.0
    assert m["min latency (us)"] < m["avg latency (us)"] < 48.0
    opts = sim_cyclictest.options(command)
    if opts.histogram:
        h = cyclictest.histogram(text)
        assert h is not None and len(h.counts) == opts.histogram
        assert h.threads == opts.threads


def test_render_t_line_matches_rt_tests_2_format() -> None:
    line = sim_cyclictest.render("cyclictest -l 100 -t1 -p99 -i200 -q", {"max latency (us)": 20}, random.Random(1))
    real = read("osadl-noh-t1.txt").splitlines()[1]
    assert len(line.splitlines()[1]) == len(real)


def test_per_thread_minimum_average_and_maximum_with_S() -> None:
    """Real: `cyclictest -m -Sp80 -D2 -h400 -i200 -M -q` under stress-ng (PROVENANCE.md): one column per CPU."""
    m = cyclictest.parse(read("S-h400-M-stress.txt"), "cyclictest -m -Sp80 -D2 -h400 -i200 -M -q")
    assert (m["min latency T0 (us)"], m["avg latency T0 (us)"], m["max latency T0 (us)"]) == (7.0, 20.0, 13022.0)
    assert (m["min latency T1 (us)"], m["avg latency T1 (us)"], m["max latency T1 (us)"]) == (9.0, 22.0, 12655.0)
    assert m["max latency (us)"] == 13022.0 and m["histogram overflows"] == 21.0


def test_render_S_one_thread_per_cpu_asked_about() -> None:
    """The sim's -S output reads back per CPU through the parser (the real trait: S-h400-M-stress.txt)."""
    cmd = "cyclictest -m -Sp80 -D60s -h400 -i200 -M -q"
    v = {"min latency T0 (us)": 5.0, "avg latency T0 (us)": 7.0, "max latency T0 (us)": 69.0,
         "min latency T1 (us)": 5.0, "avg latency T1 (us)": 8.0, "max latency T1 (us)": 77.0}  # fmt: skip
    text = sim_cyclictest.render(cmd, v, random.Random(3))
    assert text.count("# Max Latencies: ") == 1 and len(text.split("# Max Latencies: ")[1].split("\n")[0].split()) == 2
    m = cyclictest.parse(text, cmd)
    assert {k: m[k] for k in v} == v


@pytest.mark.parametrize(
    "command, loops",
    [
        ("cyclictest -l100000000 -m -a0 -t1 -p99 -i200 -h400 -q", 100000000),  # the guide's OSADL run
        ("cyclictest -m -Sp80 -D6h -h400 -i200 -M -q", 6 * 3600 * 5000),  # the RT guides' per-CPU run
        ("cyclictest -m -p80 -D60s -i200 -q -a1 -t1", 60 * 5000),  # a shielded use case, no histogram
    ],
)
def test_sim_prints_the_wake_ups_of_the_run_it_was_asked_for(command: str, loops: int) -> None:
    """The sim draws at most 20000 samples a thread, but prints the run's length as the real tool does: -l in full,
    -D less a few wake-ups lost at start-up (S-h400-M-D3s.txt: 14961 of 15000)."""
    values = {"max latency (us)": 27.0, "min latency (us)": 7.0, "avg latency (us)": 10.0}
    m = cyclictest.parse(sim_cyclictest.render(command, values, random.Random(2)), command)
    assert loops - 40 <= m["loops"] <= loops and (m["loops"] == loops) == ("-l" in command)
    assert (m["max latency (us)"], m["min latency (us)"], m["avg latency (us)"]) == (27.0, 7.0, 10.0)
