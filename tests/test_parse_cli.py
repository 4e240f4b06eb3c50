"""`python -m perfgate parse <tool> <file> [--command ...]` as a user runs it: JSON on stdout, exit 2 with the file
and line on output it cannot parse."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).parent / "fixtures"


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
