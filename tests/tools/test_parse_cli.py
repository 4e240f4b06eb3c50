"""`python -m perfgate parse <tool> <file> [--command ...]` as a user runs it: JSON on stdout, exit 2 with the file
and line on output it cannot parse."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from captures import capture
from perfgate import cli, tools
from testpaths import FIXTURES

FIX = FIXTURES


def parse(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfgate", "parse", *args], input=stdin, capture_output=True,
                          text=True, timeout=60, check=False)  # fmt: skip


def test_prints_the_guide_names_as_json() -> None:
    p = parse("stream", str(FIX / "stream" / "stream_c-am62xx_sk.txt"))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"add (MB/s)": 1442.5, "copy (MB/s)": 1637.6, "scale (MB/s)": 1830.5,
                                    "triad (MB/s)": 1481.4}  # fmt: skip


def test_command_names_bare_lmbench_output() -> None:
    f = str(FIX / "lmbench" / "bw_mem-1M-rd.txt")
    p = parse("lmbench", f, "--command", "bw_mem 1M rd 2>&1")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"bw_mem-rd-1mb (MB/s)": 1301.12}
    p = parse("lmbench", f)
    assert p.returncode == 2
    assert f"{f}:1:" in p.stderr and "--command" in p.stderr
    assert p.stdout == ""


def test_coremark_pro_tool_name_with_a_dash() -> None:
    p = parse("coremark-pro", str(FIX / "coremark-pro" / "certify-all-c2-am62xx_sk.txt"))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["coremark-pro ()"] == 1498.39


@pytest.mark.parametrize(
    ("tool", "name", "line"),
    [("nbench", "cut-after-warning.txt", 16), ("coremark-pro", "bad-table-row.txt", None),
     ("lmbench", "error-no-file.txt", 1), ("linpack", "table-only-crashed.txt", None)],
)  # fmt: skip
def test_unrecognised_output_exits_2_naming_the_file(tool: str, name: str, line: int | None) -> None:
    f = str(FIX / tool / name)
    p = parse(tool, f)
    assert p.returncode == 2
    assert p.stdout == ""
    assert f"perfgate parse: {f}" in p.stderr
    if line:
        assert f"{f}:{line}: " in p.stderr


def test_standard_input() -> None:
    text = (FIX / "whetstone" / "kips-under-1000.txt").read_text()
    p = parse("whetstone", "-", stdin=text)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"whetstone (MIPS)": 0.5}


def test_unknown_tool_and_missing_file() -> None:
    p = parse("nosuchtool", str(FIX / "stream" / "stream_c-am62xx_sk.txt"))
    assert p.returncode == 2
    assert "lmbench" in p.stderr  # lists the tools
    p = parse("stream", "/nonexistent/out.txt")
    assert p.returncode == 2 and "/nonexistent/out.txt: no such file" in p.stderr


def test_real_lat_mem_rd_output_quote_and_all() -> None:
    f = str(FIX / "lmbench" / "lat_mem_rd-1M-128.txt")
    assert (FIX / "lmbench" / "lat_mem_rd-1M-128.txt").read_text().startswith('"stride=128\n')
    for extra in ([], ["--command", "lat_mem_rd 1M 128 2>&1"]):
        p = parse("lmbench", f, *extra)
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout)["lat_mem_rd-stride128-sz500k (ns)"] == 15.301


def test_openssl_without_elapsed_prints_the_numbers_and_a_warning(tmp_path: Path) -> None:
    f = tmp_path / "speed.txt"
    f.write_text(capture(FIX / "openssl" / "openssl1-devcrypto-no-elapsed.txt"))
    p = parse("openssl", str(f), "--command", "openssl speed -engine devcrypto -evp aes-128-cbc")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["aes-128-cbc/16384 (KBytes/s)"] == 17350656.0
    cmd = "openssl speed -engine devcrypto -evp aes-128-cbc"
    assert f"perfgate parse: warning: {f}: openssl speed: `{cmd}` lacks -elapsed" in p.stderr
    f.write_text(capture(FIX / "openssl" / "speed-elapsed-md5-twice.txt"))
    p = parse("openssl", str(f), "--command", "openssl speed -elapsed -seconds 1 -bytes 16 -evp md5")
    assert p.returncode == 2 and "warning" not in p.stderr and p.stdout == ""


@pytest.mark.parametrize(
    ("tool", "name", "says"),
    [("openssl", "openssl/openssl3-devcrypto-no-elapsed-infk.txt", "lacks -elapsed"),
     ("openssl", "openssl/speed-elapsed-md5-twice.txt", "md5 twice"),
     ("openssl", "openssl/speed-elapsed-iostat-in-table.txt", "is not an algorithm"),
     ("iperf3", "iperf3/two-runs-tcp-then-reverse-t1.txt", "two iperf3 runs"),
     ("iperf3", "iperf3/two-runs-tcp-then-reverse-t1.json", "two iperf3 runs"),
     ("iperf", "iperf/two-runs-tcp.txt", "two iperf runs"),
     ("uboot", "uboot/load-178-bytes-in-0-ms.txt", "is not a rate")],
)  # fmt: skip
def test_refused_outputs_exit_2_with_file_line_and_reason(tmp_path: Path, tool: str, name: str, says: str) -> None:
    f = tmp_path / Path(name).name
    f.write_text(capture(FIX / name))
    p = parse(tool, str(f))
    assert p.returncode == 2, p.stdout
    assert p.stdout == ""
    assert re.search(rf"perfgate parse: {re.escape(str(f))}:\d+: {tool}: .*{re.escape(says)}", p.stderr), p.stderr


@pytest.mark.parametrize("tool", tools.TOOLS)
@pytest.mark.parametrize("garbage", ["hello world\n", "sh: 1: foo: not found\n", "12.5 34.7\n", ""])
def test_every_parser_refuses_what_it_does_not_recognise(tmp_path: Path, capsys, tool: str, garbage: str) -> None:
    """Exit 2 naming the file and a line, nothing on stdout: no number made up from output that is not the tool's."""
    f = tmp_path / "out.txt"
    f.write_text(garbage)
    assert cli.main(["parse", tool, str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert re.search(rf"{re.escape(str(f))}:\d+: {re.escape(tool)}: ", err), err
