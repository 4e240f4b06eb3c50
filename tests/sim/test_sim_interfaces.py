"""The simulated board's `ip` (perfgate.sim.interfaces) against the real iproute2 on this host: the same lines for
lo, the same shape for a global /24 address, the same error for a missing device. Its port interfaces come from
the data: the board profile's interface and the lab's address (variables/labs/sim.yaml: ICSSG on eth1)."""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess

import pytest

from perfgate import boards
from perfgate.board.shell import ADDRESS_IP
from perfgate.sim import interfaces
from perfgate.sim.data import load_lab

pytestmark = pytest.mark.skipif(not shutil.which("ip"), reason="iproute2's ip is not installed")


def real(*args: str) -> tuple[str, str, int]:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    return done.stdout, done.stderr, done.returncode


def shape(line: str) -> str:
    return re.sub(r"\d+", "N", re.sub(r"\beth\d+\b", "IF", line))


def test_lo_and_a_missing_device_as_iproute2_prints_them() -> None:
    profile, lab = boards.profile("am64xx_evm"), load_lab("sim")
    assert interfaces.ip(["-4", "-o", "addr", "show", "dev", "lo"], profile, lab) == real(
        "-4", "-o", "addr", "show", "dev", "lo"
    )
    assert interfaces.ip(["-4", "-o", "addr", "show", "dev", "nosuch9"], profile, lab) == real(
        "-4", "-o", "addr", "show", "dev", "nosuch9"
    )


def test_route_get_as_iproute2_prints_it() -> None:
    """`ip route get <to> from <address>`: byte for byte as the real ip for a loopback destination; for the ICSSG
    peer, the shape of a real directly connected route (`<to> from <src> dev <if> uid 0 `, `    cache `)."""
    profile, lab = boards.profile("am64xx_evm"), load_lab("sim")
    args = ["route", "get", "127.0.0.2", "from", "127.0.0.1"]
    assert interfaces.ip(args, profile, lab) == real(*args)
    out, _, _ = interfaces.ip(["route", "get", "192.168.2.1", "from", "192.168.2.100"], profile, lab)
    assert out == "192.168.2.1 from 192.168.2.100 dev eth1 uid 0 \n    cache \n"
    text, _, _ = real("-4", "-o", "addr", "show")
    own = [ln.split()[3] for ln in text.splitlines() if "scope global" in ln]
    if own:  # a real route to a neighbour on this host's own subnet has the same shape
        mine = ipaddress.ip_interface(own[0])
        peer = next(h for h in mine.network.hosts() if h != mine.ip)
        got, _, status = real("route", "get", str(peer), "from", str(mine.ip))
        if status == 0 and " via " not in got:
            name = got.split(" dev ")[1].split()[0]
            assert shape(got.replace(name, "eth1")) == shape(out)


def test_the_icssg_interface_has_the_labs_address_in_iproute2s_shape() -> None:
    profile, lab = boards.profile("am64xx_evm"), load_lab("sim")
    out, err, status = interfaces.ip(["-4", "-o", "addr", "show", "dev", "eth1"], profile, lab)
    assert (err, status) == ("", 0)
    assert out.startswith("3: eth1    inet 192.168.2.100/24 brd 192.168.2.255 scope global eth1\\")
    m = ADDRESS_IP.search(out)
    assert m and m.groups() == ("eth1", "192.168.2.100")
    # a real global /24 address line of this host, if it has one, has the same shape
    text, _, _ = real("-4", "-o", "addr", "show")
    globals_24 = [ln for ln in text.splitlines() if "/24 brd" in ln and "scope global" in ln and "dynamic" not in ln]
    if globals_24:
        name = globals_24[0].split()[1]
        assert shape(out.splitlines()[0]) == shape(globals_24[0].replace(name, "eth0"))
    # the full listing keeps eth0 first (the gate learns the board's SSH address from the first one)
    full, _, _ = interfaces.ip(["-4", "-o", "addr", "show"], profile, lab)
    assert [m.group(1) for m in map(ADDRESS_IP.search, full.splitlines()) if m] == ["lo", "eth0", "eth1"]


def test_a_board_without_other_ports_has_only_eth0() -> None:
    full, _, _ = interfaces.ip(["-4", "-o", "addr", "show"], boards.profile("am62xx_sk"), load_lab("sim"))
    assert [m.group(1) for m in map(ADDRESS_IP.search, full.splitlines()) if m] == ["lo", "eth0"]


@pytest.mark.skipif(not shutil.which("ethtool"), reason="ethtool is not installed (setup.sh installs it)")
def test_ethtool_driver_info_as_ethtool_prints_it() -> None:
    """`ethtool -i`: byte for byte as the real ethtool 6.1 for a missing device and for a device without driver
    information (lo); the ICSSG port's interface prints its driver with the real output's fields, in order."""
    profile, lab = boards.profile("am64xx_evm"), load_lab("sim")

    def real_ethtool(*args: str) -> tuple[str, str, int]:
        done = subprocess.run(["ethtool", *args], capture_output=True, text=True, check=False)
        return done.stdout, done.stderr, done.returncode

    assert interfaces.ethtool(["-i", "nosuch9"], profile, lab) == real_ethtool("-i", "nosuch9")
    assert interfaces.ethtool(["-i", "lo"], profile, lab) == real_ethtool("-i", "lo")
    out, err, status = interfaces.ethtool(["-i", "eth1"], profile, lab)
    assert (err, status) == ("", 0) and out.startswith("driver: icssg-prueth\n")
    text, _, _ = real("-o", "link", "show")
    names = [ln.split(":")[1].strip().split("@")[0] for ln in text.splitlines() if ":" in ln]
    for name in names:
        got, _, code = real_ethtool("-i", name)
        if code == 0:
            assert [ln.split(":")[0] for ln in got.splitlines()] == [ln.split(":")[0] for ln in out.splitlines()]
            break
