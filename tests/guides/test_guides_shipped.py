"""The guides ship in the repository (guides/, guides/current/) with their source, revision and TI's licence notice,
and nothing reads them from beside the checkout (../shared): a clone with nothing beside it imports and checks them."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from perfgate.guides.importer import guide_files
from testpaths import ROOT

REPO = ROOT
GUIDES = REPO / "guides"


def test_the_guides_are_read_from_the_repository():
    env = {k: v for k, v in os.environ.items() if k not in ("PERFGATE_GUIDES", "PERFGATE_ROOT")}
    r = subprocess.run(
        [sys.executable, "-c", "from perfgate import paths; print(paths.guides())"],
        capture_output=True, text=True, env=env, timeout=60, check=True,
    )  # fmt: skip
    assert Path(r.stdout.strip()) == GUIDES
    assert len(guide_files()) == 15
    assert len(list(GUIDES.glob("*.rst"))) == 5
    assert len(list((GUIDES / "current").glob("*.rst"))) == 10


def test_every_guide_has_its_source_revision_and_checksum():
    sources = yaml.safe_load((GUIDES / "SOURCES.yaml").read_text(encoding="utf-8"))["guides"]
    listed = {s["file"] for s in sources}
    shipped = {p.relative_to(GUIDES).as_posix() for p in [*GUIDES.glob("*.rst"), *GUIDES.glob("current/*.rst")]}
    assert listed == shipped
    for s in sources:
        data = (GUIDES / s["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == s["sha256"], f"{s['file']} is not the file SOURCES.yaml describes"
        assert s["source"] == "https://github.com/TexasInstruments/processor-sdk-doc"
        assert s["release"] and "revision" in s
        if s["title"]:
            assert s["title"] in data.decode("utf-8"), s["file"]


def test_the_licence_notice_names_ti_and_cc_by_sa():
    text = (GUIDES / "LICENSE.md").read_text(encoding="utf-8")
    for needle in ("Texas Instruments", "processor-sdk-doc", "CC BY-SA 4.0", "creativecommons.org/licenses/by-sa/4.0"):
        assert needle in text


def test_no_code_test_or_benchmark_reads_guides_beside_the_checkout():
    """A user's clone has no ../shared/guides: no code, test or benchmark may name it (prose that cites
    ../shared/reference for a tool's output format reads nothing)."""
    offenders = []
    for folder in ("libraries", "tests", "benchmarks", "suites", "resources", "variables"):
        for p in (REPO / folder).rglob("*"):
            if p.suffix in (".py", ".robot", ".resource", ".yaml") and p != Path(__file__).resolve():
                text = p.read_text(encoding="utf-8")
                if re.search(r"""shared/guides|["']shared["']""", text):
                    offenders.append(str(p.relative_to(REPO)))
    assert offenders == []


@pytest.mark.slow  # seconds of waiting: out of the fast lane
def test_a_copy_with_nothing_beside_it_imports_and_checks_the_guides(tmp_path):
    """The repository's files, alone in a temporary directory (no ../shared beside them): `perfgate import --check`
    with no argument finds the fifteen guides in the copy and the committed thresholds match them."""
    clone = tmp_path / "clone"
    for name in ("libraries", "variables", "guides", "suites", "resources"):
        shutil.copytree(REPO / name, clone / name, ignore=shutil.ignore_patterns("__pycache__"))
    assert not (tmp_path / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("PERFGATE_GUIDES", "PERFGATE_ROOT")}
    env["PYTHONPATH"] = str(clone / "libraries")  # the copy's perfgate, not the checkout's editable install
    code = "from perfgate import paths; print(paths.guides())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=60, check=True)  # fmt: skip
    assert Path(r.stdout.strip()) == clone / "guides"
    r = subprocess.run([sys.executable, "-m", "perfgate", "import", "--check", "--quiet"], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=300, check=False)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "match the guides" in r.stdout
