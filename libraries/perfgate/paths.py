"""Where the project's data lives. PERFGATE_ROOT overrides the repository root (tests use it)."""

from __future__ import annotations

import os
from pathlib import Path


def root() -> Path:
    env = os.environ.get("PERFGATE_ROOT")
    if env:
        return Path(env).resolve()
    return Path(__file__).resolve().parents[2]


def variables() -> Path:
    return root() / "variables"


def thresholds() -> Path:
    return variables() / "thresholds"


def boards() -> Path:
    return variables() / "boards"


def labs() -> Path:
    return variables() / "labs"


def results() -> Path:
    return Path(os.environ.get("PERFGATE_RESULTS", root() / "results"))


VIRTUAL = "virtual"  # results/virtual/<board>/: runs on a virtual board (sim, qemu), never beside hardware runs


def board_results(board: str, virtual: bool) -> Path:
    """Where a board's runs and history.jsonl are: results/<board>/ for hardware, results/virtual/<board>/ for a
    virtual board (the lab kinds sim and qemu, or a lab that says `virtual: true`)."""
    return results() / VIRTUAL / board if virtual else results() / board


def guides() -> Path:
    """The TI guides shipped beside the repository (../shared/guides), or PERFGATE_GUIDES."""
    env = os.environ.get("PERFGATE_GUIDES")
    if env:
        return Path(env)
    return root().parent / "shared" / "guides"


def build() -> Path:
    return root() / "build"
