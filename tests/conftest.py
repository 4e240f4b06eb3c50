"""Test session set-up shared by every test file.

- The interpreter's own bin directory goes first on PATH, as activating the virtualenv would: the README's test
  command runs `.venv/bin/python -m pytest` without activating, and tools the tests start (pabot starts `robot`)
  must still be the ones requirements.txt pinned.
- The simulated board runs its quiet regime unless a test names another (PERFGATE_SIM_NOISE, below).
- Lanes: the tests sit in one folder per room (tests/board, tests/tools, ...; the shared helpers at the top of
  tests/, which pytest's pythonpath holds). A test that starts robot, pabot, a browser, QEMU, LAVA or SQUAD is
  `integration`: every test in tests/robot/ and tests/browser/, every test with the qemu, lava, squad or labgrid
  marker (added below), and the others that start one say so with `@pytest.mark.integration`. The fast lane,
  `pytest -m "not slow and not integration"`, runs none of them.
- Under CI (`CI` set), a test skipped because something setup.sh installs is missing is a failure: a fresh machine
  that lacks a tool must not turn its tests into a quiet row of `s`.
- The tests run on two workers (pytest-xdist, `-n 2 --dist loadfile` in pyproject.toml; `-n 0` runs them in this
  process): a file's tests stay together on one worker, so its module fixtures are set up once; two files may run
  at the same time, so a test that runs the gate writes its results under its own tmp_path (PERFGATE_RESULTS), never
  into the repository's results/ where another file's gate could be writing. (`--dist loadgroup` would group files,
  but pytest-xdist 3.8 cannot rename pytest 9's node ids, so its groups have no effect.) The files run longest
  first (`slow_files_first`, below; `--no-loadscope-reorder` keeps xdist from sorting them by test count).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Generator
from pathlib import Path

import pytest

_BIN = str(Path(sys.executable).parent)
if os.environ.get("PATH", "").split(os.pathsep)[0] != _BIN:
    os.environ["PATH"] = os.pathsep.join([_BIN, os.environ.get("PATH", "")])
# Debian puts daemons the tests start (ser2net) in /usr/sbin, which a non-login PATH may lack
for _sbin in ("/usr/sbin", "/sbin"):
    if _sbin not in os.environ["PATH"].split(os.pathsep):
        os.environ["PATH"] += os.pathsep + _sbin

# The simulated board's plumbing tests (a parser reads what the sim printed, a fault shows, a verdict reaches the
# report) run the quiet board, whose numbers stay within 2 % of the guide's; the tests of the verdict on real-looking
# noise ask for the realistic or harsh regime by name (-v SIM_NOISE, spread.load(regime=...)), as does the test of
# the README's first command (tests/robot/test_readme_gate.py). The product's default stays variables/sim.yaml's.
os.environ.setdefault("PERFGATE_SIM_NOISE", "quiet")

# Skip reasons that mean "the machine lacks something setup.sh installs", not "this board publishes no such number".
MISSING = re.compile(r"not installed|\bneeds\b|no QEMU image|not there yet|no guides", re.I)


def _ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    outcome = yield
    report = outcome.get_result()
    if not (_ci() and report.skipped and isinstance(report.longrepr, tuple)):
        return
    reason = str(report.longrepr[2])
    if MISSING.search(reason):
        report.outcome = "failed"
        report.longrepr = f"CI: skipped because the machine lacks what setup.sh installs: {reason}"


# Folders whose every test starts robot or a browser, and the markers of tests that start QEMU, LAVA, SQUAD or labgrid
_INTEGRATION_DIRS = ("robot", "browser")
_INTEGRATION_MARKERS = ("qemu", "lava", "squad", "labgrid")
_TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        try:
            room = item.path.resolve().relative_to(_TESTS).parts[0]
        except ValueError:
            room = ""
        if room in _INTEGRATION_DIRS or any(item.get_closest_marker(m) for m in _INTEGRATION_MARKERS):
            item.add_marker(pytest.mark.integration)
    items[:] = slow_files_first(items)


def _weight(item: pytest.Item) -> float:
    """A test's expected share of a run: one that starts QEMU, LAVA, SQUAD or a labgrid farm (minutes) weighs most,
    one that starts robot or a virtual board (seconds) less, a plain unit test (milliseconds) almost nothing."""
    if any(item.get_closest_marker(m) for m in _INTEGRATION_MARKERS):
        return 5.0
    if item.get_closest_marker("slow") or item.get_closest_marker("integration"):
        return 1.0
    return 0.001


def slow_files_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The files whose tests take longest first, each file's tests together and in their own order. pytest-xdist
    hands the two workers one file at a time in this order (pyproject: `--dist loadfile --no-loadscope-reorder`;
    its default order, most tests first, put the one-test QEMU gate of three minutes last, on one worker while the
    other idled): long files first and the many millisecond tests last fill both workers to the end."""
    by_file: dict[Path, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(item.path, []).append(item)
    ranked = sorted(by_file.values(), key=lambda tests: -sum(_weight(t) for t in tests))  # stable: ties keep order
    return [t for tests in ranked for t in tests]


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own results directory (PERFGATE_RESULTS), never the repository's where another file's gate may be
    writing; PERFGATE_RELEASE, which a run's start sets for the simulated board, is restored after the test."""
    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path / "results"))
    monkeypatch.setenv("PERFGATE_RELEASE", "")
    return tmp_path / "results"
