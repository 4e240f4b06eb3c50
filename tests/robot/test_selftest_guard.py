"""The guard on the sim self-tests' INCONCLUSIVE:pass (selftest.hidden_by_quiet_sim): an inconclusive row worse than
published by more than half its tolerance is named; one near its number, a better one, or a failed one is not."""

from __future__ import annotations

import json
from pathlib import Path

from selftest import hidden_by_quiet_sim


def _entry(cid: str, measured: float, direction: str, verdict: str = "inconclusive") -> dict:
    return {"id": cid, "measured": measured, "published": 100.0, "direction": direction, "tolerance": 0.1,
            "verdict": verdict, "message": f"{cid}: measured {measured}"}  # fmt: skip


def test_only_inconclusive_rows_well_short_of_their_number_are_named(tmp_path: Path) -> None:
    run = tmp_path / "virtual" / "am62xx_sk" / "20260101-000000"
    run.mkdir(parents=True)
    entries = [
        _entry("near", 97.0, "higher"),  # 3 % short of 10 %: what a quiet sim may show
        _entry("short", 94.0, "higher"),  # 6 %: more than half the tolerance
        _entry("slow", 106.0, "lower"),  # lower is better: 6 % worse
        _entry("fast", 80.0, "lower"),  # better than published
        _entry("failed", 50.0, "higher", verdict="fail"),  # a FAIL is seen anyway
    ]
    (run / "metrics.json").write_text(json.dumps(entries))
    hidden = hidden_by_quiet_sim(tmp_path)
    assert [h.split(":")[0] for h in hidden] == ["short", "slow"]
