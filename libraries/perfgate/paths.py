"""Where the project's data lives. PERFGATE_ROOT overrides the repository root (tests use it).

Two layouts: a checkout (suites/, resources/, variables/, guides/ and docs/ beside libraries/), and an installed wheel
or sdist, which carries the same five directories inside the package as perfgate/share/ (setup.py copies them). An
installed gate never writes into site-packages: its results go under the current directory (or PERFGATE_RESULTS) and
what it builds (simulated boards' host keys, the QEMU image) under ~/.cache/perfgate (or PERFGATE_BUILD)."""

from __future__ import annotations

import os
from pathlib import Path

SHARED = ("suites", "resources", "variables", "guides", "docs")  # what an installed package carries in perfgate/share/


def _checkout() -> Path:
    return Path(__file__).resolve().parents[2]


def installed() -> bool:
    """True when perfgate runs from an installed package (no checkout around it, no PERFGATE_ROOT)."""
    if os.environ.get("PERFGATE_ROOT"):
        return False
    c = _checkout()
    return not ((c / "suites").is_dir() and (c / "variables").is_dir())


def root() -> Path:
    env = os.environ.get("PERFGATE_ROOT")
    if env:
        return Path(env).resolve()
    return Path(__file__).resolve().parent / "share" if installed() else _checkout()


def suites() -> Path:
    """The gate's suites directory: `robot -v BOARD:<board> $(perfgate suites)` runs it from anywhere."""
    return root() / "suites"


def variables() -> Path:
    return root() / "variables"


def thresholds() -> Path:
    return variables() / "thresholds"


def boards() -> Path:
    return variables() / "boards"


def labs() -> Path:
    return variables() / "labs"


def docs() -> Path:
    """The documentation (docs/*.md): `perfgate docs [topic]` prints it, from a checkout or an installed package."""
    return root() / "docs"


def results() -> Path:
    env = os.environ.get("PERFGATE_RESULTS")
    if env:
        return Path(env)
    return Path.cwd() / "results" if installed() else root() / "results"


VIRTUAL = "virtual"  # results/virtual/<board>/: runs on a virtual board (sim, qemu), never beside hardware runs


def board_results(board: str, virtual: bool) -> Path:
    """Where a board's runs and history.jsonl are: results/<board>/ for hardware, results/virtual/<board>/ for a
    virtual board (the lab kinds sim and qemu, or a lab that says `virtual: true`)."""
    return results() / VIRTUAL / board if virtual else results() / board


def guides() -> Path:
    """The TI guides the thresholds are imported from, shipped in the repository (guides/: the original five, and
    the current ones in guides/current/; their source, revision and licence in guides/SOURCES.yaml and
    guides/LICENSE.md), or PERFGATE_GUIDES."""
    env = os.environ.get("PERFGATE_GUIDES")
    if env:
        return Path(env)
    return root() / "guides"


def build() -> Path:
    """What perfgate builds: build/ in a checkout; installed, ~/.cache/perfgate (XDG_CACHE_HOME); PERFGATE_BUILD."""
    env = os.environ.get("PERFGATE_BUILD")
    if env:
        return Path(env)
    if installed():
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "perfgate"
    return root() / "build"
