"""A calibrated simulated board for the tests of the gate's mechanics (reruns, inconclusive, a degraded number that
FAILs, the rerun recipes): a virtual history of five passing A/A runs, each a boot with three runs of every command
within 1 % of the published value (README, "Calibration"). With it a criterion's noise is the board's own, so the
quiet simulated board (tests/conftest.py) is held to each criterion's own tolerance; without it the class figures
and the guides' ranges hold some rows (am62xx_sk's STREAM: about 11 % run to run by its guide) to a wider one
(LIMITED), as on a board no one has calibrated (tests/decision/test_noise_realistic.py)."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable
from pathlib import Path

from perfgate import criteria

RUNS = 5
SAMPLES = 3
SD = 0.01


def seed(results: Path, boards: Iterable[str]) -> None:
    """Write results/virtual/<board>/history.jsonl for each board (every release's criteria), unless it exists."""
    for board in boards:
        path = Path(results) / "virtual" / board / "history.jsonl"
        if path.exists():
            continue
        crits = {c.id: c for cs in criteria.load_all(board).values() for c in cs}
        rng = random.Random(board)
        lines = []
        for r in range(RUNS):
            boot = rng.gauss(0.0, SD / 2)
            metrics = {
                cid: {"suite": c.suite, "name": c.name, "unit": c.unit, "published": c.value, "measured": c.value,
                      "direction": c.direction, "verdict": "pass",
                      "samples": [c.value * math.exp(boot + rng.gauss(0.0, SD)) for _ in range(SAMPLES)]
                      if c.value > 0 and c.direction != "match" else [c.value] * SAMPLES}
                for cid, c in crits.items()
            }  # fmt: skip
            lines.append(json.dumps({"run": f"2000010{r}-000000-calibration", "board": board, "lab": "sim",
                                     "virtual": True, "started": f"2000-01-0{r + 1}T00:00:00Z", "status": "finished",
                                     "verdict": "pass", "faults": None, "metrics": metrics}))  # fmt: skip
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def seed_for(results: Path, argv: Iterable[str]) -> None:
    """Seed the boards a robot command line names (`-v BOARD:<board>`)."""
    from perfgate import boards
    from perfgate.errors import UnknownBoard

    for name in [a.split(":", 1)[1] for a in argv if isinstance(a, str) and a.startswith("BOARD:")]:
        try:
            seed(results, [boards.resolve(name)])
        except UnknownBoard:  # the test is of an unknown board: nothing to calibrate
            continue
