"""The resume-latency method's reader (perfgate.tools.resume) on constructed fixtures (tests/fixtures/resume/
PROVENANCE.md), the command the method runs, and the sim's output read back."""

from __future__ import annotations

import random

import pytest

from perfgate import boards, criteria, tools
from perfgate.errors import DataError, ParseError
from perfgate.sim.tools import resume as sim_resume
from perfgate.tools import resume
from perfgate.workloads import low_power
from perfgate.workloads.peripherals import settings
from testpaths import FIXTURES

FIX = FIXTURES / "resume"


def test_latency_is_running_minus_alarm_in_ms() -> None:
    text = (FIX / "deep-sleep.txt").read_text(encoding="utf-8")
    assert tools.parse("resume", text) == {"Total Resume Latency (ms)": 137.512}
    assert resume.method(text) == "rtc-alarm"


REFUSED = [
    ("no-resume.txt", "line 2: the alarm was set, but no `resume: running`"),
    ("never-slept.txt", "line 4: user space ran at .* before the alarm"),
]


@pytest.mark.parametrize(("name", "says"), REFUSED)
def test_no_resume_and_no_sleep_are_refused(name: str, says: str) -> None:
    with pytest.raises(ParseError, match=says):
        resume.parse((FIX / name).read_text(encoding="utf-8"))


def test_two_runs_are_refused() -> None:
    with pytest.raises(ParseError, match="more than one run"):
        resume.parse((FIX / "deep-sleep.txt").read_text(encoding="utf-8") * 2)


def _rows() -> tuple[list, dict]:
    crits = [c for c in criteria.load("am62xx_sk", "low_power", "12.00.00") if "resume" in c.table.lower()]
    return crits, settings("low_power", boards.profile("am62xx_sk"), {})


def test_the_command_detaches_the_console_and_names_its_method_and_mode() -> None:
    crits, s = _rows()
    runs = [low_power.resume_run(c, s) for c in crits]
    assert [r.label for r in runs] == ["resume-deep-sleep", "resume-mcu-only"]
    deep = runs[0].command
    assert "echo -n N > $c" in deep and "echo -n Y > $c" in deep  # the guide's console detach, then re-attached
    assert "rtcwake -m mem -t $t0" in deep and "t0=$(( $(date +%s) + 5 ))" in deep
    assert 'echo "resume: method rtc-alarm deep-sleep"' in deep
    assert runs[0].keys == {"Total Resume Latency (ms)": [crits[0].id]}


def test_the_method_is_data_a_lab_overrides_and_checked() -> None:
    crits, _ = _rows()
    lab = {"workloads": {"low_power": {"resume_latency": {"seconds": 9, "method": "scope",
                                                          "command": "gpio-timer {seconds} {method}"}}}}  # fmt: skip
    s = settings("low_power", boards.profile("am62xx_sk"), lab)
    assert low_power.resume_run(crits[0], s).command == "gpio-timer 9 scope"
    for bad, says in (({"seconds": "5; reboot"}, "seconds: must be a whole number"),
                      ({"method": "a b"}, "method: must be one word"),
                      ({"modes": [{"match": "deep", "rtc_mode": "mem; reboot"}]}, "rtc_mode")):  # fmt: skip
        s = settings("low_power", boards.profile("am62xx_sk"), {"workloads": {"low_power": {"resume_latency": bad}}})
        with pytest.raises(DataError, match=says):
            low_power.resume_run(crits[0], s)


def test_the_sims_output_reads_back() -> None:
    crits, s = _rows()
    command = low_power.resume_run(crits[1], s).command
    out = sim_resume.render(command, {resume.KEY: 94.3}, random.Random(1))
    assert resume.parse(out, command) == {resume.KEY: pytest.approx(94.3, abs=0.001)}
    assert "resume: method rtc-alarm mcu-only" in out
