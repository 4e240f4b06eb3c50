"""Ethernet / ICSSM Switch and HSR forwarding (the AM57x 11.01 guide's "ICSSM Switch Mode Forwarding" and "ICSSM
HSR Mode Forwarding": THROUGHPUT (Mbits/sec) and CPU Load % (FORWARDING)): traffic between two peers the lab names,
forwarded by the board between its two ICSSM ports set to the table's mode.

Settings: variables/workloads/network.yaml `ethernet.forwarding` (under the board profile's and the lab's
`workloads.ethernet.forwarding`). Per mode, in order:
1. the board is put in the mode (`setup`, TI's commands; a marker line proves every step succeeded);
2. peer b's server is started (a real lab: on peer b; the sim lab: the simulator plays both peers);
3. peer a's client (the lab's `tool`, iperf3 by default) starts in the background, its output to a file on peer a;
4. the board's CPU is sampled for `cpu_sample` seconds while the traffic flows (`cpu` lines of /proc/stat, read by
   perfgate.tools.cpuload): the CPU Load % (FORWARDING);
5. the client's output is read back from peer a (the THROUGHPUT, by the tool's parser);
6. the board leaves the mode (`teardown`, run whatever happened) and peer b's server is stopped.
A lab that does not name both peers (`peers.a.address`, `peers.b.address`) fails these criteria as not measured,
naming the keys. Peer commands run on the gate host, through `ssh <peers.x.ssh>` when the lab gives one.
"""

from __future__ import annotations

import ipaddress
import re
import shlex

from perfgate.errors import BoardLost, DataError, ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import parse
from perfgate.workloads import network as net
from perfgate.workloads.base import Context, Measurements, Run, lab_file

KEY = "workloads.ethernet.forwarding"
READY = "perfgate-forwarding-ready"
HOST = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*")


def conf_of(conf: dict) -> dict:
    f = conf.get("forwarding") or {}
    return f if isinstance(f, dict) else {}


def is_forwarding(c: Criterion, conf: dict) -> bool:
    rx = conf_of(conf).get("match")
    return bool(rx) and bool(re.search(str(rx), net.norm(c.table)))


def mode_of(c: Criterion, conf: dict) -> dict | None:
    for m in conf_of(conf).get("modes") or []:
        if isinstance(m, dict) and re.search(str(m.get("match")), net.norm(c.table)):
            return m
    return None


def _word(value: object, what: str) -> str:
    text = str(value or "")
    if not re.fullmatch(r"[\w.-]+", text):
        raise DataError(f"{KEY}.{what}: must be one word (letters, digits, . - _), not {value!r}", net.data_path())
    return text


def _seconds(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 3600:
        raise DataError(f"{KEY}.{what}: must be a whole number of seconds 1..3600, not {value!r}", net.data_path())
    return value


def sampler(conf: dict, mode: dict) -> str:
    """The board command sampling its CPU while it forwards (fixed by the settings alone: the sim plans it)."""
    f = conf_of(conf)
    return net.fill(str(f["cpu_command"]), {"mode": _word(mode.get("name"), "modes.name"),
                                            "seconds": _seconds(f.get("cpu_sample"), "cpu_sample")})  # fmt: skip


def plan(criteria: list[Criterion], conf: dict) -> list[Run]:
    """The board's CPU samplers, one per mode (what the simulated board answers from the plan)."""
    runs: dict[str, Run] = {}
    for c in criteria:
        mode = mode_of(c, conf) if is_forwarding(c, conf) else None
        if mode is None or net.metric_key(c) != net.CPU:
            continue
        command = sampler(conf, mode)
        runs.setdefault(command, Run("cpuload", command, {}, label=f"forwarding-{mode.get('name')}-cpu"))
        runs[command].keys.setdefault(net.CPU, []).append(c.id)
    return list(runs.values())


def peers(ctx: Context, conf: dict) -> tuple[dict, dict] | str:
    """Peers a and b (address, and the ssh destination their commands go through, if any), or why not."""
    lab = (ctx.lab or {}).get("name") or "the lab"
    got = conf_of(conf).get("peers") or {}
    out = []
    for name in ("a", "b"):
        p = got.get(name) if isinstance(got, dict) else None
        address = str((p or {}).get("address") or "").strip() if isinstance(p, dict) else ""
        if not address:
            return (
                f"not measured: lab {lab} names no forwarding peers ({lab_file(ctx.lab)}: "
                f"{KEY}.peers.a.address and {KEY}.peers.b.address, the hosts on the board's two ports)"
            )
        try:
            ipaddress.ip_address(address)
        except ValueError:
            if not HOST.fullmatch(address):
                raise DataError(f"{KEY}.peers.{name}.address: not an address or host name: {address!r}") from None
        ssh = str(p.get("ssh") or "").strip()
        if ssh and not re.fullmatch(r"[\w.-]+@[\w.-]+|[\w.-]+", ssh):
            raise DataError(f"{KEY}.peers.{name}.ssh: must be [user@]host, not {ssh!r}")
        out.append({"name": name, "address": address, "ssh": ssh})
    return out[0], out[1]


class Forwarding:
    """One suite run's forwarding measurements (the Ethernet workload hands it the forwarding criteria)."""

    def __init__(self, ctx: Context, conf: dict, out: Measurements, duration: int, simulated: bool) -> None:
        self.ctx, self.conf, self.out = ctx, conf, out
        self.f = conf_of(conf)
        self.duration, self.simulated = duration, simulated

    def peer_run(self, peer: dict, command: str, label: str, timeout: float = 60) -> str:
        """A command on a peer: the simulator plays it (sim lab), else this host, through ssh when named."""
        if self.simulated:
            return self.ctx.run(command, timeout=timeout, label=label, where="shell")
        if peer["ssh"]:
            command = shlex.join(["ssh", "-o", "BatchMode=yes", peer["ssh"], command])
        return self.ctx.run(command, timeout=timeout, label=label, where="host")

    def measure(self, criteria: list[Criterion]) -> None:
        by_mode: dict[str, tuple[dict, list[Criterion]]] = {}
        for c in criteria:
            mode = mode_of(c, self.conf)
            if mode is None:
                self.out.missing[c.id] = f"no forwarding mode matches table {c.table!r} ({KEY}.modes)"
            else:
                by_mode.setdefault(str(mode.get("name")), (mode, []))[1].append(c)
        got = peers(self.ctx, self.conf)
        if isinstance(got, str):
            for _, crits in by_mode.values():
                self.out.missing.update(dict.fromkeys((c.id for c in crits), got))
            return
        a, b = got
        tool = _word(self.f.get("tool", "iperf3"), "tool")
        self.ctx.note(
            f"forwarding through the board: {tool} from peer a {a['address']} to peer b {b['address']}, "
            f"{self.duration} s per mode; the board's CPU sampled for {self.f.get('cpu_sample')} s"
        )
        for mode, crits in by_mode.values():
            try:
                self._mode(tool, mode, crits, a, b)
            except ToolMissing as e:
                self.out.unavailable.update(dict.fromkeys((c.id for c in crits), str(e)))

    def _mode(self, tool: str, mode: dict, crits: list[Criterion], a: dict, b: dict) -> None:
        name = _word(mode.get("name"), "modes.name")
        ids = [c.id for c in crits]
        t = self.f.get(tool) or {}
        port = mode.get("port") or t.get("port")
        if not re.fullmatch(r"\d{1,5}", str(port)):
            raise DataError(f"{KEY}.modes ({name}): port must be a number, not {port!r}", net.data_path())
        values = {"peer_a": a["address"], "peer_b": b["address"], "port": port, "duration": self.duration,
                  "mode": name, "result": f"/tmp/perfgate-forwarding-{name}.json"}  # fmt: skip
        interfaces = [_word(i, "interfaces") for i in self.f.get("interfaces") or []]
        values.update({f"if{n}": i for n, i in enumerate(interfaces)})
        setup = [net.fill(str(s), values, f"{KEY}.modes.setup: ") for s in mode.get("setup") or []]
        teardown = [net.fill(str(s), values, f"{KEY}.modes.teardown: ") for s in mode.get("teardown") or []]
        text = self.ctx.run(" && ".join([*setup, f"echo {READY}"]), timeout=60, label=f"forwarding-{name}-setup")
        try:
            if READY not in text:
                last = (text.strip().splitlines() or ["nothing"])[-1]
                self.out.missing.update(dict.fromkeys(ids, f"not measured: the board did not enter {name} mode "
                                                           f"({KEY}.modes setup printed {last!r})"))  # fmt: skip
                return
            self._traffic(tool, t, name, values, crits, a, b)
        finally:
            if teardown:
                try:
                    self.ctx.run("; ".join(teardown), timeout=60, label=f"forwarding-{name}-teardown")
                except BoardLost:
                    raise
                except Exception as e:  # leaving the mode must not hide what was measured
                    self.ctx.note(f"leaving {name} mode: {e}")

    def _traffic(self, tool: str, t: dict, name: str, values: dict, crits: list[Criterion], a: dict, b: dict) -> None:
        ids = {c.id: net.metric_key(c) for c in crits}
        fill = lambda key: net.fill(str(t[key]), values, f"{KEY}.{tool}.{key}: ")  # noqa: E731
        if not self.simulated and t.get("server"):
            self.peer_run(b, fill("server"), f"forwarding-{name}-server")
        try:
            client = fill("client")
            self.peer_run(a, f"{client} > {values['result']} 2>&1 &", f"forwarding-{name}-client")
            mode = next(m for m in self.f.get("modes") or [] if m.get("name") == name)
            sample = self.ctx.run(sampler(self.conf, mode), timeout=float(self.f.get("cpu_sample", 10)) + 60,
                                  label=f"forwarding-{name}-cpu")  # fmt: skip
            cpu_evidence = getattr(self.ctx, "last_evidence", "")
            rest = max(1, self.duration - int(self.f.get("cpu_sample", 10)) + 2)
            result = self.peer_run(a, f"sleep {rest}; cat {values['result']}", f"forwarding-{name}-{tool}",
                                   timeout=self.duration * 2 + 60)  # fmt: skip
            tool_evidence = getattr(self.ctx, "last_evidence", "")
        finally:
            if not self.simulated and t.get("server_stop"):
                try:
                    self.peer_run(b, fill("server_stop"), f"forwarding-{name}-server-stop")
                except Exception as e:
                    self.ctx.note(f"stopping peer b's {tool} server: {e}")
        readings: dict[str, tuple[str, dict[str, float] | str, str]] = {}
        failed: set[str] = set()  # readings whose tool failed (output not recognised): INVALID runs
        for key, text, parser, evidence in ((net.CPU, sample, "cpuload", cpu_evidence),
                                            (net.THROUGHPUT, result, tool, tool_evidence)):  # fmt: skip
            try:
                net.check_present(parser, text) if parser != "cpuload" else None
                readings[key] = (parser, parse(parser, text), evidence)
            except ParseError as e:
                readings[key] = (parser, f"{parser} output not recognised: {e}", evidence)
                failed.add(key)
        for cid, key in ids.items():
            parser, got, evidence = readings.get(key or "", ("", f"no forwarding reading for {key!r}", ""))
            if evidence:
                self.out.evidence.setdefault(cid, []).append(evidence)
            if isinstance(got, str) and key in failed:
                self.out.set_invalid([cid], got, evidence)
            elif isinstance(got, str):
                self.out.missing[cid] = got
            elif key in got:
                self.out.values[cid] = got[key]
                self.out.tools[cid] = parser
            else:
                self.out.missing[cid] = f"{parser} printed no {key!r} in {name} mode"
