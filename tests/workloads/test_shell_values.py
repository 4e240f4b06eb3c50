"""No lab or data value reaches a shell unquoted: addresses that go into command lines are checked, and the values
filled into the lab's own shell commands (power, stop) are shell-quoted. Each test drives the real code: the IPsec
workload (its tester-side commands run in a shell on the gate's host) and the real power driver running a real
shell command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from perfgate.board.lab import expand
from perfgate.board.power import CommandPower
from perfgate.errors import DataError
from perfgate.workloads import ipsec
from workload_harness import SIM_LAB, context

EVIL = "x; touch injected; #"


def test_an_ipsec_tester_address_with_shell_syntax_never_reaches_a_command() -> None:
    """The lab's workloads.ipsec.tester, with the tester's commands run on this host: refused before any command
    is built (before, `ip xfrm state add src x; touch injected; # ...` went to `sh -c` on the host)."""
    lab = {**SIM_LAB, "tester": {"address": "127.0.0.1", "run_on": "host"},
           "workloads": {"ipsec": {"tester": EVIL}}}  # fmt: skip
    ctx = context(ipsec.WORKLOAD, "j721e_idk_gw", "ipsec", lab=lab)
    assert ctx.criteria
    with pytest.raises(DataError, match=r"is not an IP address or a host name"):
        ipsec.WORKLOAD.measure(ctx.criteria, ctx)
    assert not any(EVIL in command for _, command in ctx.commands), ctx.commands


def test_a_board_address_with_shell_syntax_never_reaches_a_command() -> None:
    """The board's address goes into commands the tester runs (netperf -H {board}); one that is not an address
    (a console that printed garbage, a lab typo) is refused."""
    ctx = context(ipsec.WORKLOAD, "j721e_idk_gw", "ipsec")
    ctx.board_address = lambda: "10.0.0.2$(reboot)"  # what the board library learned
    with pytest.raises(DataError, match=r"the board's address: '10.0.0.2\$\(reboot\)' is not an IP address"):
        ipsec.WORKLOAD.measure(ctx.criteria, ctx)
    assert not ctx.commands


def test_the_interpreter_path_is_quoted_in_the_labs_power_commands(tmp_path, monkeypatch) -> None:
    """{python} in a power command is this interpreter; a virtualenv under a path with spaces and shell syntax
    still runs the right program, and nothing else."""
    odd = tmp_path / "venv with space; touch injected; #" / "bin"
    odd.mkdir(parents=True)
    (odd / "python").symlink_to(sys.executable)
    monkeypatch.setattr(sys, "executable", str(odd / "python"))
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "switched"
    commands = expand({"on": "{python} -c 'import sys; open(sys.argv[1], \"w\").write(\"on\")' " + str(out),
                       "off": "true"}, {"board": "am62xx_sk"}, quote=True)  # fmt: skip
    CommandPower(commands, timeout=30).on()
    assert out.read_text() == "on"
    assert not (tmp_path / "injected").exists() and not list(tmp_path.rglob("injected"))


def test_the_perfgate_console_script_has_version_and_the_same_commands() -> None:
    from importlib.metadata import version

    import perfgate

    script = Path(sys.executable).parent / "perfgate"
    assert script.exists(), "pip install -e . (requirements.txt) installs the `perfgate` console script"
    env = {**os.environ, "PERFGATE_NO_COLLECT": "1"}
    v = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60, env=env)
    assert (
        v.returncode == 0
        and v.stdout.strip() == f"perfgate {perfgate.__version__}" == f"perfgate {version('perfgate')}"
    )
    helps = [subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env).stdout
             for cmd in ([str(script), "--help"], [sys.executable, "-m", "perfgate", "--help"])]  # fmt: skip
    assert helps[0].startswith("usage: perfgate ") and helps[1].startswith("usage: python -m perfgate ")
    assert helps[0].split("\n", 1)[1] == helps[1].split("\n", 1)[1]  # the same commands, the same help
    boards = [
        subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
        for cmd in ([str(script), "boards", "--json"], [sys.executable, "-m", "perfgate", "boards", "--json"])
    ]
    assert boards[0].returncode == 0 and boards[0].stdout == boards[1].stdout and boards[0].stdout.startswith("[")
