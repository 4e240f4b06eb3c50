"""`perfgate boards` with no board, `perfgate suites` and `perfgate init` in a checkout (installed: test_install.py)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from perfgate import paths


def perfgate(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfgate", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **env}, timeout=120, check=False)  # fmt: skip


def test_boards_without_any_board_is_an_error_naming_where_it_looked(tmp_path):
    """It used to print an empty table and exit 0 (an installed wheel without its variables)."""
    (tmp_path / "variables").mkdir()
    r = perfgate("boards", PERFGATE_ROOT=str(tmp_path))
    assert r.returncode == 2
    assert f"no board profile in {tmp_path / 'variables' / 'boards'}" in r.stderr


def test_suites_prints_the_directory_or_a_suite_file():
    r = perfgate("suites")
    assert r.returncode == 0 and Path(r.stdout.strip()) == paths.suites() == paths.root() / "suites"
    r = perfgate("suites", "dhrystone", "openssl")
    assert r.stdout.split() == [str(paths.suites() / "system" / "dhrystone.robot"),
                                str(paths.suites() / "crypto" / "openssl.robot")]  # fmt: skip
    r = perfgate("suites", "dhrystne")
    assert r.returncode == 2 and "unknown suite 'dhrystne'; known suites: " in r.stderr and "dhrystone" in r.stderr


def test_init_writes_a_lab_named_after_the_directory_and_a_readme(tmp_path):
    r = perfgate("init", "bench 3/rack-b", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    d = tmp_path / "bench 3" / "rack-b"
    lab = (d / "lab.yaml").read_text(encoding="utf-8")
    example = (paths.labs() / "example-ser2net.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(lab)
    assert data["name"] == "rack-b"
    assert {k: v for k, v in data.items() if k != "name"} == {
        k: v for k, v in yaml.safe_load(example).items() if k != "name"
    }
    assert lab.startswith("# Lab rack-b: written by `perfgate init` from the gate's example lab example-ser2net")
    assert "Copy it to variables/labs" not in lab  # the example's own instructions are not the user's
    readme = (d / "README.md").read_text(encoding="utf-8")
    quoted = shlex.quote(str(d / "lab.yaml"))  # a directory name with a space stays one word in the commands
    assert f"-v LAB:{quoted} $(perfgate suites)" in readme and "$lab" not in readme
    # the lab loads as the gate loads it
    r = perfgate("lab", "check", str(d / "lab.yaml"), "--board", "am62xx_sk", "--no-resolve")
    assert "unknown key" not in r.stdout + r.stderr


def test_init_does_not_overwrite_and_names_an_unknown_example(tmp_path):
    assert perfgate("init", str(tmp_path / "lab")).returncode == 0
    r = perfgate("init", str(tmp_path / "lab"))
    assert r.returncode == 2 and "already exist" in r.stderr and "--force" in r.stderr
    assert perfgate("init", str(tmp_path / "lab"), "--force", "--from", "sim").returncode == 0
    assert yaml.safe_load((tmp_path / "lab" / "lab.yaml").read_text(encoding="utf-8"))["kind"] == "sim"
    r = perfgate("init", str(tmp_path / "other"), "--from", "nosuchlab")
    assert r.returncode == 2 and "unknown lab 'nosuchlab'; known labs: " in r.stderr
    assert not (tmp_path / "other").exists()
