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

import copy
import os
import shlex
import shutil
import socket
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from perfgate import boards, criteria, paths
from perfgate.board import lab as labs
from perfgate.datafile import load_mapping
from perfgate.errors import DataError, PerfgateError
from perfgate.labkinds import base as labkinds
from perfgate.workloads import settings

COMMAND_KEYS = (("start",), ("stop",), ("power", "on"), ("power", "off"), ("power", "cycle"), ("power_meter",))
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
    lab, errors = _load(lab_name, canonical)
    report.problems += errors
    if lab is None:
        return report
    _check_host(lab, report, resolve_hosts)
    _check_has(lab, report)
    if canonical:
        _check_board(lab, canonical, release, report)
    return report


def _load(name: str | None, board: str) -> tuple[labs.Lab | None, list[PerfgateError]]:
    """The lab as the gate loads it; when the file has a problem, every problem it has: the gate's own check
    (board.lab.validate) stops at the first, so each key it names is taken out and the rest checked again (and
    returned, when it then passes, for the checks on this host; without its per-board overrides)."""
    try:
        return labs.load(name, board), []
    except PerfgateError as e:
        errors: list[PerfgateError] = [e]
    try:  # the file and its keys' lines, as load() reads them (an unknown lab, broken YAML: that one error)
        path = labs.lab_path((name or "").strip() or labs.DEFAULT_LAB)
        data = labs._normalise(load_mapping(path, "a mapping of keys"))
        node = yaml.compose(path.read_text(encoding="utf-8"))
    except PerfgateError:
        return None, errors
    lines: dict[tuple, int] = {}
    if node is not None:
        labs._collect_lines(node, (), lines)  # the same lines load() names
    seen: set[tuple] = set()
    for _ in range(50):
        key = _key_of(errors[-1], lines)
        if key is None or key in seen or not _drop(data, key):
            break
        seen.add(key)
        checked = labs._normalise(copy.deepcopy(data))  # as load() reads it (YAML's on/off keys named back)
        lab = labs.Lab(name=str(data.get("name") or path.stem), path=path, data=checked, lines=lines)
        try:
            labs.validate(lab)
        except PerfgateError as e:
            if _key_of(e, lines) in seen:  # the key taken out is needed: what it says now follows from that
                break
            errors.append(e)
            continue
        return lab, errors  # the rest of the lab (its bad keys out) is checked on this host too
    return None, errors


def _key_of(error: PerfgateError, lines: dict[tuple, int]) -> tuple | None:
    """The key path an error names (`timeouts.boot: must be ...` -> ("timeouts", "boot")), if the file has it."""
    head = error.message.split(": ", 1)[0]
    key = tuple(int(p) if p.isdigit() else p for p in head.split("."))
    return key if key in lines else None


def _drop(data: dict, key: tuple) -> bool:
    node: object = data
    for k in key[:-1]:
        node = node.get(k) if isinstance(node, dict) else (node[k] if isinstance(node, list) and
                                                            isinstance(k, int) and k < len(node) else None)  # fmt: skip
    last = key[-1]
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    if isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = None
        return True
    return False


def _check_host(lab: labs.Lab, report: Report, resolve_hosts: bool) -> None:
    """What the lab names on this host: devices, commands, hosts, files."""
    d = lab.data
    port = str((d.get("serial") or {}).get("port") or "")
    kind = labkinds.kind(d["kind"])
    if port and not labs.TEMPLATE.search(port) and kind.own_console:  # (labgrid: the place's console, not a port)
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
        problem = _command_problem(value)
        if problem:
            report.problems.append(lab.error(problem, *key))
    if resolve_hosts:
        ssh = d.get("ssh")
        if isinstance(ssh, dict):
            _resolves(lab, report, str(ssh.get("address") or "discover"), ("ssh", "address"), ("discover",))
        _resolves(lab, report, str((d.get("tester") or {}).get("address") or "host"), ("tester", "address"), ("host",))
    _check_files(lab, report)
    _check_password(lab, report)
    hosts: list[tuple[str, tuple[str, ...]]] = []  # the hosts the kind names, resolved after its own problems
    report.problems += kind.check(lab, _command_problem, lambda host, key: hosts.append((host, key)))  # nothing opened
    for host, key in hosts if resolve_hosts else []:
        _resolves(lab, report, host, key)


def _check_files(lab: labs.Lab, report: Report) -> None:
    """ssh.key must be there, ssh.known_hosts's folder too (the file is written on first use): both read from the
    lab file's folder when relative, as the gate reads them."""
    ssh = lab.data.get("ssh")
    if not isinstance(ssh, dict):
        return
    key, known = ssh.get("key"), ssh.get("known_hosts")
    if isinstance(key, str) and not labs.TEMPLATE.search(key) and not lab.file(key).is_file():
        report.problems.append(lab.error(f"no such file {str(lab.file(key))!r} (the SSH private key; relative: to "
                                         "the lab file's folder)", "ssh", "key"))  # fmt: skip
    if isinstance(known, str) and not labs.TEMPLATE.search(known) and not lab.file(known).parent.is_dir():
        folder = lab.file(known).parent
        report.problems.append(lab.error(f"its folder {str(folder)!r} does not exist", "ssh", "known_hosts"))


def _check_password(lab: labs.Lab, report: Report) -> None:
    """A hardware lab's login.password_env names a variable this shell has (empty: a board without password); a
    virtual lab's boards have none."""
    env = (lab.data.get("login") or {}).get("password_env")
    if isinstance(env, str) and not lab.virtual and env not in os.environ:
        report.problems.append(lab.error(f"the environment variable {env} is not set: the gate would type an empty "
                                         f"password (export {env}=..., or {env}= for a board without one, or drop "
                                         "password_env)", "login", "password_env"))  # fmt: skip


def _command_problem(command: object) -> str | None:
    """What is wrong with a command line on this host (it cannot be split, its program is not there), or None."""
    program = _program(command)
    if program is None:
        return f"is not a command line the shell can split: {command!r}"
    if program and not _runnable(program):
        return f"runs {program!r}, which is not on PATH (nor a file) here"
    return None


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
    lab_data = {**lab.data, "name": lab.name, "file": str(lab.path), "profile_overrides": dict(lab.profile_overrides)}
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
