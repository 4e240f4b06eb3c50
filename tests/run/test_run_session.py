"""The run (perfgate.run.session, perfgate.run.settings): run variables checked, the board and release resolved,
results/<board>/<run>/ opened with its criteria files, FAULTS checked against what the run judges and runs, the
signal that stops the run noted, the versions the board printed read back. Against the committed board data."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from perfgate import runvars
from perfgate.errors import PerfgateError
from perfgate.run.session import Session, board_versions, selected_suites, str_or_none, unique
from perfgate.run.settings import Settings
from robot import running


def session(**variables: object) -> Session:
    return Session(var=lambda name, default=None: variables.get(name, default))


def test_settings_default_and_a_bad_variable_names_itself() -> None:
    s = Settings.read(lambda name, default=None: default)
    assert (s.repeat, s.aggregate, s.inconclusive, s.on_missing_tool) == (None, "median", "fail", "fail")
    assert s.budget is not None and s.budget.repeat is None  # no REPEAT: the budget decides each command's runs
    assert s.noise is not None
    assert Settings.read(lambda n, d=None: {"REPEAT": "5", "AGGREGATE": "best"}.get(n, d)).repeat == 5
    for name, value in (("REPEAT", "abc"), ("AGGREGATE", "mean"), ("DURATION", "-1"), ("SIM_SPEED", "fast"),
                        ("SIM_SEED", "x"), ("BOOT_CYCLES", "0"), ("ON_MISSING_TOOL", "ignore")):  # fmt: skip
        with pytest.raises(runvars.VariableError, match=f"variable {name}"):
            Settings.read(lambda n, d=None, name=name, value=value: value if n == name else d)


def test_a_run_opens_its_directory_with_the_criteria_of_each_suite(results: Path) -> None:
    s = session(REPEAT="2")
    s.check("am62xx-sk")  # an alias resolves
    meta = s.start("am62xx-sk", "sim", True)
    assert s.board == "am62xx_sk" and s.settings.repeat == 2 and meta["repeat"] == 2
    assert s.run_dir is not None and s.run_dir.parent == results / "virtual" / "am62xx_sk"
    assert os.environ["PERFGATE_RELEASE"] == s.selection.label == meta["release"]
    stream = s.suite_criteria("stream")
    assert stream and all(c.suite == "stream" for c in stream)
    assert (s.criteria_dir / "stream.csv").is_file()
    assert s.criterion(stream[0].id) == stream[0] and s.criterion("no.such.id") is None
    assert meta["board_requested"] == "am62xx-sk" and meta["virtual"] is True and meta["guide"]
    metadata, console = s.announce("sim", "comparison.html")
    assert dict(metadata)["Virtual"].startswith("yes: VIRTUAL BOARD") and "results in" in console[0]


def test_bad_input_is_an_error_before_anything_runs(results: Path) -> None:
    with pytest.raises(PerfgateError, match="unknown board"):
        session().check("no_such_board")
    with pytest.raises(runvars.VariableError, match=r"degrade:nothing\.matches\.\*:20 matches none of the"):
        session(FAULTS="degrade:nothing.matches.*:20").check("am62xx_sk")
    s = session(FAULTS="missing-tool:no-such-tool")
    s.check("am62xx_sk")
    s.selected = ["stream"]
    with pytest.raises(runvars.VariableError, match=r"names a tool none of the selected suites \(stream\) runs"):
        s.check_tool_faults()
    session(FAULTS="missing-tool:no-such-tool", PABOTQUEUEINDEX="0").check_tool_faults()  # pabot: its share only


def test_the_signal_that_stops_the_run_is_noted_and_the_previous_handler_still_runs() -> None:
    seen: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda num, frame: seen.append(num))
    try:
        s = session()
        s.watch_signals()
        s.watch_signals()  # once only: the handler is not chained twice
        os.kill(os.getpid(), signal.SIGTERM)
        assert s.signal == "SIGTERM" and seen == [signal.SIGTERM] and s.interrupted
    finally:
        signal.signal(signal.SIGTERM, before)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def test_board_versions_are_the_last_the_console_printed(tmp_path: Path) -> None:
    """A constructed serial.log: two boots, the banners as U-Boot and Linux print them."""
    log = tmp_path / "serial.log"
    assert board_versions(log) == {}
    log.write_text("U-Boot SPL 2023.04-g1 (Jan 1 2024)\nU-Boot 2023.04-g1  (Jan 1 2024 - 00:00:00 +0000)\n"
                   "[    0.000000] Linux version 6.1.46-rt13 (oe-user@oe-host)\nU-Boot 2024.01-x (Feb 2 2024)\n"
                   "[    0.000000] Linux version 6.6.32 (builder)\n", encoding="utf-8")  # fmt: skip
    assert board_versions(log) == {"uboot_version": "U-Boot 2024.01-x (Feb 2 2024)", "kernel_version": "6.6.32"}


def test_the_selected_suites_are_the_files_under_the_top_suite(tmp_path: Path) -> None:
    (tmp_path / "system").mkdir()
    for name in ("__init__.robot", "system/stream.robot", "system/lmbench.robot"):
        (tmp_path / name).write_text("*** Test Cases ***\n", encoding="utf-8")
    top = running.TestSuite(name="Suites", source=tmp_path)
    system = top.suites.create(name="System", source=tmp_path / "system")
    system.suites.create(name="Stream", source=tmp_path / "system" / "stream.robot")
    system.suites.create(name="Lmbench", source=tmp_path / "system" / "lmbench.robot")
    assert selected_suites(top) == ["stream", "lmbench"]


def test_unique_run_directories_and_none_words(tmp_path: Path) -> None:
    base = tmp_path / "b" / "20261126-080000"
    assert [unique(base).name for _ in range(3)] == [base.name, f"{base.name}-2", f"{base.name}-3"]
    assert [str_or_none(v) for v in (None, "", "None", "NONE", "x", 3)] == [None, None, None, None, "x", "3"]
