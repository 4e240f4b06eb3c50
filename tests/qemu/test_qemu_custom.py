"""A criterion no guide publishes, gated on the QEMU board (issue 30): qemu_arm64's own stress-ng criterion
(variables/custom/qemu_arm64.yaml) and a copy of it held to 100x its value, in a scratch root, run by the plain
`robot -v BOARD:qemu_arm64 -v LAB:qemu --suite custom suites/`: one real stress-ng run on the board measures both, the
one passes, the other fails, and both are in metrics.json and run.json's verdict like any guide's row.

Needs the image (`python -m perfgate qemu build`); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from perfgate import criteria, custom, paths
from perfgate.commands import baseline
from perfgate.qemu import image

pytestmark = [pytest.mark.slow, pytest.mark.qemu]
BOARD = "qemu_arm64"


def test_own_criteria_are_measured_and_judged_on_the_qemu_board(tmp_path):
    try:
        image.current()
    except image.BuildError as e:
        pytest.skip(str(e))
    own = custom.path_of(BOARD).read_text(encoding="utf-8")
    first = own.index("  - name:")
    entry = own[first : own.index("  - name:", first + 1)]  # the one-worker criterion
    tight = entry.replace("name: stress-ng cpu matrixprod", "name: stress-ng cpu matrixprod x100")
    tight = tight.replace("value: 10.0", "value: 1000.0")
    assert tight != entry
    root = baseline.scratch_root(BOARD, tmp_path / "root", criteria.load(BOARD))
    (root / "variables" / "custom").unlink()
    (root / "variables" / "custom").mkdir()
    (root / "variables" / "custom" / f"{BOARD}.yaml").write_text(own + tight, encoding="utf-8")
    results = tmp_path / "results"
    env = {**os.environ, "PERFGATE_ROOT": str(root), "PERFGATE_RESULTS": str(results)}
    p = subprocess.run(
        [sys.executable, "-m", "robot", "-v", f"BOARD:{BOARD}", "-v", "LAB:qemu", "--outputdir", str(tmp_path / "out"),
         "--console", "dotted", "--suite", "custom", str(root / "suites")],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    runs = sorted((results / "virtual" / BOARD).glob("2*/metrics.json"))
    assert runs, p.stdout[-3000:]
    entries = {e["name"]: e for e in json.loads(runs[-1].read_text(encoding="utf-8"))}
    holds, tight_entry = entries["stress-ng cpu matrixprod"], entries["stress-ng cpu matrixprod x100"]
    assert holds["verdict"] in ("pass", "warn") and holds["tool"] == "stress-ng", holds
    assert tight_entry["verdict"] == "fail" and tight_entry["measured"] > 0, tight_entry
    assert holds["tolerance"] == 0.5 and holds["suite"] == "custom" and holds["source"] == f"custom/{BOARD}.yaml:6"
    # one command, one real run on the board for both criteria: the same evidence
    assert holds["evidence"] == tight_entry["evidence"] and holds["measured"] == tight_entry["measured"]
    raw = (runs[-1].parent / holds["evidence"][0]).read_text(encoding="utf-8")
    assert "stress-ng: metrc:" in raw and "successful run completed" in raw
    run = json.loads((runs[-1].parent / "run.json").read_text(encoding="utf-8"))
    assert run["verdict"] == "fail" and p.returncode == 1, p.stdout[-3000:]
    assert "stress-ng cpu matrixprod x100" in (runs[-1].parent / "comparison.html").read_text(encoding="utf-8")
    assert paths.root() != root  # the committed file was not touched
