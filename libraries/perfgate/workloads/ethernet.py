"""Ethernet (suite ethernet): the guides' CPSW tables.

- TCP bidirectional throughput and CPU load: TI's script, netperf TCP_STREAM and TCP_MAERTS at once (iperf3
  --bidir when netperf is missing at either end); the "Interrupt Pacing" tables run it with `ethtool -C <if>
  rx-usecs <n>` set around it.
- UDP throughput at 0 % loss, per frame size, egress and ingress: an RFC 2544 26.1 search over the offered rate
  (rfc2544.py beside it), each trial a netperf UDP_STREAM limited with -b/-w (iperf3 -b otherwise); the figures are
  the highest loss-free trial's throughput, kPPS and CPU load.
- UDP "possible loss": one unlimited run per frame size (throughput, kPPS, CPU load, loss %).
- The AM57x guide's iperf UDP tables (`Ethernet_performance_UDP_<n>B_<ingress|egress>`): iperf 2 at the data's
  unlimited rate.
Egress runs on the board against the tester; ingress runs the netperf client on the tester against a netserver
on the board (iperf3 -R from the board otherwise). Tables of another port than the default one (settings
`ports`: the AM64x ICSSG tables beside the CPSW ones) run the same commands on that port: its interface (board
profile), its peer (lab), the board's address on it read from the board, the client bound to that address.
Criteria map to measurements by their table, row, metric and
context text (variables/workloads/network.yaml holds the commands); the report names the tool of each number.
"""

from __future__ import annotations

import copy
import re
import shlex
from dataclasses import dataclass, replace

from perfgate import address
from perfgate.board.shell import ADDRESS_IP
from perfgate.errors import DataError, ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools import netperf as netperf_tool
from perfgate.tools import parse
from perfgate.workloads import forwarding, rfc2544
from perfgate.workloads import network as net
from perfgate.workloads.base import Context, Measurements, Run, Workload, lab_file

SUITE = "ethernet"


@dataclass(frozen=True)
class Measure:
    kind: str  # tcp | tcp_pacing | udp_zero | udp_loss | iperf_udp | iperf_tcp | iperf_tcp_pacing
    direction: str = "both"  # both | egress | ingress
    datagram: int = 0  # UDP payload bytes; TCP window (KB) for the iperf TCP tables
    frame: int = 0  # the frame size when the guide's UDP throughput counts whole frames, not datagrams (see frames())
    port: str = ""  # another port than the default one (a key of the settings' `ports`), "" = the default port

    @property
    def label(self) -> str:
        size = f"-{self.datagram}" if self.datagram else ""
        port = f"{self.port}-" if self.port else ""
        return f"{port}{self.kind}-{self.direction}{size}".replace("_", "-")


@dataclass(frozen=True)
class Port:
    """Another Ethernet port than the default: where its commands go."""

    name: str  # the settings' key (`icssg`)
    title: str  # how the log and the reasons name it (`the ICSSG port`)
    interface: str
    tester: str  # the peer's address on that port, as the board sees it
    board: str  # the board's address on that port, as the peer sees it


INTERFACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,14}")  # a Linux interface name (IFNAMSIZ 16)


def port_of(c: Criterion, conf: dict) -> str:
    """The port (a key of the settings' `ports`) whose tables the criterion's table is, "" for the default port."""
    table = net.norm(c.table)
    for name, port in (conf.get("ports") or {}).items():
        if isinstance(port, dict) and port.get("match") and re.search(str(port["match"]), table):
            return str(name)
    return ""


def _where(ctx: Context, key: str) -> str:
    board = (ctx.profile or {}).get("name") or ctx.board
    return f"{lab_file(ctx.lab)} (or variables/boards/{board}.yaml): {key}"


def resolve_port(ctx: Context, conf: dict, name: str) -> Port | str:
    """The port's interface, peer and board address, or the reason it cannot be measured (naming the missing key).
    The board's address on the port is read from the board (`address_command`): that also proves the interface
    is there and up with an address; a lab that gives `board` has it checked against what the board says. The
    board's route to the peer from that address (`route_command`) must leave by that interface: a peer the board
    reaches through another port would give that port's numbers."""
    data = (conf.get("ports") or {}).get(name) or {}
    title = str(data.get("name") or f"port {name}")
    key = f"workloads.ethernet.ports.{name}"
    lab = (ctx.lab or {}).get("name") or "the lab"
    iface = str(data.get("interface") or "").strip()
    if not iface:
        return f"not measured on {title}: no interface is named for it ({_where(ctx, key + '.interface')})"
    if not INTERFACE.fullmatch(iface):
        return f"not measured on {title}: {iface!r} is not an interface name ({_where(ctx, key + '.interface')})"
    if not data.get("tester"):
        return f"not measured on {title}: lab {lab} names no peer wired to it ({lab_file(ctx.lab)}: {key}.tester)"
    try:
        tester = address.checked(data["tester"], f"{lab_file(ctx.lab)}: {key}.tester")
        given = address.checked(data["board"], f"{lab_file(ctx.lab)}: {key}.board") if data.get("board") else ""
    except DataError as e:
        return f"not measured on {title}: {e}"
    command = net.fill(str(conf.get("address_command", "ip -4 -o addr show dev {interface}")),
                       {"interface": shlex.quote(iface)}, f"{SUITE}.address_command: ")  # fmt: skip
    text = ctx.run(command, timeout=30, label=f"{name}-address")
    found = [m.group(2) for m in map(ADDRESS_IP.search, text.splitlines()) if m and m.group(1) == iface]
    if not found:
        said = " ".join(text.split())[:200] or "nothing"
        return (f"not measured on {title}: the board has no IPv4 address on {iface} (`{command}` printed {said!r}; "
                f"{_where(ctx, key + '.interface')})")  # fmt: skip
    if given and given not in found:
        return (f"not measured on {title}: lab {lab} says the board is {given} on {iface}, the board says "
                f"{', '.join(found)} ({lab_file(ctx.lab)}: {key}.board)")  # fmt: skip
    board = given or found[0]
    values = {"tester": shlex.quote(tester), "address": shlex.quote(board)}
    command = net.fill(str(conf.get("route_command", "ip route get {tester} from {address}")), values,
                       f"{SUITE}.route_command: ")  # fmt: skip
    text = ctx.run(command, timeout=30, label=f"{name}-route")
    dev = re.search(r"\bdev (\S+)", text)
    if not dev or dev.group(1) != iface:
        said = " ".join(text.split())[:200] or "nothing"
        return (f"not measured on {title}: the board does not reach its peer {tester} through {iface} (`{command}` "
                f"printed {said!r}; {lab_file(ctx.lab)}: {key}.tester)")  # fmt: skip
    wanted = str(data.get("driver") or "").strip()
    if wanted:
        command = net.fill(str(conf.get("driver_command", "ethtool -i {interface}")), {"interface": shlex.quote(iface)},
                           f"{SUITE}.driver_command: ")  # fmt: skip
        try:
            text = ctx.run(command, timeout=30, label=f"{name}-driver")
        except ToolMissing as e:
            text = str(e)
        driver = re.search(r"^driver:\s*(\S+)", text, re.M)
        if not driver or driver.group(1) != wanted:
            said = f"driver {driver.group(1)}" if driver else repr(" ".join(text.split())[:200] or "nothing")
            return (f"not measured on {title}: {iface} is not that port: `{command}` printed {said}, not driver "
                    f"{wanted} ({_where(ctx, key + '.interface')}; {key}.driver)")  # fmt: skip
    return Port(name, title, iface, tester, board)


def frames(criteria: list[Criterion], conf: dict) -> set[tuple[str, str, str]]:
    """The UDP table rows (table, row, context) whose published throughput counts whole Ethernet frames: TI's
    tables print THROUGHPUT beside Packets Per Second, and in some (all of SDK 11-12, some of 09-10) THROUGHPUT is
    kPPS x frame size x 8 rather than kPPS x datagram x 8. Decided from the row's own two published numbers; iperf
    and netperf report datagram bytes, so such a row's measured throughput is scaled by frame / datagram."""
    by_row: dict[tuple[str, str, str], dict[str, float]] = {}
    for c in criteria:
        if "udp" in net.norm(c.table):
            key = net.metric_key(c)
            if key in (net.THROUGHPUT, net.KPPS):
                by_row.setdefault((c.table, c.row, c.context), {})[key] = c.value
    out = set()
    overhead = int(conf.get("frame_overhead", 46))
    for (table, row, context), got in by_row.items():
        try:
            frame = float(row)
        except ValueError:
            continue
        tp, kpps = got.get(net.THROUGHPUT), got.get(net.KPPS)
        if not tp or not kpps or frame <= overhead:
            continue
        as_frames = kpps * 1e3 * frame * 8 / 1e6
        as_datagrams = kpps * 1e3 * (frame - overhead) * 8 / 1e6
        if abs(tp / as_frames - 1) < 0.1 and abs(tp / as_datagrams - 1) >= 0.1:
            out.add((table, row, context))
    return out


def classify(c: Criterion, conf: dict, framed: set[tuple[str, str, str]] | None = None) -> tuple[Measure, str] | str:
    """(measurement, parser metric) of a criterion, or the reason it cannot be measured."""
    for item in conf.get("unmeasured") or []:
        if isinstance(item, dict) and re.search(str(item.get("match")), net.norm(c.table)):
            return f"{' '.join(str(item.get('why', '')).split())} ({net.data_path().name}: unmeasured)"
    got = _classify(c, conf, framed)
    port = port_of(c, conf)
    if port and not isinstance(got, str):
        return replace(got[0], port=port), got[1]
    return got


def _classify(c: Criterion, conf: dict, framed: set[tuple[str, str, str]] | None = None) -> tuple[Measure, str] | str:
    table = net.norm(c.table)
    key = net.metric_key(c)
    if key is None:
        return f"no network metric in {c.metric or c.row!r}"
    m = re.search(r"udp_(\d+)b_(ingress|egress)", table)
    if m:
        size = net.context(c).get("packet_size (bytes)")
        return Measure("iperf_udp", m.group(2), int(float(size)) if size else int(m.group(1))), key
    window = re.fullmatch(r"(\d+)", net.norm(c.row))
    if window and "udp" not in table and key in (net.THROUGHPUT, net.CPU):
        # the AM57x guide's iperf table: TCP bandwidth and CPU load per window size, with/without pacing
        metric = net.norm(c.metric)
        paced = "pacing" in metric and "without" not in metric
        return Measure("iperf_tcp_pacing" if paced else "iperf_tcp", "both", int(window.group(1))), key
    if "tcp" in table:
        return Measure("tcp_pacing" if "pacing" in table else "tcp"), key
    if "udp" in table:
        direction = "ingress" if "ingress" in table else "egress" if "egress" in table else ""
        if not direction:
            return f"UDP table {c.table!r} names no direction (ingress/egress)"
        datagram = next((v for k, v in net.context(c).items() if k.startswith("udp datagram size")), None)
        if datagram is None:
            try:
                datagram = str(int(float(c.row)) - int(conf.get("frame_overhead", 46)))
            except ValueError:
                return f"no UDP datagram size for frame {c.row!r}"
        kind = "udp_loss" if "possible loss" in table else "udp_zero"
        frame = int(float(c.row)) if (c.table, c.row, c.context) in (framed or set()) else 0
        return Measure(kind, direction, int(float(datagram)), frame), key
    return f"table {c.table!r} is neither a TCP nor a UDP table"


def groups(criteria: list[Criterion], conf: dict) -> tuple[dict[Measure, dict[str, list[str]]], dict[str, str]]:
    """Criteria grouped by measurement (parser metric -> ids), and the reasons for those that fit none."""
    framed = frames(criteria, conf)
    return net.grouped(criteria, lambda c: classify(c, conf, framed))


ORDER = {"tcp": 0, "tcp_pacing": 1, "iperf_tcp": 2, "iperf_tcp_pacing": 3, "udp_loss": 4, "iperf_udp": 5,
         "udp_zero": 6}  # fmt: skip


class Ethernet(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        for where, has in (("board", profile.get("has")), ("lab", lab.get("has"))):
            if "ethernet" not in (has or []):
                name = profile.get("name") if where == "board" else lab.get("name")
                folder = "variables/boards" if where == "board" else "variables/labs"
                return f"{where} {name} has no ethernet ({folder}/{name}.yaml: has)"
        return None

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        """The commands are built while measuring (the tester's address, the search's rates): see measure(). Only
        the board's CPU samplers of the forwarding tables are fixed by the settings alone."""
        return forwarding.plan(criteria, net.settings(SUITE, profile, lab))

    # ------------------------------------------------------------------------------------------------ measure
    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        conf = net.settings(SUITE, ctx.profile, ctx.lab)
        out = Measurements()
        through = [c for c in criteria if forwarding.is_forwarding(c, conf)]
        measures, bad = groups([c for c in criteria if c not in through], conf)
        out.missing.update(bad)
        run = _Runner(ctx, conf, out)
        side = "the simulated board" if run.tester.simulated else "this host"
        ctx.note(f"{run.duration} s per run (the guides: {conf.get('guide_duration', 60)} s); "
                 f"tester {run.tester_addr}, its commands run on {side}")  # fmt: skip
        runners: dict[str, _Runner | str] = {"": run}
        try:
            for m in sorted(measures, key=lambda m: (m.port, ORDER[m.kind], m.direction, m.datagram)):
                if m.port not in runners:
                    port = resolve_port(ctx, conf, m.port)
                    runners[m.port] = port if isinstance(port, str) else run.on(port)
                    ctx.note(port if isinstance(port, str) else
                             f"{port.title}: interface {port.interface}, the board {port.board}, "
                             f"tester {port.tester}; clients bound to the port's address")  # fmt: skip
                runner = runners[m.port]
                if isinstance(runner, str):
                    out.missing.update(dict.fromkeys((cid for ids in measures[m].values() for cid in ids), runner))
                else:
                    runner.measure(m, measures[m])
            if through:
                forwarding.Forwarding(ctx, conf, out, run.duration, run.tester.simulated).measure(through)
        finally:
            run.close()
        scaled = 0
        for m, keys in measures.items():
            if not m.frame or not m.datagram:
                continue
            for cid in keys.get(net.THROUGHPUT, []):
                if cid in out.values:
                    out.values[cid] = round(out.values[cid] * m.frame / m.datagram, 4)
                    scaled += 1
        if scaled:
            ctx.note(f"{scaled} UDP throughputs counted as whole frames (frame / datagram bytes), as the guide's "
                     "THROUGHPUT and Packets Per Second show for those rows")  # fmt: skip
        used: dict[str, int] = {}
        for tool in out.tools.values():
            used[tool] = used.get(tool, 0) + 1
        ctx.note("numbers by tool: " + (", ".join(f"{t}: {n}" for t, n in sorted(used.items())) or "none"))
        return out

    # ------------------------------------------------------------------------------------------------ the sim


def _answers(m: Measure, kind: str, direction: str, datagram: int, limited: bool) -> bool:
    """Whether measurement m is what a recognised command measures."""
    if kind == "tcp":
        return m.kind in ("tcp", "tcp_pacing") and (m.kind == "tcp_pacing") == limited
    if kind == "iperf_tcp":
        return m.kind == ("iperf_tcp_pacing" if limited else "iperf_tcp") and m.datagram == datagram
    if kind == "udp":
        wanted = "udp_zero" if limited else "udp_loss"
        return m.kind == wanted and (m.direction, m.datagram) == (direction, datagram)
    return m.kind == "iperf_udp" and (m.direction, m.datagram) == (direction, datagram)


def _recognise(command: str, conf: dict) -> tuple[str, str, str, int, bool] | None:
    """(tool, tcp|udp|iperf_udp, direction, datagram, limited-or-paced) of a command this suite sends."""
    if "netperf" in command:
        runs = [w for w in netperf_tool.invocations(command) if w[0].endswith("netperf")]
        tests = {netperf_tool.options(w)[0].get("-t", "TCP_STREAM").upper() for w in runs}
        if {"TCP_STREAM", "TCP_MAERTS"} <= tests:
            return "netperf", "tcp", "both", 0, "rx-usecs" in command
        if len(runs) == 1 and tests == {"UDP_STREAM"}:
            glob, test = netperf_tool.options(runs[0])
            direction = "ingress" if "-C" in glob and "-c" not in glob else "egress"
            return "netperf", "udp", direction, int(test.get("-m", 0)), "-b" in glob
        return None
    words = _words(command)
    if "iperf3" in words:
        w = words[words.index("iperf3") :]
        if str(_opt(w, "-p") or "5201") != str((conf.get("iperf3") or {}).get("port", 5201)):
            return None  # another suite's iperf3 (IPSec has its own port)
        if "--bidir" in w:
            return "iperf3", "tcp", "both", 0, "rx-usecs" in command
        if "-u" in w:
            rate = _opt(w, "-b") or "0"
            return "iperf3", "udp", "ingress" if "-R" in w else "egress", int(_opt(w, "-l") or 0), rate not in ("0", "")
        return None
    if "iperf" in words:
        w = words[words.index("iperf") :]
        if "-u" not in w and "-c" in w and _opt(w, "-w"):
            if str(_opt(w, "-p") or "") != str((conf.get("iperf") or {}).get("port", "")):
                return None  # PCIe-ETH and USB CDC/RNDIS use iperf too, on their own ports
            window = re.fullmatch(r"(\d+)[kK]?", str(_opt(w, "-w")))
            return "iperf", "iperf_tcp", "both", int(window.group(1)) if window else 0, "rx-usecs" in command
        if "-u" in w and "-c" in w:
            port = str(_opt(w, "-p") or "")
            ingress_port = str((conf.get("iperf") or {}).get("port_ingress", ""))
            return "iperf", "iperf_udp", "ingress" if port == ingress_port else "egress", int(_opt(w, "-l") or 0), False
    return None


def target(command: str) -> str:
    """The host a command of this suite sends to: netperf's -H, iperf3's or iperf's -c ("" if none)."""
    if "netperf" in command:
        runs = [w for w in netperf_tool.invocations(command) if w[0].endswith("netperf")]
        return netperf_tool.options(runs[0])[0].get("-H", "") if runs else ""
    words = _words(command)
    tool = next((t for t in ("iperf3", "iperf") if t in words), None)
    return str(_opt(words[words.index(tool) :], "-c") or "") if tool else ""


def _words(command: str) -> list[str]:
    try:
        return shlex.split(re.sub(r"(;|&&|&)", r" \1 ", command))
    except ValueError:
        return command.split()


def _opt(words: list[str], name: str) -> str | None:
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            return words[i + 1]
    return None


class _Runner:
    """One suite run: the tester, the tools still usable, and the measurements."""

    def __init__(self, ctx: Context, conf: dict, out: Measurements) -> None:
        self.ctx = ctx
        self.conf = conf
        self.out = out
        self.duration = net.duration(ctx, conf)
        self.tester = net.Tester.of(ctx, conf)
        self.tester_addr = net.tester_address(ctx, conf)
        self.port: Port | None = None
        self.chain = net.ToolChain(ctx, list(conf.get("tools") or ["netperf", "iperf3"]), out)
        self.iperf_chain = net.ToolChain(ctx, ["iperf"], out)
        self.board_servers: dict[str, str] = {}  # tool -> stop command
        if self.tester.simulated:
            ctx.note("sim lab: the simulator plays the tester; no server is started on this host")

    def on(self, port: Port) -> _Runner:
        """This run on another port: its interface, peer and board address; the tools, the tester's servers and
        the board's servers are shared (they listen on every address)."""
        other = copy.copy(self)
        other.port = port
        other.conf = {**self.conf, "interface": port.interface}
        other.tester_addr = port.tester
        return other

    def values(self, tool: str, **extra: object) -> dict:
        t = self.conf.get(tool) or {}
        board = self.port.board if self.port else net.board_address(self.ctx)
        return {"tester": self.tester_addr, "board": board, "duration": self.duration,
                "keys": t.get("keys", netperf_tool.KEYS), "port": t.get("port", ""), "limit": "", "bind": "",
                "port_ingress": t.get("port_ingress", t.get("port", "")), **extra}  # fmt: skip

    def bind(self, tool: str, name: str) -> str:
        """The tool's `bind` option on another port than the default: the client's local address on that port
        (the tester's for the clients that run there: netperf/iperf ingress), shell-quoted."""
        template = (self.conf.get(tool) or {}).get("bind")
        if not self.port or not template:
            return ""
        local = self.port.tester if name == "udp_ingress" and tool in ("netperf", "iperf") else self.port.board
        return net.fill(str(template), {"address": shlex.quote(local)}, f"{SUITE}.{tool}.bind: ")

    def command(self, tool: str, name: str, **extra: object) -> str:
        template = (self.conf.get(tool) or {}).get(name)
        if not template:
            raise net.Unmeasurable(f"no {tool}.{name} command in the network settings ({net.data_path()})")
        if self.port and "{bind}" not in str(template):
            self.ctx.note(f"{self.port.title}: {tool}.{name} has no {{bind}}: its client is not bound to the port's "
                          "address (the route to the peer chooses the interface)")  # fmt: skip
        values = self.values(tool, bind=self.bind(tool, name), **extra)
        return net.fill(str(template), values, f"{SUITE}.{tool}.{name}: ")

    def run(self, tool: str, command: str, label: str, where: str = "shell") -> tuple[dict[str, float], str]:
        where = self.tester.where if where == "tester" else where
        return net.read(self.ctx, tool, command, timeout=self.duration * 3 + 60, label=label, where=where)

    def board_server(self, tool: str) -> None:
        if tool in self.board_servers:
            return
        conf = self.conf.get(tool) or {}
        if conf.get("board_server"):
            self.ctx.run(net.fill(str(conf["board_server"]), self.values(tool)), timeout=30,
                         label=f"{tool}-board-server")  # fmt: skip
        self.board_servers[tool] = net.fill(str(conf.get("board_server_stop", "")), self.values(tool))

    def close(self) -> None:
        for tool, stop in self.board_servers.items():
            if stop:
                try:
                    self.ctx.run(stop, timeout=30, label=f"{tool}-board-server-stop")
                except Exception as e:
                    self.ctx.note(f"stopping the board's {tool} server: {e}")
        self.tester.stop_all()

    # ---------------------------------------------------------------------------------------- measurements
    def measure(self, m: Measure, keys: dict[str, list[str]]) -> None:
        ids = [cid for group in keys.values() for cid in group]
        if m.kind in ("tcp", "tcp_pacing"):
            self.chain.attempt(ids, lambda tool: self.tcp(tool, m, keys))
        elif m.kind == "udp_loss":
            self.chain.attempt(ids, lambda tool: self.udp_unlimited(tool, m, keys))
        elif m.kind == "udp_zero":
            self.chain.attempt(ids, lambda tool: self.udp_search(tool, m, keys))
        elif m.kind.startswith("iperf_tcp"):
            self.iperf_chain.attempt(ids, lambda tool: self.tcp(tool, m, keys))
        else:
            self.iperf_chain.attempt(ids, lambda tool: self.udp_unlimited(tool, m, keys))

    def tcp(self, tool: str, m: Measure, keys: dict[str, list[str]]) -> bool:
        conf = self.conf.get(tool) or {}
        if m.kind.startswith("iperf_tcp"):  # iperf 2 serves TCP and UDP from two processes
            server = {
                "tester_server": conf.get("tcp_tester_server"),
                "tester_server_stop": conf.get("tester_server_stop"),
            }
            self.tester.start("iperf-tcp", server, conf.get("port", ""))
        else:
            self.tester.start(tool, conf, conf.get("port", ""))
        if m.kind.startswith("iperf_tcp"):
            cmd = self.command(tool, "tcp", window=m.datagram)
        else:
            cmd = self.command(tool, "tcp_bidirectional")
        if m.kind.endswith("pacing"):
            pacing = self.conf.get("pacing") or {}
            iface = str(self.conf.get("interface", "eth0"))
            if not INTERFACE.fullmatch(iface):
                raise DataError(f"{SUITE}.interface: {iface!r} is not an interface name", net.data_path())
            cmd = net.fill(str(pacing["around"]), {"interface": shlex.quote(iface),
                                                   "usecs": pacing.get("usecs", 100), "command": cmd})  # fmt: skip
        if m.kind.endswith("pacing"):
            try:
                text = self.ctx.run(cmd, timeout=self.duration * 3 + 60, label=f"{tool}-{m.label}")
            except ToolMissing as e:
                if "ethtool" not in str(e):
                    raise
                text = f"ethtool: not found ({e})"
            evidence = getattr(self.ctx, "last_evidence", "")
            failed = re.search(
                r"^.*(?:ethtool: (?:command )?not found|Cannot set device coalesce|Cannot get device coalesce).*$",
                text,
                re.M,
            )
            if failed:
                reason = f"interrupt pacing could not be set on the board: {failed.group(0).strip()}"
                ids = [cid for g in keys.values() for cid in g]
                (self.out.unavailable if "not found" in failed.group(0) else self.out.missing).update(
                    dict.fromkeys(ids, reason))  # fmt: skip
                for cid in ids:
                    self.out.evidence.setdefault(cid, []).append(evidence)
                return True
            net.check_present(tool, text)
            metrics = parse(tool, text, command=cmd)
        else:
            metrics, evidence = self.run(tool, cmd, f"{tool}-{m.label}")
        net.assign(self.out, self.ctx, keys, metrics, tool, evidence, f"`{cmd}`")
        self.ctx.note(f"{m.label}: {tool} {metrics.get(net.THROUGHPUT, float('nan')):.2f} Mbit/s")
        return True

    def _udp_command(self, tool: str, m: Measure, limit: dict | None) -> tuple[str, str]:
        """(command, where) of one UDP run; limit None = unlimited."""
        direction = m.direction
        if tool == "netperf":
            conf = self.conf.get("netperf") or {}
            text = net.fill(str(conf.get("limit", "")), limit) if limit else ""
            if direction == "ingress":
                self.board_server("netperf")
            else:
                self.tester.start("netperf", conf, conf.get("port", ""))
            cmd = self.command("netperf", f"udp_{direction}", limit=text, datagram=m.datagram)
            return cmd, "tester" if direction == "ingress" else "shell"
        if tool == "iperf3":
            conf = self.conf.get("iperf3") or {}
            self.tester.start("iperf3", conf, conf.get("port", ""))
            rate = limit["rate_bps"] if limit else conf.get("unlimited_bps", 0)
            return self.command("iperf3", f"udp_{direction}", rate_bps=rate, datagram=m.datagram), "shell"
        conf = self.conf.get("iperf") or {}
        rate = conf.get("unlimited_mbps", 1000)
        if direction == "ingress":
            self.board_server("iperf")
            return self.command("iperf", "udp_ingress", rate_m=rate, datagram=m.datagram), "tester"
        self.tester.start("iperf", conf, conf.get("port", ""))
        return self.command("iperf", "udp_egress", rate_m=rate, datagram=m.datagram), "shell"

    def _keys_for(self, tool: str, m: Measure, keys: dict[str, list[str]]) -> dict[str, list[str]]:
        if tool == "netperf" and m.direction == "ingress" and net.CPU in keys:
            keys = dict(keys)
            keys[net.REMOTE_CPU] = keys.pop(net.CPU)  # the board is netperf's remote end
        return keys

    def udp_unlimited(self, tool: str, m: Measure, keys: dict[str, list[str]]) -> bool:
        cmd, where = self._udp_command(tool, m, None)
        metrics, evidence = self.run(tool, cmd, f"{tool}-{m.label}", where)
        net.assign(self.out, self.ctx, self._keys_for(tool, m, keys), metrics, tool, evidence, f"`{cmd}`")
        return True

    def udp_search(self, tool: str, m: Measure, keys: dict[str, list[str]]) -> bool:
        settings = rfc2544.Settings.from_data(self.conf.get("rfc2544") or {"line_rate": 1000})
        wait_ms = float((self.conf.get("netperf") or {}).get("wait_ms", 10))

        def trial(rate: float) -> tuple[float, float, tuple[dict[str, float], str]]:
            if tool == "netperf":
                burst = max(1, round(rate * 1e6 / 8 / m.datagram * wait_ms / 1000))
                offered = burst * m.datagram * 8 / (wait_ms / 1000) / 1e6
                limit = {"burst": burst, "wait_ms": f"{wait_ms:g}"}
            else:
                offered = rate
                limit = {"rate_bps": round(rate * 1e6)}
            cmd, where = self._udp_command(tool, m, limit)
            metrics, evidence = self.run(tool, cmd, f"{tool}-{m.label}", where)
            if net.LOSS not in metrics:
                raise ParseError(f"{tool} printed no packet loss for `{cmd}`")
            if metrics[net.LOSS] >= 100.0 or metrics.get(net.THROUGHPUT, 1.0) <= 0.0:
                raise FailedTrial(f"{tool}: the trial at {offered:g} Mbit/s carried nothing ({metrics[net.LOSS]:g} % "
                                  f"loss, {metrics.get(net.THROUGHPUT, 0.0):g} Mbit/s): a failed trial, not a rate "
                                  f"the board cannot carry", evidence)  # fmt: skip
            return offered, metrics[net.LOSS], (metrics, evidence)

        ids = [cid for group in keys.values() for cid in group]
        try:
            result = rfc2544.search(trial, settings)
        except FailedTrial as e:  # the search would bracket below a rate the board carries: the run is INVALID
            self.ctx.note(f"{m.label}: RFC 2544 search with {tool} INVALID: {e}")
            self.out.set_invalid(ids, f"{e} (RFC 2544 search)", e.evidence)
            return True
        self.ctx.note(f"{m.label}: RFC 2544 search with {tool}: {len(result.trials)} trials, "
                      f"{'converged' if result.converged else 'NOT converged'} ({result.reason}); "
                      f"0 % loss rate {result.rate if result.rate is not None else 'none'} Mbit/s")  # fmt: skip
        if result.best is None:
            for cid in ids:
                self.out.missing[cid] = f"{tool}: {result.reason} (RFC 2544 search, {len(result.trials)} trials)"
            return True
        metrics, evidence = result.best.result
        net.assign(self.out, self.ctx, self._keys_for(tool, m, keys), metrics, tool, evidence,
                   f"the 0 % loss trial at {result.best.offered:g} Mbit/s")  # fmt: skip
        return True


class FailedTrial(Exception):
    """A trial of a rate search that carried nothing at all (100 % loss, 0 Mbit/s: the peer or the link failed, as
    TI's own cells with min 0.00 show): a search that took it as loss would settle below what the board carries."""

    def __init__(self, message: str, evidence: str) -> None:
        super().__init__(message)
        self.evidence = evidence


WORKLOAD = Ethernet()
