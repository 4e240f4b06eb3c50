"""Labs: variables/labs/<name>.yaml says where a board is and how to reach it (every key: docs/labs.md).

`load(name, board)` validates the file (every error names the file, the key and its line), applies the lab's
per-board overrides (`boards.<board>`: lab keys override the lab, other keys override the board profile) and
returns a `Lab`. No name means the built-in `sim` lab. What a lab kind adds (its own keys, whether it may be
hardware, its profile overrides, its banner) is its module's in perfgate.labkinds; the Lab itself and the
templates are perfgate.board.labfile's.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from perfgate import address, boards, paths
from perfgate.board.labfile import TEMPLATE as TEMPLATE
from perfgate.board.labfile import Lab as Lab
from perfgate.board.labfile import _line
from perfgate.board.labfile import expand as expand
from perfgate.board.timeouts import TIMEOUTS
from perfgate.datafile import load_mapping, merge
from perfgate.errors import DataError, UnknownBoard
from perfgate.labkinds import base as labkinds
from perfgate.squad import target as squad_target

DEFAULT_LAB = "sim"
COMMON_KEYS = {
    "name", "kind", "virtual", "description", "serial", "power", "login", "ssh", "tester", "has", "storage",
    "power_meter", "boards", "start", "start_options", "ready_timeout", "stop", "min_timeout", "timeouts",
    "manual_timeout", "qemu", "image", "workloads", "duration", "squad",
}  # fmt: skip
LAB_KEYS = COMMON_KEYS | labkinds.own_keys()  # and each kind's own (labgrid, labgrid_env, lava)
SECONDS_KEYS = ("ready_timeout", "min_timeout", "manual_timeout", "duration")  # a positive number of seconds each
POWER_WORDS = ("none", "manual")
# a command that starts or drives perfgate's simulated board (python -m perfgate sim / sim-power / sim-pdu ...)
SIMULATED = re.compile(r"(?:^|[\s/'\"])(?:-m\s+)?perfgate(?:\s+|\.)sim(?:-power|-pdu|\.\w+)?(?:$|[\s'\"])")
HOST_KEY_POLICIES = ("accept-new", "strict", "off")  # like OpenSSH's StrictHostKeyChecking accept-new / yes / no


def lab_keys() -> set[str]:
    """Every key a lab file may have: the common ones and those of every registered kind."""
    return COMMON_KEYS | labkinds.own_keys()


def board_profile(board: str, lab: Lab) -> dict:
    """The board's profile as this lab sees it: variables/boards (defaults, the board) with the lab's
    `boards.<board>` overrides on top (and `network: false` for a console-only lab). Every part of the gate (board
    control, workloads, the gate's planning) reads this one."""
    return merge(boards.profile(board), lab.profile_overrides)


def known() -> list[str]:
    d = paths.labs()
    return sorted(p.stem for p in d.glob("*.yaml")) if d.is_dir() else []


def lab_path(name: str) -> Path:
    if name.endswith((".yaml", ".yml")) or "/" in name:
        p = Path(name)
        if not p.exists():
            raise DataError(f"lab file {name} does not exist")
        return p
    p = paths.labs() / f"{name}.yaml"
    if not p.exists():
        raise DataError(f"unknown lab {name!r}; known labs: {', '.join(known())} (files in {paths.labs()})")
    return p


def load(name: str | None, board: str) -> Lab:
    name = (name or "").strip() or DEFAULT_LAB
    path = lab_path(name)
    what = "a mapping of keys (name, kind, serial, power, ...)"
    data = load_mapping(path, what)  # YAML errors name the file and line
    node = yaml.compose(path.read_text(encoding="utf-8"))  # valid YAML by now: only the lines of the keys
    if node is None:
        raise DataError(f"a lab file must be {what}", path, 1)
    lines: dict[tuple, int] = {}
    _collect_lines(node, (), lines)
    lab = Lab(name=str(data.get("name") or path.stem), path=path, data=_normalise(data), lines=lines)
    validate(lab)
    kind = labkinds.kind(lab.kind)
    lab.describe = kind.banner
    overrides = (lab.data.get("boards") or {}).get(board) or {}
    for key, value in overrides.items():
        if key in lab_keys():  # a board's `key: null` clears the lab's key; deeper, null keeps the lab's value
            lab.data[key] = None if value is None else merge(lab.data.get(key), value)
        else:
            lab.profile_overrides[key] = value
    if overrides:
        validate(lab)
    for key, value in kind.profile(lab).items():  # what the kind implies (LAVA boots the board: no U-Boot)
        lab.profile_overrides[key] = merge(lab.profile_overrides.get(key), value)
    if lab.console_only:  # every part of the gate (board, workloads) sees a board without network
        lab.profile_overrides["network"] = False
    return lab


def _normalise(data: dict) -> dict:
    """YAML 1.1 reads unquoted `on:`/`off:` as booleans: give the power keys their names back."""
    power = data.get("power")
    if isinstance(power, dict):
        data["power"] = {
            ({True: "on", False: "off"}.get(k, k) if isinstance(k, bool) else k): v for k, v in power.items()
        }
    return data


def _collect_lines(node: yaml.Node, path: tuple, lines: dict[tuple, int]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value
            lines[(*path, key)] = k.start_mark.line + 1
            _collect_lines(v, (*path, key), lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _collect_lines(v, (*path, i), lines)


def validate(lab: Lab) -> None:
    d = lab.data
    known = lab_keys()
    unknown = sorted(set(map(str, d)) - known)
    if unknown:
        raise lab.error(f"unknown key (known keys: {', '.join(sorted(known))})", unknown[0])
    kinds = labkinds.kinds()
    if d.get("kind") not in kinds:
        raise lab.error(f"must be one of {', '.join(kinds)}, not {d.get('kind')!r}", "kind")
    hardware = kinds[d["kind"]].hardware  # its boards may be real
    if "virtual" not in d:
        d["virtual"] = not hardware
    if not isinstance(d["virtual"], bool):
        raise lab.error(f"must be true or false, not {d['virtual']!r}", "virtual")
    if not hardware and not d["virtual"]:
        raise lab.error(f"a {d['kind']} lab is virtual: it must never be reported as hardware", "virtual")
    for name, cls in kinds.items():  # a kind's own keys belong in a lab of that kind only
        for key in cls.keys:
            if name != d["kind"] and d.get(key) is not None:
                raise lab.error(f"only a `kind: {name}` lab {cls.takes}", key)
    labkinds.kind(d["kind"]).validate(lab)  # its own keys (labgrid: the place gives the console and the power)
    start = d.get("start")
    if start is not None and not isinstance(start, (str, list)):
        raise lab.error("must be a command line (string or list)", "start")
    if hardware and not d["virtual"]:
        refuse_simulated_board(lab)
    serial = d.get("serial")
    if not isinstance(serial, dict):
        raise lab.error("must be a mapping {port: <device path or pyserial URL>, baud: <rate>}", "serial")
    port = serial.get("port")
    if not isinstance(port, str) or not port.strip():
        raise lab.error("a device path (/dev/ttyUSB0) or a pyserial URL (socket://host:port, rfc2217://...)",
                        "serial", "port")  # fmt: skip
    if not start and "{state" in port:
        raise lab.error("takes a value from the state file, but the lab has no `start` command", "serial", "port")
    if "://" in port and not re.match(r"^(socket|rfc2217|loop|spy|alt|hwgrep|cp2110)://", port):
        raise lab.error(f"unsupported URL scheme in {port!r} (socket://, rfc2217:// or a device path)",
                        "serial", "port")  # fmt: skip
    baud = serial.get("baud", 115200)
    if not isinstance(baud, int) or baud <= 0:
        raise lab.error(f"must be a positive integer, not {baud!r}", "serial", "baud")
    serial["baud"] = baud
    power = d.get("power", "none")
    if power is None:
        power = "none"
    if isinstance(power, str):
        if power not in POWER_WORDS:
            raise lab.error(f"must be none, manual or a mapping of on/off/cycle commands, not {power!r}", "power")
    elif isinstance(power, dict):
        bad = sorted(set(map(str, power)) - {"on", "off", "cycle", "timeout"})
        if bad:
            raise lab.error("unknown power command (on, off, cycle, timeout)", "power", bad[0])
        if not (power.get("cycle") or (power.get("on") and power.get("off"))):
            raise lab.error("needs a `cycle` command, or both `on` and `off`", "power")
        for k in ("on", "off", "cycle"):
            if k in power and not isinstance(power[k], str):
                raise lab.error("must be a shell command (a string)", "power", k)
    else:
        raise lab.error("must be none, manual or a mapping of on/off/cycle commands", "power")
    d["power"] = power
    login = d.get("login") or {}
    if not isinstance(login, dict) or not isinstance(login.get("user", "root"), str):
        raise lab.error("must be a mapping {user: <name>, password_env: <environment variable>}", "login")
    env = login.get("password_env")
    if env is not None and not (isinstance(env, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", env)):
        raise lab.error(f"must name an environment variable, not {env!r}", "login", "password_env")
    d["login"] = login
    ssh = d.get("ssh") or {}
    if ssh == "none":  # a console-only lab: no network, no SSH; workloads run on the serial console
        d["ssh"] = "none"
        ssh = None
    elif not isinstance(ssh, dict):
        raise lab.error("must be a mapping {address: <address or discover>, port: <port>}, or none "
                        "(the board is reached over its console only)", "ssh")  # fmt: skip
    if ssh is not None:
        _validate_ssh(lab, ssh)
    _validate_rest(lab)
    squad_target.validate_section(d.get("squad"), lab.error)  # publishing the run (docs/squad.md)


def _validate_ssh(lab: Lab, ssh: dict) -> None:
    address = ssh.get("address", "discover")
    if not isinstance(address, str) or not address.strip():
        raise lab.error("must be an address or `discover` (read it from the board's console)", "ssh", "address")
    port_ = ssh.get("port", 22)
    if not (isinstance(port_, int) or (isinstance(port_, str) and (port_ == "discover" or "{state" in port_))):
        raise lab.error(f"must be a port number (or discover / {{state.ssh_port}}), not {port_!r}", "ssh", "port")
    policy = ssh.get("host_keys", "accept-new")
    if policy not in HOST_KEY_POLICIES:
        raise lab.error(f"must be one of {', '.join(HOST_KEY_POLICIES)}, not {policy!r}", "ssh", "host_keys")
    for key, what in (("known_hosts", "the lab's known-hosts file"), ("key", "the SSH private key")):
        if ssh.get(key) is not None and not (isinstance(ssh[key], str) and ssh[key].strip()):
            raise lab.error(f"must be a file path ({what}; relative: to the lab file's folder)", "ssh", key)
    ssh.setdefault("address", address)
    ssh.setdefault("port", port_)
    ssh["host_keys"] = policy
    lab.data["ssh"] = ssh


def _validate_rest(lab: Lab) -> None:
    d = lab.data
    tester = d.get("tester") or {"address": "host"}
    if not isinstance(tester, dict) or not isinstance(tester.get("address"), str):
        raise lab.error("must be a mapping {address: <the gate host as the board sees it>}", "tester")
    d["tester"] = tester
    for key in ("has",):
        if not isinstance(d.get(key, []), list):
            raise lab.error("must be a list", key)
    d.setdefault("has", [])
    for key in ("storage", "boards", "timeouts"):
        if not isinstance(d.get(key) or {}, dict):
            raise lab.error("must be a mapping", key)
        d[key] = d.get(key) or {}
    for board, over in list(d["boards"].items()):
        if not isinstance(over, dict):
            raise lab.error("per-board overrides must be a mapping", "boards", board)
        _check_board_name(lab, str(board))
    _check_seconds(lab)
    _check_addresses(lab)
    _check_storage(lab)
    workloads = d.get("workloads") or {}
    if not isinstance(workloads, dict):
        raise lab.error("must be a mapping of suite names to their settings", "workloads")
    for suite, conf in workloads.items():
        if not isinstance(conf, dict):
            raise lab.error("a suite's workload settings must be a mapping", "workloads", suite)
    meter = d.get("power_meter")
    if meter is not None and not isinstance(meter, str):
        raise lab.error("must be a command (string) or null", "power_meter")


def _check_board_name(lab: Lab, name: str) -> None:
    """A `boards:` override is for a board the gate knows (an alias is read as its board): an unknown name would
    never apply, silently."""
    try:
        board = boards.resolve(name)
    except UnknownBoard as e:
        raise lab.error(f"no such board: {e.message}", "boards", name) from None
    if board != name:  # an alias (am62xx-sk): the gate looks its overrides up by the board's own name
        if board in lab.data["boards"]:
            raise lab.error(f"names board {board}, which `boards:` also lists as {board}: give one", "boards", name)
        lab.data["boards"][board] = lab.data["boards"].pop(name)
        lab.lines.setdefault(("boards", board), _line(lab.lines, ("boards", name)) or 0)


def refuse_simulated_board(lab: Lab) -> None:
    """A lab that reports hardware must not start or drive the simulated board: its runs would be filed and reported
    as hardware. (The launcher checks the started board's own state file too.)"""
    d = lab.data
    commands: list[tuple[tuple[str, ...], object]] = [(("start",), d.get("start")), (("stop",), d.get("stop"))]
    power = d.get("power")
    if isinstance(power, dict):
        commands += [(("power", k), power.get(k)) for k in ("on", "off", "cycle")]
    for key, command in commands:
        text = " ".join(map(str, command)) if isinstance(command, list) else command
        if isinstance(text, str) and SIMULATED.search(text):
            raise lab.error(
                f"a kind: {d['kind']} lab cannot start or drive the simulated board ({text!r}): its runs would be "
                "filed as hardware; use kind: sim, or say `virtual: true`",
                *key,
            )


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 < value < float("inf") else None


def _check_seconds(lab: Lab) -> None:
    """Every timeout and duration is a positive number of seconds (`90`, not `90s`), under a name the gate knows."""
    d = lab.data
    for key in SECONDS_KEYS:
        if d.get(key) is not None and _seconds(d[key]) is None:
            raise lab.error(f"must be a positive number of seconds (like 90), not {d[key]!r}", key)
    for name, value in d["timeouts"].items():
        if str(name) not in TIMEOUTS:
            raise lab.error(f"unknown timeout (known: {', '.join(TIMEOUTS)})", "timeouts", name)
        if _seconds(value) is None:
            raise lab.error(f"must be a positive number of seconds (like 90), not {value!r}", "timeouts", name)
    power = d["power"]
    if isinstance(power, dict) and power.get("timeout") is not None and _seconds(power["timeout"]) is None:
        raise lab.error(f"must be a positive number of seconds (like 30), not {power['timeout']!r}", "power", "timeout")


def _check_addresses(lab: Lab) -> None:
    """The addresses the gate puts into commands: an IP address or a host name (or the lab's keywords)."""
    ssh = lab.data["ssh"]["address"] if isinstance(lab.data["ssh"], dict) else "discover"  # `ssh: none`
    if ssh != "discover" and not TEMPLATE.fullmatch(ssh.strip()) and not address.valid(ssh):
        raise lab.error(f"must be an IP address, a host name or `discover`, not {ssh!r}", "ssh", "address")
    tester = lab.data["tester"]["address"]
    if tester != "host" and not TEMPLATE.fullmatch(tester.strip()) and not address.valid(tester):
        raise lab.error(f"must be an IP address, a host name or `host`, not {tester!r}", "tester", "address")


SAFE_PATH = re.compile(r"/[A-Za-z0-9._+/-]*")  # a device or mount point: goes into fio/dd command lines
SAFE_WORD = re.compile(r"[A-Za-z0-9._+-]+")  # a U-Boot device, partition, block, offset or file name


def _check_storage(lab: Lab) -> None:
    """The media the lab lets the gate write: absolute paths (Linux) or plain words (U-Boot), nothing a shell or
    U-Boot's command line would read as a second command."""
    for key, value in lab.data["storage"].items():
        if isinstance(value, dict):
            for sub, word in value.items():
                if not SAFE_WORD.fullmatch(str(word)):
                    raise lab.error(f"must be a plain word or number (letters, digits, . _ + -), not {word!r}",
                                    "storage", key, sub)  # fmt: skip
        elif not (isinstance(value, str) and SAFE_PATH.fullmatch(value)):
            raise lab.error(f"must be an absolute path (letters, digits, . _ + - /), not {value!r}", "storage", key)
