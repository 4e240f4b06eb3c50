"""What the simulated board answers to the commands of perfgate.workloads.ethernet: which tool prints the
answer and around which published values (moved from Ethernet.expected: the judge never asks the sim)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads import network as net
from perfgate.workloads.ethernet import SUITE, Ethernet, _answers, _recognise, groups, target


@expects("perfgate.workloads.ethernet.Ethernet")
def expected(wl: Ethernet, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    conf = net.settings(SUITE, profile, lab)
    measures, _ = groups(criteria, conf)
    found = _recognise(command, conf)
    if found is None:
        return None
    tool, kind, direction, datagram, limited = found
    port = port_of(target(command), conf)
    for m, keys in measures.items():
        if m.port != port or not _answers(m, kind, direction, datagram, limited):
            continue
        values = net.published(keys, criteria)
        if m.frame and m.datagram and net.THROUGHPUT in values:  # the tool prints datagram bytes
            values[net.THROUGHPUT] = values[net.THROUGHPUT] * m.datagram / m.frame
        if tool == "netperf" and direction == "ingress" and net.CPU in values:
            values[net.REMOTE_CPU] = values.pop(net.CPU)  # the DUT is netperf's remote end
        return Expected(tool=tool, values=values)
    return None


def port_of(host: str, conf: dict) -> str:
    """The port whose peer or board address (the lab's `ports` data) the command addresses; "" = the default."""
    for name, port in (conf.get("ports") or {}).items():
        if isinstance(port, dict) and host and host in (str(port.get("tester") or ""), str(port.get("board") or "")):
            return str(name)
    return ""
