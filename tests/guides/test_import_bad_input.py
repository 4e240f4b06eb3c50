"""Bad guide tables (constructed: each reproduces a trait issue 12 describes in TI's current guides) give errors naming
file and line, and leave the thresholds that were there before untouched; tables whose columns name no board go to
the guide's one Evaluation Module; rows for a board outside a guide's Evaluation Modules are imported with a warning.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate import criteria, paths

REPO = paths.root()
GUIDES = paths.guides()

EVMS = """\
Read This First
===============

+----------------+------------------------------------------------+
| Name           | Description                                    |
+================+================================================+
{rows}
Table:  Evaluation Modules

"""
EVM_ROW = """\
| {name:<14} | {description:<46} |
+----------------+------------------------------------------------+"""

CRYPTO = """\
CRYPTO
======

Crypto Performance Comparison
-----------------------------

.. csv-table:: Crypto Accelerator Performance
   :header: "Algorithm", "Size (bytes)", "Accelerator (MB/s)", "ARM CE (MB/s)", "ARM (MB/s)"

   "aes-128-cbc", "16", "0.34", "69.43", "22.18"
   "aes-128-cbc", "64", "{cell}", "217.04", "28.34"
"""


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    v = tmp_path / "variables"
    v.mkdir()
    for name in ("sections.yaml", "units.yaml", "directions.yaml"):
        shutil.copy(REPO / "variables" / name, v / name)
    shutil.copytree(REPO / "variables" / "boards", v / "boards")
    (v / "thresholds").mkdir()
    return tmp_path


def perfgate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PERFGATE_ROOT": str(root), "PERFGATE_GUIDES": str(GUIDES)}
    return subprocess.run(
        [sys.executable, "-m", "perfgate", "import", *args], capture_output=True, text=True, env=env, timeout=60,
        check=False,
    )  # fmt: skip


def guide(root: Path, evms: list[str], cell: str = "1.51") -> Path:
    rows = "\n".join(EVM_ROW.format(name=n, description=f"{n} rev E1") for n in evms)
    path = root / "linux-99.01.00-frob.rst"
    path.write_text(EVMS.format(rows=rows) + CRYPTO.format(cell=cell), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln)


def test_unprefixed_columns_are_the_guide_s_one_evaluation_module(scratch: Path):
    g = guide(scratch, ["AM64x EVM"])
    r = perfgate(scratch, str(g))
    assert r.returncode == 0, r.stderr
    got = criteria.read(scratch / "variables/thresholds/am64xx_evm/99.01.00/crypto_accel.csv")
    assert [(c.row, c.metric, c.value, c.unit) for c in got][:3] == [
        ("aes-128-cbc / 16", "Accelerator (MB/s)", 0.34, "MB/s"),
        ("aes-128-cbc / 16", "ARM CE (MB/s)", 69.43, "MB/s"),
        ("aes-128-cbc / 16", "ARM (MB/s)", 22.18, "MB/s"),
    ]
    assert len(got) == 6
    assert "columns name no board: the guide's one Evaluation Module, am64xx_evm" in r.stdout


def test_text_in_a_value_cell_is_an_error_at_its_line_and_the_earlier_file_stays(scratch: Path):
    g = guide(scratch, ["AM64x EVM"])
    assert perfgate(scratch, str(g)).returncode == 0
    f = scratch / "variables/thresholds/am64xx_evm/99.01.00/crypto_accel.csv"
    before = f.read_text(encoding="utf-8")
    g = guide(scratch, ["AM64x EVM"], cell="fast")
    r = perfgate(scratch, str(g))
    assert r.returncode == 1
    line = line_of(g, '"fast"')
    assert f"linux-99.01.00-frob.rst:{line}: value 'fast' in column 'Accelerator (MB/s)'" in r.stderr
    assert f.read_text(encoding="utf-8") == before  # nothing that was there before is lost


def test_unprefixed_table_in_a_guide_of_two_modules_is_an_error_naming_file_and_line(scratch: Path):
    g = guide(scratch, ["AM64x EVM", "AM62x SK"])
    r = perfgate(scratch, str(g))
    assert r.returncode == 1
    line = line_of(g, ".. csv-table:: Crypto Accelerator Performance")
    assert f"linux-99.01.00-frob.rst:{line}: its columns name no board and the guide has 2 Evaluation Modules" in (
        r.stderr
    )
    assert "it holds 8 numbers" in r.stderr
    assert not (scratch / "variables/thresholds/am64xx_evm").exists()


def test_rows_for_a_board_outside_the_guide_s_evaluation_modules_warn():
    r = subprocess.run(
        [sys.executable, "-m", "perfgate", "import", "--check", str(GUIDES / "current" / "rt-linux-11.02-am65x.rst")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert (
        "WARNING  rt-linux-11.02-am65x.rst: 26 numbers for am43xx_gpevm, which is not among the guide's "
        "Evaluation Modules (AM65x EVM): lines 251-363"
    ) in r.stdout


def test_a_hsevm_is_the_evm():
    cs = criteria.load("am64xx_evm", release="12.00.00-RT")
    assert {c.board for c in cs} == {"am64xx_evm"} and len(cs) == 408
    assert not (paths.thresholds() / "am64xx_hsevm").exists()


def test_a_skipped_table_that_holds_numbers_is_an_error_unless_reviewed(scratch: Path):
    sections = scratch / "variables" / "sections.yaml"
    text = sections.read_text(encoding="utf-8")
    sections.write_text(text.replace("reviewed_skips:", "reviewed_skips: []\nunused:"), encoding="utf-8")
    r = perfgate(scratch, "--check", str(GUIDES / "rt-linux-2017.05-am57x.rst"))
    assert r.returncode == 1
    assert "rt-linux-2017.05-am57x.rst:760: 18 lines do not make rows" in r.stderr
    assert "it holds 18 numbers: not skipped without a reviewer's decision" in r.stderr
