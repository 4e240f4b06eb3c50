"""What the simulated board answers to the commands of perfgate.workloads.ethernet: which tool prints the
answer and around which published values (moved from Ethernet.expected: the judge never asks the sim)."""

from __future__ import annotations

from perfgate.model import Criterion
from perfgate.sim.workloads import Expected, expects
from perfgate.workloads import forwarding
from perfgate.workloads import network as net
from perfgate.workloads.ethernet import SUITE, Ethernet, _answers, _recognise, groups, target


@expects("perfgate.workloads.ethernet.Ethernet")
def expected(wl: Ethernet, command: str, criteria: list[Criterion], profile: dict, lab: dict) -> Expected | None:
    conf = net.settings(SUITE, profile, lab)
    through = _forwarding(command, criteria, conf)
    if through is not None:
        return through
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
        ids = {k: keys[k][0] for k in values}
        if m.frame and m.datagram and net.THROUGHPUT in values:  # the tool prints datagram bytes
            values[net.THROUGHPUT] = values[net.THROUGHPUT] * m.datagram / m.frame
        if tool == "netperf" and direction == "ingress" and net.CPU in values:
            values[net.REMOTE_CPU] = values.pop(net.CPU)  # the DUT is netperf's remote end
            ids[net.REMOTE_CPU] = ids.pop(net.CPU)
        # a row's packets column is its throughput counted in packets (one measurement): a cap only when degraded
        # (perfgate.sim.workloads.ipsec; drawn apart it pulled the 1518-byte ingress throughput low)
        limits = {net.KPPS: keys[net.KPPS][0]} if net.KPPS in keys and net.THROUGHPUT in values else {}
        return Expected(tool=tool, values=values, limits=limits, criteria=ids)
    return None


def _forwarding(command: str, criteria: list[Criterion], conf: dict) -> Expected | None:
    """Peer a's client of a forwarding mode (the mode is the client's server port): the throughput of that mode's
    table. The board's CPU sampler is answered from the plan (forwarding.plan)."""
    f = forwarding.conf_of(conf)
    for run in forwarding.plan(criteria, conf) if f else []:
        if run.command == command.strip():  # the board's CPU sampler (the sim's index answers it from the plan too)
            by_id = {c.id: c for c in criteria}
            return Expected(tool=run.tool, values={k: by_id[ids[0]].value for k, ids in run.keys.items()})
    words = command.split()
    if not f or "-c" not in words or "-p" not in words:
        return None
    peer_b = str(((f.get("peers") or {}).get("b") or {}).get("address") or "")
    port = words[words.index("-p") + 1] if words.index("-p") + 1 < len(words) else ""
    if words[words.index("-c") + 1 :][:1] != [peer_b]:
        return None
    tool = str(f.get("tool", "iperf3"))
    for c in criteria:
        mode = forwarding.mode_of(c, conf) if forwarding.is_forwarding(c, conf) else None
        if (
            mode
            and str(mode.get("port") or (f.get(tool) or {}).get("port")) == port
            and net.metric_key(c) == net.THROUGHPUT
        ):
            return Expected(tool=tool, values={net.THROUGHPUT: c.value})
    return None


def port_of(host: str, conf: dict) -> str:
    """The port whose peer or board address (the lab's `ports` data) the command addresses; "" = the default."""
    for name, port in (conf.get("ports") or {}).items():
        if isinstance(port, dict) and host and host in (str(port.get("tester") or ""), str(port.get("board") or "")):
            return str(name)
    return ""
