"""A guide for a board no profile lists (issue 21 item 1): built from a current guide by renaming its board (the
Evaluation Modules row "AM62Ax SK" becomes "AM62Dx SK", the tables' `am62axx_sk-fs` columns `am62dxx-sk`), with its RT
guide (whose tables name no board: before, it imported nothing). The import exits 0 with every number, the board gets
TI-style id and aliases and a generated profile (data, `generated: true`), `perfgate boards` lists it, and the gate
runs its suites on the simulated board."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from perfgate import boards, paths
from perfgate.guides import importer, newboards

REPO = paths.root()
SOURCES = ["linux-11.01-am62ax.rst", "rt-linux-11.01-am62ax.rst"]


def renamed(text: str) -> str:
    text = text.replace("AM62Ax SK", "AM62Dx SK")
    return re.sub(r"am62axx[-_]sk", "am62dxx-sk", text)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("newboard")
    shutil.copytree(REPO / "variables", root / "variables", ignore=shutil.ignore_patterns("thresholds"))
    (root / "variables" / "thresholds").mkdir()
    for name in SOURCES:
        source = (paths.guides() / "current" / name).read_text(encoding="utf-8")
        assert "AM62Ax SK" in source
        (root / name.replace("am62ax", "am62dx")).write_text(renamed(source), encoding="utf-8")
    return root


def perfgate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PERFGATE_ROOT": str(root)}
    return subprocess.run([sys.executable, "-m", "perfgate", *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip


@pytest.fixture(scope="module")
def imported(scratch: Path) -> subprocess.CompletedProcess[str]:
    guides = [str(scratch / n.replace("am62ax", "am62dx")) for n in SOURCES]
    return perfgate(scratch, "import", *guides)


def test_ids_the_way_ti_names_its_boards() -> None:
    """The rule gives the existing profiles' ids from their Evaluation Modules names."""
    for board in ("am62xx_sk", "am62axx_sk", "am64xx_evm", "am62xx_lp_sk"):
        (module,) = boards.profile(board)["evm"]
        assert newboards.board_id(module)[0] == board
    assert newboards.board_id("AM62Dx SK")[:3] == ("am62dxx_sk", "am62dxx", "AM62Dx")


def test_the_new_boards_guides_import_completely(scratch: Path, imported: subprocess.CompletedProcess[str]) -> None:
    assert imported.returncode == 0, imported.stderr
    source = importer.Importer().run([paths.guides() / "current" / n for n in SOURCES])
    new = importer.Importer(scratch / "variables").run([scratch / n.replace("am62ax", "am62dx") for n in SOURCES])
    assert [len(gi.criteria) for gi in new] == [len(gi.criteria) for gi in source] == [503, 12]
    assert {c.board for gi in new for c in gi.criteria} == {"am62dxx_sk"}
    assert "NEW      linux-11.01-am62dx.rst: board am62dxx_sk from Evaluation Module 'AM62Dx SK'" in imported.stdout
    assert "new board: am62dxx_sk: generated profile" in imported.stdout


def test_the_generated_profile_is_data_and_says_what_was_assumed(scratch: Path, imported) -> None:
    path = scratch / "variables" / "boards" / "am62dxx_sk.yaml"
    profile = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert profile["generated"] is True and profile["evm"] == ["AM62Dx SK"] and profile["soc"] == "AM62Dx"
    assert profile["aliases"] == ["am62dxx-sk", "am62dx_sk", "am62dx-sk"]
    assert profile["hostname"] == "am62dxx-evm" and profile["cpus"] == 4  # the family's (am62axx_sk)
    assert profile["has"] == ["crypto", "emmc", "ethernet", "low_power", "mmcsd", "ospi", "usb"]
    assert any("peripherals" in a for a in profile["assumed"])
    # a second import leaves it as it is; a reviewed profile (no `generated`) is never replaced
    assert perfgate(scratch, "import", str(scratch / "linux-11.01-am62dx.rst")).returncode == 0
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == profile


def test_boards_lists_it_with_both_releases(scratch: Path, imported) -> None:
    listed = {b["board"]: b for b in json.loads(perfgate(scratch, "boards", "--json").stdout)}
    assert listed["am62dxx_sk"]["releases"] == ["11.01", "11.01-RT"]
    assert listed["am62dxx_sk"]["criteria"] == 503


@pytest.mark.slow
def test_the_gate_runs_the_new_board_on_the_sim(scratch: Path, imported, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from selftest import run_gate

    monkeypatch.setenv("PERFGATE_ROOT", str(scratch))
    shutil.copytree(REPO / "suites", scratch / "suites")
    shutil.copytree(REPO / "resources", scratch / "resources")
    for release, suite, count in (("11.01", "dhrystone", 3), ("11.01-RT", "rt_latency", 12)):
        got = run_gate(tmp_path / release, "am62dxx_sk", [suite], RELEASE=release)
        assert got["rc"] == 0, got["stdout"][-3000:]
        assert len(got["tests"]) == count and all(s == "PASS" for s, _ in got["tests"].values()), got["tests"]


CRYPTO = """\
CRYPTO
======

.. csv-table:: Crypto Accelerator Performance
   :header: "Algorithm", "Size (bytes)", "Accelerator (MB/s)"

   "aes-128-cbc", "16", "0.34"
"""
EVM = """\
+----------------+------------------------------------------------+
| Name           | Description                                    |
+================+================================================+
| AM62Dx SK      | AM62Dx Starter Kit (constructed)               |
+----------------+------------------------------------------------+
{more}
Table:  Evaluation Modules

"""
MORE = """\
| AM64x EVM      | AM64x EVM (constructed)                        |
+----------------+------------------------------------------------+"""


@pytest.mark.parametrize(("head", "modules"), [("", "0 Evaluation Modules (none known)"),
                                               (EVM.format(more=MORE), "2 Evaluation Modules")])  # fmt: skip
def test_a_table_that_names_no_board_is_still_an_error_with_file_and_line(tmp_path: Path, head: str,
                                                                          modules: str) -> None:  # fmt: skip
    """No Evaluation Modules table, or two modules (one of them new): whose numbers they are is not known."""
    root = tmp_path / "root"
    shutil.copytree(REPO / "variables", root / "variables", ignore=shutil.ignore_patterns("thresholds"))
    g = tmp_path / "linux-99.01.00-frob.rst"
    g.write_text(head + CRYPTO, encoding="utf-8")
    line = next(i for i, ln in enumerate(g.read_text().splitlines(), 1) if ".. csv-table::" in ln)
    r = perfgate(root, "import", str(g))
    assert r.returncode == 1
    assert f"linux-99.01.00-frob.rst:{line}: its columns name no board and the guide has {modules}" in r.stderr
