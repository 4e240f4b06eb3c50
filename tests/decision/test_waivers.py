"""Waivers: a published number that cannot be a threshold is skipped with its reason, never silently passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfgate import criteria
from perfgate.decision import waivers
from perfgate.errors import DataError
from seed_releases import seed


def test_every_waiver_matches_a_criterion_and_gives_a_guide_line() -> None:
    w = waivers.load()
    ids = [c.id for b in ("am43xx_gpevm",) for c in criteria.load(b, release=seed(b))]
    for glob, why in w.items():
        assert any(waivers.reason(i, {glob: why}) for i in ids), f"waiver {glob} matches no criterion"
        assert ".rst:" in why, f"waiver {glob} does not cite the guide line"


def test_the_zero_context_switch_is_waived_and_nothing_else() -> None:
    w = waivers.load()
    waived = [
        c.id for c in criteria.load("am43xx_gpevm", "lmbench", release=seed("am43xx_gpevm")) if waivers.reason(c.id, w)
    ]
    assert waived == ["am43xx_gpevm.lmbench.lmbench-benchmarks.lat-ctx-4-256k-us.perf"]


def test_a_waiver_needs_a_reason(tmp_path: Path) -> None:
    p = tmp_path / "w.yaml"
    p.write_text("'*.x': ''\n")
    with pytest.raises(DataError, match="each with a reason"):
        waivers.load(p)
    p.write_text("'*.x': [\n")
    with pytest.raises(DataError) as e:
        waivers.load(p)
    assert f"{p}:2:" in str(e.value)
