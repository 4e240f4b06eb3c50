"""Bad input through the real entry point (robot on the simulated board): every bad variable or data file is named on
the console with its file, key and line, and a run stops before measuring, or, when the bad input is found mid-run,
keeps what it already measured. The console is Robot's own stdout/stderr (`[ ERROR ]` lines and test messages)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from robot.api import ExecutionResult

from perfgate import criteria
from selftest import ROOT, run_gate

pytestmark = pytest.mark.slow

SIM_LAB = ROOT / "variables" / "labs" / "sim.yaml"


def _errors(r: dict) -> list[str]:
    """The `[ ERROR ]` lines Robot printed on the console."""
    return [line for line in r["stdout"].splitlines() if line.startswith("[ ERROR ]")]


def _lab(tmp_path: Path, edit: str, old: str | None = None) -> tuple[Path, int]:
    """A copy of the sim lab with one line replaced (or appended); returns the file and the edited line's number."""
    lines = SIM_LAB.read_text(encoding="utf-8").splitlines()
    if old is None:
        lines.append(edit)
        at = len(lines)
    else:
        at = next(i for i, line in enumerate(lines, 1) if line.startswith(old))
        lines[at - 1] = edit
    path = tmp_path / "mylab.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, at


def _root_with(tmp_path: Path, files: dict[str, str]) -> Path:
    """A repository root (PERFGATE_ROOT) that is this one except for the given files under variables/."""
    root = tmp_path / "root"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in ("variables", "results", ".git", ".venv"):
            (root / entry.name).symlink_to(entry)

    def mirror(src: Path, dest: Path) -> None:
        dest.mkdir()
        for entry in src.iterdir():
            rel = str((dest / entry.name).relative_to(root))
            if any(f == rel or f.startswith(rel + "/") for f in files):
                if entry.is_dir():
                    mirror(entry, dest / entry.name)
            else:
                (dest / entry.name).symlink_to(entry)

    mirror(ROOT / "variables", root / "variables")
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("REPEAT", "abc", "variable REPEAT: must be a whole number of 1 or more, not 'abc'"),
        ("REPEAT", "0", "variable REPEAT: must be a whole number of 1 or more, not '0'"),
        ("AGGREGATE", "foo", "variable AGGREGATE: must be best or median, not 'foo'"),
        ("TOLERANCE", "-1", "TOLERANCE: tolerance '-1' out of range"),
        ("BOOT_CYCLES", "many", "variable BOOT_CYCLES: must be a whole number of 1 or more, not 'many'"),
        ("DURATION", "90s", "variable DURATION: must be a positive number of seconds, not '90s'"),
        ("ON_MISSING_TOOL", "ignore", "variable ON_MISSING_TOOL: must be fail or skip, not 'ignore'"),
        ("SIM_SPEED", "fast", "variable SIM_SPEED: must be auto or a positive factor"),
        ("TOLERANCES", "lmbench", "TOLERANCES: 'lmbench' is not <id glob>=<fraction>"),
    ],
)
def test_a_bad_variable_stops_the_run_naming_it_on_the_console(tmp_path, name, value, said):
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], **{name: value})
    errors = _errors(r)
    assert r["rc"] != 0 and r["seconds"] < 60
    assert any(said in line for line in errors), r["stdout"][-2000:]
    assert not list((tmp_path / "results").rglob("metrics.json")), "nothing may run on a bad variable"


def test_a_broken_tolerance_file_is_named_with_its_line_on_the_console(tmp_path, monkeypatch):
    good = (ROOT / "variables" / "tolerances.yaml").read_text(encoding="utf-8")
    broken = good.replace("    tolerance: 0.15\n", "    tolerance: lots\n", 1)
    line = broken.splitlines().index("    tolerance: lots") + 1
    monkeypatch.setenv("PERFGATE_ROOT", str(_root_with(tmp_path, {"variables/tolerances.yaml": broken})))
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"])
    path = str(tmp_path / "root" / "variables" / "tolerances.yaml")
    assert r["rc"] != 0
    assert any(f"{path}:{line}: " in e and "'lots' is not a fraction" in e for e in _errors(r)), r["stdout"][-2000:]


def test_tolerance_file_that_is_not_yaml_is_named_with_its_line(tmp_path, monkeypatch):
    broken = "default: 0.10\nclasses:\n  - name: x\n    match: {suite: '^a$'\n"
    monkeypatch.setenv("PERFGATE_ROOT", str(_root_with(tmp_path, {"variables/tolerances.yaml": broken})))
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"])
    path = str(tmp_path / "root" / "variables" / "tolerances.yaml")
    assert r["rc"] != 0
    assert any(re.search(rf"{re.escape(path)}:[45]: not valid YAML", e) for e in _errors(r)), r["stdout"][-2000:]


def test_a_lab_timeout_with_a_unit_is_named_with_file_key_and_line(tmp_path):
    lab, line = _lab(tmp_path, "timeouts: {autoboot: 30, uboot_command: 60, boot: 90s, login: 30, ssh: 30}",
                     old="timeouts:")  # fmt: skip
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab))
    said = f"{lab}:{line}: timeouts.boot: must be a positive number of seconds (like 90), not '90s'"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]
    for status, message in r["tests"].values():
        assert status == "FAIL" and said in message


def test_a_lab_duration_with_a_unit_is_named_with_file_key_and_line(tmp_path):
    lab, line = _lab(tmp_path, "duration: 1m")
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab))
    said = f"{lab}:{line}: duration: must be a positive number of seconds (like 90), not '1m'"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_labs_documented_workloads_and_duration_keys_are_used(tmp_path):
    from perfgate.board.lab import load
    from perfgate.workloads.settings import settings

    text = SIM_LAB.read_text(encoding="utf-8")  # the sim lab has a `workloads:` block already: add to it
    assert text.count("\nworkloads:\n  ethernet:\n") == 1
    text = text.replace(
        "\nworkloads:\n  ethernet:\n", "\nworkloads:\n  dhrystone: {timeout: 299}\n  ethernet:\n    tools: [iperf3]\n"
    )
    lab = tmp_path / "mylab.yaml"
    lab.write_text(text + "duration: 3\n", encoding="utf-8")
    data = load(str(lab), "am62xx_sk").data
    assert data["duration"] == 3 and settings("dhrystone", "dhrystone", {}, data)["timeout"] == 299
    assert settings("network", "ethernet", {}, data)["tools"] == ["iperf3"]
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab))
    assert r["tests"] and all(s == "PASS" for s, _ in r["tests"].values()), r["tests"]


def test_an_unknown_lab_timeout_is_named(tmp_path):
    lab, line = _lab(tmp_path, "timeouts: {autoboot: 30, uboot_command: 60, bootup: 90, login: 30, ssh: 30}",
                     old="timeouts:")  # fmt: skip
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab))
    assert any(f"{lab}:{line}: timeouts.bootup: unknown timeout (known: power, autoboot" in e for e in _errors(r))


def test_a_tester_address_with_shell_syntax_is_refused_before_anything_runs(tmp_path):
    marker = tmp_path / "injected"
    lab, line = _lab(tmp_path, f'tester: {{address: "x; touch {marker}; #", run_on: host}}', old="tester:")
    r = run_gate(tmp_path, "j721e_idk_gw", ["ipsec"], LAB=str(lab))
    said = f"{lab}:{line}: tester.address: must be an IP address, a host name or `host`, not 'x; touch {marker}; #'"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]
    assert r["tests"] and all(s == "FAIL" for s, _ in r["tests"].values())
    assert not marker.exists()


def test_an_ssh_address_with_shell_syntax_is_refused(tmp_path):
    lab, line = _lab(tmp_path, 'ssh: {address: "$(reboot)", port: "{state.ssh_port}"}', old="ssh:")
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab))
    said = f"{lab}:{line}: ssh.address: must be an IP address, a host name or `discover`, not '$(reboot)'"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_board_profile_timeout_with_a_unit_is_named_with_file_key_and_line(tmp_path, monkeypatch):
    profile = (ROOT / "variables" / "boards" / "am62xx_sk.yaml").read_text(encoding="utf-8")
    broken = profile.rstrip("\n") + "\ntimeouts:\n  login: 30\n  boot: 2min\n"
    line = len(broken.splitlines())
    root = _root_with(tmp_path, {"variables/boards/am62xx_sk.yaml": broken})
    monkeypatch.setenv("PERFGATE_ROOT", str(root))
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"])
    path = root / "variables" / "boards" / "am62xx_sk.yaml"
    said = f"{path}:{line}: timeouts.boot: must be a positive number of seconds (like 90), not '2min'"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_storage_path_with_shell_syntax_is_refused(tmp_path):
    lab, line = _lab(tmp_path, '  emmc: "/dev/mmcblk0; reboot"', old="  emmc:")
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab))
    said = (
        f"{lab}:{line}: storage.emmc: must be an absolute path (letters, digits, . _ + - /), not '/dev/mmcblk0; reboot'"
    )
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_tool_fault_for_a_tool_the_selected_suites_do_not_run_is_an_error(tmp_path):
    r = run_gate(tmp_path, "am62xx_sk", ["whetstone"], FAULTS="missing-tool:linpack")
    said = "variable FAULTS: missing-tool:linpack names a tool none of the selected suites (whetstone) runs"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]
    assert r["rc"] != 0 and r["seconds"] < 60


@pytest.mark.parametrize(
    ("faults", "said"),
    [
        ("degrade:am62xx_sk.nosuchsuite.*:20", "FAULTS: fault degrade:am62xx_sk.nosuchsuite.*:20 matches none of "
                                               "am62xx_sk's"),
        ("ssh-drop:nosuchtool", "FAULTS: fault ssh-drop:nosuchtool: no such tool (tools: alsa, boot"),  # the cards
    ],
)  # fmt: skip
def test_faults_matching_nothing_stop_the_simulated_board(tmp_path, faults, said):
    """`perfgate sim --faults` (what the sim lab starts): a glob none of the board's criteria match, a tool that
    does not exist."""
    p = subprocess.run([sys.executable, "-m", "perfgate", "sim", "--board", "am62xx_sk", "--state",
                        str(tmp_path / "state.json"), "--faults", faults],
                       capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert p.returncode == 2 and not (tmp_path / "state.json").exists()
    assert said in p.stderr, p.stderr


def test_an_unknown_tool_fault_is_an_error_on_the_console(tmp_path):
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], FAULTS="missing-tool:nosuchtool")
    said = "variable FAULTS: missing-tool:nosuchtool names a tool none of the selected suites (dhrystone) runs"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_degrade_fault_matching_nothing_is_an_error_on_the_console(tmp_path):
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], FAULTS="degrade:am62xx_sk.nosuchsuite.*:20")
    said = "variable FAULTS: degrade:am62xx_sk.nosuchsuite.*:20 matches none of the 3 criteria this run judges"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_degrade_fault_outside_the_selected_suites_is_an_error(tmp_path):
    """The glob matches the board's stream criteria, but this run judges only dhrystone: it would run green."""
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], FAULTS="degrade:am62xx_sk.stream.*:30")
    said = "variable FAULTS: degrade:am62xx_sk.stream.*:30 matches none of the 3 criteria this run judges (am62xx_sk,"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]
    assert r["rc"] != 0 and not list((tmp_path / "results").rglob("metrics.json"))


def test_under_pabot_a_fault_aimed_at_one_suite_fails_that_suite_alone(tmp_path):
    """pabot runs one board's gate as one process (its argument file: the whole tree; plain pabot's split into a
    process per suite is refused, tests/project/test_pabot.py): a fault aimed at whetstone fails whetstone alone."""
    whet = next(c for c in criteria.select("am62xx_sk", None).criteria if c.suite == "whetstone")
    pabot = ROOT / "variables" / "pabot"
    cmd = [sys.executable, "-m", "pabot.pabot", "--no-pabotlib", "--processes", "1", "--outputdir",
           str(tmp_path / "out"), "--ordering", str(pabot / "ordering.txt"), "--argumentfile1",
           str(pabot / "am62xx_sk.args"), "--variable", f"FAULTS:degrade:{whet.id}:30", "--include", "dhrystone",
           "--include", "whetstone", str(ROOT / "suites")]  # fmt: skip
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    p = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    statuses: dict[str, str] = {}

    def walk(suite) -> None:
        for t in suite.tests:
            statuses[t.name] = t.status
        for s in suite.suites:
            walk(s)

    walk(ExecutionResult(str(tmp_path / "out" / "output.xml")).suite)
    assert "variable FAULTS" not in p.stdout + p.stderr, p.stdout[-2000:]
    assert statuses.get(whet.name) == "FAIL", statuses
    dhry = [c.name for c in criteria.select("am62xx_sk", None).criteria if c.suite == "dhrystone"]
    assert dhry and all(statuses.get(n) == "PASS" for n in dhry), statuses


def test_faults_on_a_lab_that_cannot_inject_them_are_an_error(tmp_path):
    lab = ROOT / "variables" / "labs" / "example-ser2net.yaml"
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone"], LAB=str(lab), FAULTS="garbage")
    said = "variable FAULTS: LAB=example-ser2net cannot inject faults (only the simulated board can)"
    assert any(said in e for e in _errors(r)), r["stdout"][-2000:]


def test_a_settings_file_broken_mid_run_keeps_what_was_measured(tmp_path, monkeypatch):
    """dhrystone runs before whetstone; whetstone's settings file is not YAML: dhrystone's numbers stay in
    metrics.json, whetstone's criteria fail naming the file and line, and the console says so."""
    broken = "whetstone:\n  loops: [1, 2\n"
    root = _root_with(tmp_path, {"variables/workloads/whetstone.yaml": broken})
    monkeypatch.setenv("PERFGATE_ROOT", str(root))
    r = run_gate(tmp_path, "am62xx_sk", ["dhrystone", "whetstone"])
    path = str(root / "variables" / "workloads" / "whetstone.yaml")
    assert any(f"{path}:3: not valid YAML" in e or f"{path}:2: not valid YAML" in e for e in _errors(r)), r["stdout"]
    dhry, whet = r["suites"]["Dhrystone"], r["suites"]["Whetstone"]
    assert dhry and all(r["tests"][t][0] == "PASS" for t in dhry)
    assert whet and all(r["tests"][t][0] == "FAIL" and path in r["tests"][t][1] for t in whet)
    metrics = json.loads(next(r["results"].rglob("metrics.json")).read_text(encoding="utf-8"))
    measured = {m["suite"]: m for m in metrics if m["measured"] is not None}
    assert "dhrystone" in measured and "whetstone" not in measured
    assert {m["verdict"] for m in metrics if m["suite"] == "whetstone"} == {"not-measured"}


def test_the_network_chapter_learns_the_board_address_once(tmp_path):
    """The address is read from the console once, at bring-up, and reused by every network test (a noisy console
    must not fail criteria that SSH can measure)."""
    r = run_gate(tmp_path, "am62xx_sk", ["ethernet"], DURATION="1", SIM_SPEED="30")  # short runs: RFC 2544 searches
    assert r["tests"] and all(s == "PASS" for s, _ in r["tests"].values())
    serial = next(r["results"].rglob("serial.log")).read_text(encoding="utf-8", errors="replace")
    assert serial.count("ip -4 -o addr show") == 1, serial.count("ip -4 -o addr show")
