"""perfgate.tools.cpuload: the board's CPU load between two /proc/stat readings (the forwarding tables' CPU Load %
(FORWARDING)), on a real capture (tests/fixtures/cpuload/PROVENANCE.md) and the sim's rendering."""

from __future__ import annotations

import random

import pytest

from perfgate import tools
from perfgate.errors import ParseError
from perfgate.sim.tools import cpuload as sim_cpuload
from perfgate.tools.common import CPU
from testpaths import FIXTURES

FIX = FIXTURES / "cpuload"


def test_real_readings_give_the_busy_share() -> None:
    text = (FIX / "two-readings-1s.txt").read_text(encoding="utf-8")
    a, b = ([int(x) for x in ln.split()[1:]] for ln in text.splitlines()[1:3])
    total = sum(b) - sum(a)
    busy = total - (b[3] - a[3]) - (b[4] - a[4])
    assert tools.parse("cpuload", text) == {CPU: round(100 * busy / total, 3)}


def test_one_reading_is_no_load() -> None:
    text = (FIX / "two-readings-1s.txt").read_text(encoding="utf-8").splitlines()
    with pytest.raises(ParseError, match="1 `cpu ` lines"):
        tools.parse("cpuload", "\n".join(text[:2]))
    with pytest.raises(ParseError, match="no clock ticks"):
        tools.parse("cpuload", "\n".join([text[1], text[1]]))


@pytest.mark.parametrize("load", [0.11, 62.01])
def test_the_sims_readings_read_back(load: float) -> None:
    command = "echo '# hsr'; head -1 /proc/stat; sleep 1; head -1 /proc/stat"
    out = sim_cpuload.render(command, {CPU: load}, random.Random(3))
    assert out.startswith("# hsr\n")
    assert tools.parse("cpuload", out)[CPU] == pytest.approx(load, abs=0.01)
