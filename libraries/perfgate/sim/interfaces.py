"""The simulated board's IPv4 interfaces, printed as iproute2's `ip` prints them: `lo`, `eth0` (the address the
gate reaches through the forwarded SSH port) and the interface of each other Ethernet port the settings name
(variables/workloads/network.yaml `ethernet.ports`: the interface from the board profile, the board's address on
it from the lab's `board`). The formats are iproute2's (real: `ip -4 -o addr show dev eth0`, `ip addr show dev eth0`
and `ip -4 -o addr show dev nosuch` on Debian 12's iproute2 6.1: `Device "nosuch" does not exist.` on stderr,
status 1)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from perfgate.errors import DataError
from perfgate.workloads.network import settings

PREFIX = 24  # the port links' netmask: TI's testers are on /24 subnets (192.168.0.1, 192.168.2.1)


@dataclass(frozen=True)
class Interface:
    index: int
    name: str
    cidr: str
    scope: str = "global"
    brd: bool = True

    @property
    def inet(self) -> str:
        net = ipaddress.ip_interface(self.cidr).network
        brd = f" brd {net.broadcast_address}" if self.brd and net.prefixlen < 31 else ""
        return f"inet {self.cidr}{brd} scope {self.scope} {self.name}"

    def oneline(self) -> str:
        return f"{self.index}: {self.name}    {self.inet}\\       valid_lft forever preferred_lft forever\n"

    def long(self) -> str:
        if self.name == "lo":
            head = (f"{self.index}: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default "
                    "qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n")  # fmt: skip
        else:
            mac = f"1c:63:49:00:00:{self.index - 1:02x}"
            head = (f"{self.index}: {self.name}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group "
                    f"default qlen 1000\n    link/ether {mac} brd ff:ff:ff:ff:ff:ff\n")  # fmt: skip
        return f"{head}    {self.inet}\n       valid_lft forever preferred_lft forever\n"


def interfaces(profile: dict, lab: dict) -> list[Interface]:
    """lo, eth0, then each other port's interface that the lab gives the board an address on."""
    out = [Interface(1, "lo", "127.0.0.1/8", "host", brd=False), Interface(2, "eth0", "127.0.0.1/8", brd=False)]
    try:
        ports = settings("ethernet", profile, lab).get("ports") or {}
    except DataError:
        return out
    for port in ports.values():
        if not isinstance(port, dict) or not port.get("interface") or not port.get("board"):
            continue
        name = str(port["interface"])
        if any(i.name == name for i in out):
            continue
        try:
            ipaddress.ip_address(str(port["board"]))
        except ValueError:
            continue
        out.append(Interface(len(out) + 1, name, f"{port['board']}/{PREFIX}"))
    return out


def link_only(profile: dict, lab: dict) -> set[str]:
    """The forwarding ports' interfaces (network.yaml ethernet.forwarding.interfaces): links without an address."""
    try:
        names = (settings("ethernet", profile, lab).get("forwarding") or {}).get("interfaces") or []
    except DataError:
        return set()
    return {str(n) for n in names}


def _link_change(words: list[str], args: list[str], profile: dict, lab: dict) -> tuple[str, str, int]:
    """`ip link set|add|del ...` (the forwarding modes' bridge or hsr device): silent success, as iproute2 is, on a
    device the board has; virtual devices (br0, hsr0) are taken as the command names them."""
    name = args[args.index("dev") + 1] if "dev" in args[:-1] else (words[2] if len(words) > 2 else "")
    known = {i.name for i in interfaces(profile, lab)} | link_only(profile, lab)
    for slave in [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("master", "slave1", "slave2")]:
        if slave.startswith("eth") and slave not in known:
            return "", f'Cannot find device "{slave}"\n', 1
    if words[1] != "add" and name.startswith("eth") and name not in known:
        return "", f'Cannot find device "{name}"\n', 1
    return "", "", 0


def ip(args: list[str], profile: dict, lab: dict) -> tuple[str, str, int]:
    """(stdout, stderr, status) of `ip <args>` on the simulated board."""
    words = [a for a in args if not a.startswith("-")]
    if words[:1] in (["link"], ["l"]) and words[1:2] in (["set"], ["add"], ["del"], ["delete"]):
        return _link_change(words, args, profile, lab)
    found = interfaces(profile, lab)
    if "dev" in args:
        i = args.index("dev")
        name = args[i + 1] if i + 1 < len(args) else ""
        found = [x for x in found if x.name == name]
        if not found:
            return "", f'Device "{name}" does not exist.\n', 1
    words = [a for a in args if not a.startswith("-")]
    if words[:2] in (["route", "get"], ["r", "get"]) and len(words) >= 3:
        return _route_get(words[2:], profile, lab)
    if words and words[0] in ("link", "l", "route", "r"):
        return "".join(f"{x.index}: {x.name}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP\n"
                       for x in found if x.name != "lo"), "", 0  # fmt: skip
    if words and words[0] not in ("addr", "a", "address"):
        return "", f'Object "{words[0]}" is unknown, try "ip help".\n', 1
    if "-o" in args:
        return "".join(x.oneline() for x in found), "", 0
    return "".join(x.long() for x in found), "", 0


def _route_get(words: list[str], profile: dict, lab: dict) -> tuple[str, str, int]:
    """`ip route get <to> [from <address>]`: by the interface whose /24 holds the destination, else eth0 (the
    simulated board's default route; the source address does not choose the interface, as in Linux), in
    iproute2's format (real, Debian 12: `ip route get 192.0.2.1 from 192.0.2.2` prints `192.0.2.1 from 192.0.2.2
    dev eth0 uid 0 ` then `    cache `; without `from`, `... dev eth0 src 192.0.2.2 uid 0 `; a loopback
    destination `local 127.0.0.2 from 127.0.0.1 dev lo uid 0 ` then `    cache <local> `)."""
    to = words[0]
    source = words[words.index("from") + 1] if "from" in words[:-1] else ""
    try:
        target = ipaddress.ip_address(to)
    except ValueError:
        return "", f'Error: any valid prefix is expected rather than "{to}".\n', 1
    found = interfaces(profile, lab)
    if target.is_loopback:
        dev, prefix, cache = found[0], "local ", "cache <local> "
    else:
        ports = [i for i in found[2:] if target in ipaddress.ip_interface(i.cidr).network]
        dev, prefix, cache = (ports[0] if ports else found[1]), "", "cache "
    via = f"from {source} dev {dev.name}" if source else f"dev {dev.name} src {dev.cidr.split('/')[0]}"
    return f"{prefix}{to} {via} uid 0 \n    {cache}\n", "", 0


def ethtool(args: list[str], profile: dict, lab: dict) -> tuple[str, str, int]:
    """`ethtool -i <interface>` on the simulated board: a port interface has its port's `driver` (the data says
    what the real port's driver is), in ethtool 6.1's format (real: `ethtool -i eth0` on Debian 12; a device that
    does not exist: `Cannot get driver information: No such device` on stderr, status 71). Other interfaces have
    no driver the simulator could name: `Cannot get driver information: Operation not supported`."""
    if len(args) == 4 and args[0] in ("-K", "--features", "--offload") and args[3] in ("on", "off"):
        known = {i.name for i in interfaces(profile, lab)} | link_only(profile, lab)
        return ("", "", 0) if args[1] in known else ("", "Cannot get device feature settings: No such device\n", 71)
    if len(args) != 2 or args[0] not in ("-i", "--driver"):
        return "", "", -1  # not answered here
    name = args[1]
    if not any(i.name == name for i in interfaces(profile, lab)):
        return "", "Cannot get driver information: No such device\n", 71
    try:
        ports = settings("ethernet", profile, lab).get("ports") or {}
    except DataError:
        ports = {}
    driver = next((str(p["driver"]) for p in ports.values() if isinstance(p, dict) and p.get("driver")
                   and str(p.get("interface")) == name), "")  # fmt: skip
    if not driver:
        return "", "Cannot get driver information: Operation not supported\n", 71
    bus = f"{driver.split('-')[0]}-ethernet"
    return (f"driver: {driver}\nversion: 6.6.32-ti\nfirmware-version: \nexpansion-rom-version: \nbus-info: {bus}\n"
            "supports-statistics: yes\nsupports-test: no\nsupports-eeprom-access: no\nsupports-register-dump: no\n"
            "supports-priv-flags: no\n", "", 0)  # fmt: skip
