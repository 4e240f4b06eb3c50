"""fio parser on real fio 3.33 captures (tests/fixtures/fio/PROVENANCE.md) and the sim round trip."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import fio as sim_fio
from perfgate.tools import fio
from testpaths import FIXTURES

FIX = FIXTURES / "fio"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_json_write_job() -> None:
    m = fio.parse(read("write-1m-libaio.json"))
    assert m["write throughput (MB/s)"] > 0
    assert "read throughput (MB/s)" not in m  # a direction that moved no data is not reported as zero
    assert m["write cpu load (%)"] == pytest.approx(m["write_1m: write cpu load (%)"])


def test_json_read_job_values() -> None:
    m = fio.parse(read("read-4k-libaio.json"))
    assert m["read throughput (MB/s)"] == pytest.approx(171366680 / 1e6)
    assert m["read cpu load (%)"] == pytest.approx(5.034895 + 39.082752)


def test_two_json_documents_from_one_command() -> None:
    m = fio.parse(read("write-then-read-4k-chain.txt"))
    assert m["emmc-4k-write: write throughput (MB/s)"] > 0
    assert m["emmc-4k-read: read throughput (MB/s)"] > 0
    assert m["read cpu load (%)"] == m["emmc-4k-read: read cpu load (%)"]


def test_text_output() -> None:
    m = fio.parse(read("write-256k-libaio.txt"))
    assert m["write throughput (MB/s)"] == pytest.approx(1372.0)
    assert m["write cpu load (%)"] == pytest.approx(14.3)
    assert m["write iops"] == 5233
    r = fio.parse(read("read-1m-libaio.txt"))
    assert r["read throughput (MB/s)"] > 0


def test_failed_job_is_a_parse_error_with_line() -> None:
    with pytest.raises(ParseError) as e:
        fio.parse(read("error-not-a-directory.txt"))
    assert e.value.line == 2
    assert "Not a directory" in str(e.value)


def test_unrecognised_and_cut_output() -> None:
    with pytest.raises(ParseError):
        fio.parse("sh: fio: not found\n")
    with pytest.raises(ParseError):
        fio.parse(read("read-4k-libaio.json")[:400])


@pytest.mark.parametrize("fmt", ["json", "normal"])
def test_round_trip_write_then_read(fmt: str) -> None:
    opts = f"--ioengine=libaio --iodepth=4 --numjobs=1 --direct=1 --runtime=5 --time_based --output-format={fmt}"
    cmd = (f"fio --name=mmcsd-4m-write --filename=/mnt/sd/perfgate.fio --size=1G --bs=4m --rw=write {opts} && "
           f"fio --name=mmcsd-4m-read --filename=/mnt/sd/perfgate.fio --size=1G --bs=4m --rw=read {opts}; "
           "rm -f /mnt/sd/perfgate.fio")  # fmt: skip
    values = {"write throughput (MB/s)": 18.2, "write cpu load (%)": 0.66, "read throughput (MB/s)": 82.5,
              "read cpu load (%)": 1.09}  # fmt: skip
    m = fio.parse(sim_fio.render(cmd, values, random.Random(3)), cmd)
    for k, v in values.items():
        assert m[k] == pytest.approx(v, rel=0.05)
        assert m[("mmcsd-4m-write: " if k.startswith("write") else "mmcsd-4m-read: ") + k] == m[k]


def test_only_the_run_status_group_block_is_read() -> None:
    """A log that kept only fio's "Run status group" block (TI's docs quote it so): `READ: bw=2304MiB/s (2416MB/s),
    ...`, decimal MB/s as the guides; no per-job block, so no IOPS or CPU load is invented."""
    from captures import capture

    m = fio.parse(capture(FIX / "group-only-read-1m.txt"))
    assert m == {"read throughput (MB/s)": 2416.0, "group 0: read throughput (MB/s)": 2416.0}
    m = fio.parse(capture(FIX / "group-only-rw-256k.txt"))
    assert m["read throughput (MB/s)"] == 690.0 and m["write throughput (MB/s)"] == 697.0


def test_the_group_block_beside_the_job_block_changes_nothing_and_two_groups_of_one_direction_are_refused() -> None:
    from captures import capture

    text = (FIX / "read-1m-libaio.txt").read_text(encoding="utf-8")
    assert "Run status group 0" in text
    assert fio.parse(text) == fio.parse("\n".join(t for t in text.splitlines() if not t.lstrip().startswith("READ:")))
    group = capture(FIX / "group-only-read-1m.txt")
    with pytest.raises(ParseError, match=r"two fio groups report READ.*line 2.*line 7") as e:
        fio.parse(group + group)
    assert e.value.line == 7


@pytest.mark.skipif(not shutil.which("fio"), reason="needs fio (setup.sh installs it)")
def test_live_run_status_group_alone_reads_as_the_whole_output(tmp_path: Path) -> None:
    """The real fio here, TI's options, 1 s: its output cut to the Run status group block (what a log keeps of the
    end of the run) gives the same throughput, in decimal MB/s, as the job block of the whole output."""
    cmd = ["fio", "--name=read_1m", f"--filename={tmp_path / 'fio.test'}", "--size=16M", "--bs=1m", "--rw=read",
           "--ioengine=libaio", "--iodepth=4", "--numjobs=1", "--direct=1", "--time_based", "--runtime=1"]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    if "direct" in run.stdout + run.stderr and run.returncode:  # a tmpfs refuses O_DIRECT
        run = subprocess.run([c for c in cmd if c != "--direct=1"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    whole = fio.parse(run.stdout)
    group = run.stdout[run.stdout.index("Run status group") :]
    assert fio.parse(group)["read throughput (MB/s)"] == whole["read throughput (MB/s)"]


def test_fio2_wording_in_binary_units_and_a_run_repeated_in_one_log_is_refused() -> None:
    """fio 2.x (constructed after a VPS comparison's fio 2.2.10 logs, corpus/fio2-*) prints `read : io=1024.0MB,
    bw=204800KB/s, iops=51200` and `READ: io=..., aggrb=...KB/s`, KB being 1024 bytes: read as decimal MB/s like
    fio 3's. The same job's read reported twice (a job run twice into one log: fio 2 constructed, fio 3.33 made here)
    is refused naming both lines, not the last one read."""
    from captures import capture

    one = capture(FIX / "corpus" / "fio2-wording-randread-constructed.txt")
    m = fio.parse(one)
    assert m["read throughput (MB/s)"] == pytest.approx(204800 * 1024 / 1e6)
    assert m["read iops"] == 51200 and m["read cpu load (%)"] == pytest.approx(5.25 + 20.50)
    ends = fio.parse("\n".join(ln for ln in one.splitlines() if "Run status" in ln or "aggrb=" in ln))
    assert ends == {"read throughput (MB/s)": pytest.approx(204800 * 1024 / 1e6),
                    "group 0: read throughput (MB/s)": pytest.approx(204800 * 1024 / 1e6)}  # fmt: skip
    with pytest.raises(ParseError, match=r"read of job randread twice \(lines 6 and 16\)"):
        fio.parse(capture(FIX / "corpus" / "fio2-wording-randread-two-runs-constructed.txt"))
    with pytest.raises(ParseError, match=r"read of job randread twice \(lines 6 and 37\)"):
        fio.parse(capture(FIX / "corpus" / "randread-4k-psync-t1-twice.txt"))
    assert fio.parse(capture(FIX / "corpus" / "randread-4k-psync-t1.txt"))["read iops"] == 17400
