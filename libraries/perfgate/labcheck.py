"""Check a lab and a board without touching the hardware: `perfgate lab check <lab> [--board B]` and
`robot --dryrun` (the gate library runs it when Robot runs dry).

What is checked, each problem as `file:line: key: message`:
- the lab file itself: every key, type and value, by `perfgate.board.lab.load` (the gate's own run-time check);
- what the lab refers to on this host: a serial device that does not exist, a command (power, start, stop, power
  meter) that is not on PATH, a host (ssh, tester, a socket:// or rfc2217:// console) that does not resolve, a
  known-hosts file in a folder that does not exist, a peripheral in `has:` that no board or workload knows;
- the board (an unknown name lists the known ones) and its criteria files for the release (RELEASE);
- the suites the lab cannot run for this board (a missing peripheral, no SSH...): said as notes, not problems.

Nothing here powers, opens or connects to anything.
"""

from __future__ import annotations

import shlex
import shutil
import socket
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from urllib.parse import urlsplit

from perfgate import boards, criteria, paths
from perfgate.board import lab as labs
from perfgate.datafile import load_mapping
from perfgate.errors import DataError, PerfgateError
from perfgate.workloads import settings

COMMAND_KEYS = (("start",), ("stop",), ("power", "on"), ("power", "off"), ("power", "cycle"), ("power_meter",))
OWN_CONSOLE_KINDS = ("sim", "qemu", "hardware")  # kinds whose `serial.port` is the console (labgrid: the place's)
NOT_COMMANDS = ("board", "none", "manual")  # power_meter: board; power: none / manual


@dataclass
class Report:
    problems: list[PerfgateError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [f"problem: {p}" for p in self.problems] + [f"note: {n}" for n in self.notes]


def check(lab_name: str | None, board: str | None = None, release: str | None = None, *,
          resolve_hosts: bool = True) -> Report:  # fmt: skip
    """Every problem of the lab (and of the board and its criteria when a board is given)."""
    report = Report()
    canonical = ""
    if board:
        try:
            canonical = boards.resolve(board)
        except PerfgateError as e:
            report.problems.append(e)
    try:
        lab = labs.load(lab_name, canonical)
    except PerfgateError as e:
        report.problems.append(e)
        return report
    _check_host(lab, report, resolve_hosts)
    _check_has(lab, report)
    if canonical:
        _check_board(lab, canonical, release, report)
    return report


def _check_host(lab: labs.Lab, report: Report, resolve_hosts: bool) -> None:
    """What the lab names on this host: devices, commands, hosts, files."""
    d = lab.data
    port = str((d.get("serial") or {}).get("port") or "")
    if port and not labs.TEMPLATE.search(port) and d["kind"] in OWN_CONSOLE_KINDS:
        if "://" in port:
            url = urlsplit(port)
            if url.scheme in ("socket", "rfc2217") and resolve_hosts and url.hostname:
                _resolves(lab, report, url.hostname, ("serial", "port"))
        elif not Path(port).exists():
            report.problems.append(lab.error(f"no such serial device {port!r} on this host", "serial", "port"))
    for key in COMMAND_KEYS:
        value: object = d
        for k in key:
            value = value.get(k) if isinstance(value, dict) else None
        if value is None or (isinstance(value, str) and value.strip().lower() in NOT_COMMANDS):
            continue
        program = _program(value)
        if program is None:
            report.problems.append(lab.error(f"is not a command line the shell can split: {value!r}", *key))
        elif program and not _runnable(program):
            report.problems.append(lab.error(f"runs {program!r}, which is not on PATH (nor a file) here", *key))
    if resolve_hosts:
        ssh = d.get("ssh")
        if isinstance(ssh, dict):
            _resolves(lab, report, str(ssh.get("address") or "discover"), ("ssh", "address"), ("discover",))
        _resolves(lab, report, str((d.get("tester") or {}).get("address") or "host"), ("tester", "address"), ("host",))
    ssh = d.get("ssh")
    known = ssh.get("known_hosts") if isinstance(ssh, dict) else None
    if isinstance(known, str) and not labs.TEMPLATE.search(known):
        folder = Path(known).expanduser().parent
        if not folder.is_dir():
            report.problems.append(lab.error(f"its folder {str(folder)!r} does not exist", "ssh", "known_hosts"))
    if d["kind"] == "labgrid-env":  # the environment file, its target and its serial devices, nothing activated
        from perfgate.board import labgrid_env

        report.problems += labgrid_env.check(lab)


def _program(command: object) -> str | None:
    """The program a command line runs ('' when the lab fills it in: {python}), None when it cannot be split."""
    if isinstance(command, list):
        words = [str(w) for w in command]
    else:
        try:
            words = shlex.split(str(command))
        except ValueError:
            return None
    while words and "=" in words[0] and not words[0].startswith(("/", "{")):  # VAR=value before the program
        words = words[1:]
    if not words or labs.TEMPLATE.search(words[0]) or words[0] in ("python", "python3"):
        return ""
    return words[0]


def _runnable(program: str) -> bool:
    if "/" in program:
        return Path(program).expanduser().is_file()
    return shutil.which(program) is not None


def _resolves(lab: labs.Lab, report: Report, host: str, key: tuple[str, ...], words: tuple[str, ...] = ()) -> None:
    host = host.strip()
    if not host or host in words or labs.TEMPLATE.search(host):
        return
    try:
        socket.getaddrinfo(host, None)
    except (OSError, UnicodeError) as e:
        report.problems.append(lab.error(f"host {host!r} does not resolve here ({e})", *key))


def known_peripherals() -> set[str]:
    """Every peripheral a board profile has or a workload requires: the words a lab's `has:` may use."""
    found: set[str] = set()
    for board in boards.known():
        try:
            found |= {str(x) for x in boards.profile(board).get("has") or []}
        except PerfgateError:
            continue
    for path in sorted((paths.variables() / "workloads").glob("*.yaml")):
        try:
            data = load_mapping(path, "a mapping of suite names to their settings")
        except DataError:
            continue
        _collect_requires(data, found)
    return found


def _collect_requires(node: object, found: set[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "requires":
                parts = v.values() if isinstance(v, dict) else [v]
                for part in parts:
                    found |= {str(x) for x in (part if isinstance(part, list) else [part]) if x}
            else:
                _collect_requires(v, found)
    elif isinstance(node, list):
        for v in node:
            _collect_requires(v, found)


def _check_has(lab: labs.Lab, report: Report) -> None:
    known = known_peripherals()
    for i, word in enumerate(lab.data.get("has") or []):
        if str(word) not in known:
            report.problems.append(
                lab.error(f"unknown peripheral {word!r} (known: {', '.join(sorted(known))})", "has", i)
            )


def _check_board(lab: labs.Lab, board: str, release: str | None, report: Report) -> None:
    """The board's criteria for the release, and the suites this lab cannot run for it (notes)."""
    try:
        selection = criteria.select(board, release)
        profile = labs.board_profile(board, lab)
    except PerfgateError as e:
        report.problems.append(e)
        return
    lab_data = {**lab.data, "name": lab.name, "profile_overrides": dict(lab.profile_overrides)}
    for suite, crits in sorted(selection.by_suite().items()):
        try:
            workload = import_module(f"perfgate.workloads.{suite}").WORKLOAD
        except ModuleNotFoundError:
            report.notes.append(f"{suite}: no workload measures it yet ({len(crits)} criteria fail as not measured)")
            continue
        try:
            reason = workload.applicable(crits, profile, lab_data)
        except PerfgateError as e:
            report.problems.append(e)
            continue
        needs = settings.needs(suite)
        if reason:
            report.notes.append(f"{suite}: skipped in LAB={lab.name}: {reason}" + (
                f" (needs {', '.join(needs)})" if needs else ""))  # fmt: skip
