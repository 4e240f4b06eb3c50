"""A lab without a display, a camera and a power meter (tests/fixtures/labs/sim-bare.yaml): the suites that need
them are skipped with the reason naming the lab file, the rt use cases that need a display are skipped alone, and
nothing fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from peripheral_runs import ROOT
from peripheral_runs import run_suites as run_gate

pytestmark = pytest.mark.slow
LAB = str(ROOT / "tests" / "fixtures" / "labs" / "sim-bare.yaml")


def test_am574x_without_display(tmp_path: Path) -> None:
    r = run_gate(tmp_path, "am574x_idk", ["rt_latency", "glbenchmark", "decode", "display"], timeout=300, LAB=LAB)
    status = {n: s for n, (s, _) in r["tests"].items()}
    assert len(status) == 79
    assert [n for n, s in status.items() if s == "FAIL"] == []
    skipped = {n: m for n, (s, m) in r["tests"].items() if s == "SKIP"}
    assert sorted(n for n in skipped if n.startswith("L_PERF")) == [
        "L_PERF_SHIELD_SMP_1080ENCDEC", "L_PERF_SHIELD_SMP_GRAPHICS"]  # fmt: skip
    why = skipped["1920x1200@60"]
    assert "lab 'sim-bare' has no display (" in why and "tests/fixtures/labs/sim-bare.yaml: has)" in why
    assert len(skipped) == 2 + 11 + 17 + 36


def test_am62x_without_power_meter(tmp_path: Path) -> None:
    r = run_gate(tmp_path, "am62xx_sk", ["low_power", "alsa"], timeout=300, LAB=LAB)
    skipped = {n: m for n, (s, m) in r["tests"].items() if s == "SKIP"}
    assert len(skipped) == 12
    key = "tests/fixtures/labs/sim-bare.yaml: power_meter)"
    assert all("has no power meter (" in m and key in m for m in skipped.values())
    assert all(s == "PASS" for n, (s, _) in r["tests"].items() if n not in skipped)
