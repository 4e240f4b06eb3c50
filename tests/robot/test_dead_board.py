"""A board whose serial console never opens: every criterion the run selected is named, not measured, with the
reason, in Robot's tests, metrics.json and comparison.html; and no run has an unexpanded `Criterion ${id}` test (a
suite the board publishes nothing for has no test at all)."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
import yaml

from selftest import run_gate

pytestmark = pytest.mark.slow

REASON = "cannot open the serial console /dev/ttyPERFGATEDEAD0"


def test_a_dead_board_names_every_criterion_not_measured_with_the_reason(tmp_path: Path) -> None:
    lab = tmp_path / "deadlab.yaml"
    serial = {"port": "/dev/ttyPERFGATEDEAD0", "baud": 115200}
    lab.write_text(yaml.safe_dump({"name": "deadlab", "kind": "hardware", "power": "none", "login": {"user": "root"},
                                   "serial": serial, "ssh": {"address": "discover", "port": 22},
                                   "tester": {"address": "127.0.0.1"}}))  # fmt: skip
    # am62xx_sk publishes Dhrystone, and nothing for U-Boot UFS or boot time
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone", "uboot_ufs", "boot_time"], LAB=str(lab))
    assert r["rc"] != 0
    assert not [t for t in r["tests"] if "${" in t], r["tests"]  # no template test, in any suite
    assert r["suites"].get("Uboot Ufs", []) == [] and r["suites"].get("Boot Time", []) == [], r["suites"]
    criteria = {t: m for t, (s, m) in r["tests"].items() if ".Dhrystone." in t}
    assert len(criteria) == 3 and all(REASON in m for m in criteria.values()), r["tests"]

    run = next((r["results"] / "am62xx_sk").glob("2*"))
    entries = json.loads((run / "metrics.json").read_text())
    assert len(entries) == 3, entries
    for e in entries:
        assert e["verdict"] == "not-measured" and e["measured"] is None, e
        assert e["message"].startswith("not measured: ") and REASON in e["message"], e
    assert json.loads((run / "run.json").read_text())["verdict"] == "fail"
    page = html.unescape((run / "comparison.html").read_text())
    assert "nothing was measured" not in page
    for e in entries:
        assert e["name"] in page
    assert page.count(REASON) >= 3
