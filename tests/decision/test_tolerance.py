"""The tolerance policy: precedence, command-line overrides, and errors that name the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfgate.decision.tolerance import Policy
from perfgate.errors import DataError
from perfgate.model import Criterion

POLICY = """\
default: 0.10
classes:
  - name: cpu-load
    match: {metric: '(?i)cpu'}
    tolerance: {relative: 0.2, absolute: 2}
  - name: network
    match: {chapter: '^network$'}
    tolerance: 0.15
ids:
  "*.lmbench.*.lat_tcp*": 0.5
boards:
  slowboard:
    default: 0.3
    ids:
      "slowboard.stream.*": 0.4
"""


def crit(**kw) -> Criterion:
    base = dict(
        id="am62xx_sk.lmbench.t.bw_mem-rd-1mb.perf", name="n", board="am62xx_sk", guide="g", release="1",
        chapter="system", suite="lmbench", table="t", row="r", metric="perf", unit="MB/s", value=1.0,
    )  # fmt: skip
    base.update(kw)
    return Criterion(**base)


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    p = tmp_path / "tolerances.yaml"
    p.write_text(POLICY)
    return p


def test_precedence(policy_file: Path) -> None:
    p = Policy.load(policy_file)
    assert p.for_criterion(crit()).relative == 0.10
    assert p.for_criterion(crit(id="x.lmbench.t.lat_tcp_us.perf")).relative == 0.5
    t = p.for_criterion(crit(chapter="network", metric="CPU Load % (LOCAL_CPU_UTIL)"))
    assert (t.relative, t.absolute) == (0.2, 2.0)  # first class wins
    assert p.for_criterion(crit(chapter="network", metric="THROUGHPUT")).relative == 0.15
    assert p.for_criterion(crit(board="slowboard")).relative == 0.3
    assert p.for_criterion(crit(board="slowboard", id="slowboard.stream.t.copy.perf")).relative == 0.4


def test_command_line_overrides(policy_file: Path) -> None:
    p = Policy.load(policy_file, tolerance="0.05")
    assert p.for_criterion(crit(chapter="network", metric="THROUGHPUT")).relative == 0.05
    assert p.for_criterion(crit(id="x.lmbench.t.lat_tcp_us.perf")).relative == 0.5  # file ids still win
    p = Policy.load(policy_file, tolerance="0.05", tolerances="*.lmbench.*=0.01, *.stream.*=0.02")
    assert p.for_criterion(crit(id="x.lmbench.t.lat_tcp_us.perf")).relative == 0.01
    assert p.for_criterion(crit(chapter="network", id="b.ethernet.x")).relative == 0.05


def test_the_project_policy_loads() -> None:
    p = Policy.load()
    assert p.for_criterion(crit()).relative > 0


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("default: 0.1\nclasses:\n  - name: x\n    match: {colour: red}\n    tolerance: 0.1\n", 3, "cannot match on"),
        ("default: 0.1\nids:\n  '*.x': lots\n", 3, "not a fraction"),
        ("default: 0.1\nbogus: 1\n", 2, "unknown key 'bogus'"),
        ("default: [0.1\n", 2, "not valid YAML"),
        ("default: -1\n", 1, "out of range"),
    ],
)
def test_malformed_file_names_file_and_line(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    p = tmp_path / "tol.yaml"
    p.write_text(text)
    with pytest.raises(DataError) as e:
        Policy.load(p)
    assert str(e.value).startswith(f"{p}:{line}: ")
    assert fragment in str(e.value)


def test_bad_command_line_spec() -> None:
    with pytest.raises(DataError, match="TOLERANCES"):
        Policy.load(tolerances="*.lmbench.*")
