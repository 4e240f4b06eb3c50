"""`./setup.sh` installs what the gate needs, `./setup.sh --tests` (or `--qemu`) what the tests need too (issue 32,
item 1).

Before: `./setup.sh` alone installed and started PostgreSQL, lava-server, lava-dispatcher, kernel headers pinned to
one ABI, Chromium, a cross compiler, glmark2 and a SQUAD virtualenv, and named about 200 Debian packages apt pulls
anyway (the LAVA stack's dependencies).

setup.sh runs here for real (bash, its own option parsing, its own steps in order) in a copy of the repository's
setup files, with the programs that would change this shared machine replaced by ones that record their arguments:
apt-get, the PostgreSQL cluster tools, and the virtualenvs' pip and python. Each Debian package it names is checked
against the archive (apt-cache), and apt's own dry run says that the packages it stopped naming are still pulled.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from testpaths import ROOT

REPO = ROOT
RECORDER = '#!/bin/sh\necho "$(basename "$0") $*" >> "$SETUP_CALLS"\n'
PROGRAMS = ("apt-get", "pg_lsclusters", "pg_ctlcluster", "id")


def _tool(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def run_setup(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """setup.sh run as root would run it, every call that installs something recorded instead (in order)."""
    ws = tmp_path / "repo"
    ws.mkdir()
    for name in ("setup.sh", "requirements.txt", "requirements-tests.txt"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, ws / name)
    stubs = tmp_path / "bin"
    for program in PROGRAMS:
        _tool(stubs / program, RECORDER + ("echo 0\n" if program == "id" else ""))
    for venv in (".venv", ".venv-squad"):
        for program in ("pip", "python"):
            _tool(ws / venv / "bin" / program, RECORDER.replace('$(basename "$0")', f"{venv}/{program}"))
    _tool(ws / "build" / "netperf" / "usr" / "bin" / "netperf", "#!/bin/sh\n")  # unpacked before: not fetched again
    calls = tmp_path / "calls"
    env = {**os.environ, "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}", "SETUP_CALLS": str(calls)}
    p = subprocess.run(["bash", str(ws / "setup.sh"), *args], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=60, check=False)  # fmt: skip
    recorded = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
    return p, [c for c in recorded if c != "id -u"]


def installed_debs(calls: list[str]) -> list[str]:
    return [w for c in calls if c.startswith("apt-get install") for w in c.split()[2:] if not w.startswith("-")]


def test_the_gate_setup_installs_what_the_gate_needs_only(tmp_path: Path) -> None:
    p, calls = run_setup(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert installed_debs(calls) == ["python3-venv"], calls
    assert calls == [
        "apt-get update -q",
        "apt-get install -y -q --no-install-recommends python3-venv",
        ".venv/pip install -q --upgrade pip",
        ".venv/pip install -q -r requirements.txt",
    ], calls  # no SQUAD virtualenv, no test tools, no QEMU image, no PostgreSQL started


@pytest.mark.parametrize("option", ["--tests", "--qemu"])
def test_the_test_setup_installs_the_test_stack(tmp_path: Path, option: str) -> None:
    p, calls = run_setup(tmp_path, option)
    assert p.returncode == 0, p.stdout + p.stderr
    debs = installed_debs(calls)
    for package in ("python3-venv", "qemu-system-arm", "chromium", "glmark2-x11", "postgresql", "lava-server",
                    "lava-dispatcher", "lavacli"):  # fmt: skip
        assert package in debs, (package, calls)
    order = [c.split()[0] + " " + c.split()[-1] for c in calls]
    assert order.index("pg_lsclusters -h") < next(i for i, c in enumerate(calls) if "lava-server" in c), calls
    assert ".venv/pip requirements-tests.txt" in order, calls
    assert ".venv-squad/pip tests/squad_server/requirements.txt" in order, calls
    assert calls[-1] == ".venv/python -m perfgate qemu build", calls
    assert not [d for d in debs if d.startswith("linux-headers")], "apt pulls lava-dispatcher-host's headers itself"


def test_an_unknown_option_is_refused(tmp_path: Path) -> None:
    p, calls = run_setup(tmp_path, "--test")
    assert p.returncode == 2 and "usage: ./setup.sh [--tests]" in p.stderr and not calls, p.stderr


def test_the_tests_need_only_their_own_requirements() -> None:
    """The gate's requirements.txt holds no test tool; requirements-tests.txt all of them, pinned."""
    gate = (REPO / "requirements.txt").read_text(encoding="utf-8")
    tests = (REPO / "requirements-tests.txt").read_text(encoding="utf-8")
    for tool in ("pytest", "pytest-xdist", "ruff", "robotframework-robocop", "build"):
        assert not re.search(rf"^{tool}==", gate, re.M), tool
        assert re.search(rf"^{tool}==\S+$", tests, re.M), tool


@pytest.mark.slow  # seconds of waiting: out of the fast lane
@pytest.mark.skipif(shutil.which("apt-cache") is None, reason="not a Debian machine (no apt-cache)")
def test_every_named_package_is_in_the_archive_and_apt_pulls_what_is_no_longer_named(tmp_path: Path) -> None:
    _, calls = run_setup(tmp_path, "--tests")
    named = installed_debs(calls)
    p = subprocess.run(["apt-cache", "show", "--no-all-versions", *named], capture_output=True, text=True,
                       check=False, timeout=60)  # fmt: skip
    found = set(re.findall(r"^Package: (\S+)$", p.stdout, re.M))
    assert not set(named) - found, sorted(set(named) - found)
    # what setup.sh used to name (the LAVA stack's dependencies, the kernel headers): apt's own dry run, on this
    # machine's package lists and an empty dpkg status (nothing installed), pulls each of them
    empty = tmp_path / "status"
    empty.write_text("", encoding="utf-8")
    p = subprocess.run(["apt-get", "-s", "-o", f"Dir::State::status={empty}", "-o", "Debug::NoLocking=1", "install",
                        "--no-install-recommends", *named], capture_output=True, text=True, check=False,
                       timeout=120)  # fmt: skip
    pulled = set(re.findall(r"^Inst (\S+)", p.stdout, re.M))
    if not pulled:
        pytest.skip(f"apt-get cannot simulate on an empty status here: {p.stderr.strip()[-300:]}")
    for package in ("lava-common", "lava-dispatcher-host", "python3-django", "python3-celery", "gunicorn",
                    "linux-headers-amd64", "python3-bpfcc", "qemu-system-x86", "libguestfs0"):  # fmt: skip
        assert package in pulled, package
