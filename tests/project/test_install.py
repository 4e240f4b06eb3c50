"""perfgate installed from its sdist and wheel, outside the checkout (issue 23 item 5).

`python -m build` makes the sdist from this checkout and the wheel from that sdist (so the sdist is proven to carry
everything the wheel needs). The wheel goes into a fresh virtual environment in a temporary directory with
`--no-deps`: its dependencies are the ones this checkout's .venv already has, reached through a plain path line in a
.pth file (which adds .venv's site-packages to sys.path without running .venv's own .pth files, so the checkout's
editable perfgate stays out). A full resolve of the declared dependencies would download them again; the
declaration itself is checked against requirements.txt. From a directory outside the checkout, the installed
`perfgate boards` lists every board, and `robot ... $(perfgate suites dhrystone)` runs a suite on the simulated board,
its results under that directory, nothing written into site-packages. About 20 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from perfgate import boards, paths
from testpaths import ROOT

pytestmark = pytest.mark.slow

REPO = ROOT


def runtime_requirements() -> list[str]:
    """requirements.txt's pins (the gate's; the tests' own are in requirements-tests.txt), without comments and pip
    options (`-e .`)."""
    text = (REPO / "requirements.txt").read_text(encoding="utf-8")
    pins = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return [pin for pin in pins if pin and not pin.startswith("-")]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that points perfgate at the checkout."""
    drop = ("PERFGATE_ROOT", "PERFGATE_GUIDES", "PERFGATE_RESULTS", "PERFGATE_BUILD", "PYTHONPATH", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(REPO)))
    return {**env, **extra}


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
                       capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return {"sdist": next(out.glob("perfgate-*.tar.gz")), "wheel": next(out.glob("perfgate-*.whl"))}


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("installed")
    v = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(v)], env=clean_env(), check=True, timeout=120)
    py = v / "bin" / "python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q",
                        str(dist["wheel"])], capture_output=True, text=True, env=clean_env(), timeout=300,
                       check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    r = subprocess.run([str(py), "-c", code], capture_output=True, text=True, env=clean_env(), check=True)
    purelib = Path(r.stdout.strip())
    (purelib / "perfgate-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    run = where / "work"
    run.mkdir()
    env = clean_env(XDG_CACHE_HOME=str(where / "cache"))
    return {"python": py, "bin": v / "bin", "package": purelib / "perfgate", "cwd": run, "env": env}  # type: ignore[dict-item]


def installed(venv, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(venv["bin"] / "perfgate"), *args], capture_output=True, text=True,
                          cwd=venv["cwd"], env=venv["env"], timeout=timeout, check=False)  # fmt: skip


def test_the_sdist_carries_the_gate_and_its_data(dist):
    with tarfile.open(dist["sdist"]) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for needed in ("requirements.txt", "setup.py", "suites/__init__.robot", "suites/system/stream.robot",
                   "resources/gate.resource", "variables/boards/am62xx_sk.yaml", "variables/labs/sim.yaml",
                   "guides/SOURCES.yaml", "guides/LICENSE.md", "guides/current/linux-12.00.00-am62x.rst"):  # fmt: skip
        assert needed in names, needed


def test_the_wheel_carries_every_suite_resource_variable_and_guide(dist):
    with zipfile.ZipFile(dist["wheel"]) as z:
        names = set(z.namelist())
    for folder in paths.SHARED:
        files = [p for p in (REPO / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        assert files, folder
        missing = [str(p.relative_to(REPO)) for p in files if f"perfgate/share/{p.relative_to(REPO)}" not in names]
        assert missing == [], f"not in the wheel: {missing[:10]}"


def test_the_wheel_declares_the_runtime_requirements(dist):
    with zipfile.ZipFile(dist["wheel"]) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    declared = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert declared == runtime_requirements()
    assert "robotframework==7.5" in declared


def test_installed_boards_lists_every_board(venv):
    r = installed(venv, "boards", "--json")
    assert r.returncode == 0, r.stderr
    listed = [row["board"] for row in json.loads(r.stdout)]
    assert listed == boards.known()
    assert all(row["criteria"] > 0 for row in json.loads(r.stdout) if row["releases"])
    r = installed(venv, "boards")
    assert r.returncode == 0 and "am62xx_sk" in r.stdout


def test_installed_perfgate_reads_its_own_package_not_the_checkout(venv):
    code = "import perfgate, perfgate.paths as p; print(perfgate.__file__); print(p.root()); print(p.guides())"
    r = subprocess.run([str(venv["python"]), "-c", code], capture_output=True, text=True, cwd=venv["cwd"],
                       env=venv["env"], timeout=60, check=True)  # fmt: skip
    module, root, guides = r.stdout.split()
    assert Path(module).is_relative_to(venv["package"])
    assert Path(root) == venv["package"] / "share"
    assert len(list(Path(guides).glob("*.rst"))) == 5 and len(list(Path(guides).glob("current/*.rst"))) == 10


def test_installed_import_checks_but_never_writes_into_the_package(venv):
    """`perfgate import --check` reads the installed guides and thresholds; `perfgate import` would write into
    site-packages, and says to run it in a checkout instead."""
    r = installed(venv, "import", "--check", "--quiet")
    assert r.returncode == 0, r.stderr
    before = sorted(p.stat().st_mtime_ns for p in (venv["package"] / "share" / "variables").rglob("*.csv"))
    r = installed(venv, "import", "--quiet")
    assert r.returncode != 0 and "writes variables/thresholds/ of a checkout" in r.stderr, r.stderr
    assert sorted(p.stat().st_mtime_ns for p in (venv["package"] / "share" / "variables").rglob("*.csv")) == before


def test_installed_suites_and_init(venv):
    r = installed(venv, "suites")
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()) == venv["package"] / "share" / "suites"
    r = installed(venv, "suites", "stream")
    assert Path(r.stdout.strip()) == venv["package"] / "share" / "suites" / "system" / "stream.robot"
    r = installed(venv, "init", "bench-3")
    assert r.returncode == 0, r.stderr
    lab = (venv["cwd"] / "bench-3" / "lab.yaml").read_text(encoding="utf-8")
    assert "\nname: bench-3\n" in lab
    assert "perfgate suites" in (venv["cwd"] / "bench-3" / "README.md").read_text(encoding="utf-8")
    r = installed(venv, "init", "bench-3")
    assert r.returncode == 2 and "already exist" in r.stderr
    # issue 32: the docs are in the package, and the README init wrote names the one that describes lab keys
    readme = (venv["cwd"] / "bench-3" / "README.md").read_text(encoding="utf-8")
    assert "`perfgate docs labs`" in readme, readme
    r = installed(venv, "docs", "labs", "--path")
    assert r.returncode == 0 and Path(r.stdout.strip()) == venv["package"] / "share" / "docs" / "labs.md", r.stderr
    r = installed(venv, "docs", "labs")
    assert r.returncode == 0 and r.stdout.startswith("# Lab files: every key"), r.stdout[:300] + r.stderr


def _files(d: Path) -> set[Path]:
    return {p for p in d.rglob("*") if "__pycache__" not in p.parts}


def test_installed_gate_runs_one_suite_on_the_sim_from_anywhere(venv):
    before = _files(venv["package"])
    suite = installed(venv, "suites", "dhrystone").stdout.strip()
    r = subprocess.run([str(venv["python"]), "-m", "robot", "-v", "BOARD:am62xx_sk", "--console", "dotted", suite],
                       capture_output=True, text=True, cwd=venv["cwd"], env=venv["env"], timeout=300,
                       check=False)  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert (venv["cwd"] / "output.xml").is_file()
    runs = [p.parent for p in (venv["cwd"] / "results" / "virtual" / "am62xx_sk").glob("*/metrics.json")]
    assert len(runs) == 1
    judged = json.loads((runs[0] / "metrics.json").read_text(encoding="utf-8"))
    assert {m["suite"] for m in judged} == {"dhrystone"} and all(m["verdict"] in ("pass", "warn") for m in judged)
    assert _files(venv["package"]) == before, "the gate wrote into site-packages"
