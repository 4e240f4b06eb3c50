"""What the network suites (ethernet, pcie_eth, usb_eth, ipsec) share: their settings, the run length, the tester
(where its commands run, its servers), and running one tool command with fallback to the next tool.

Settings: variables/workloads/network.yaml `common` + `<suite>`, then the board profile's workloads.<suite>, then
the lab's workloads.<suite> and boards.<board>.workloads.<suite> (perfgate.workloads.settings). Tester-side
commands run on the gate's host in a real lab (its servers are started and stopped by the suite there); in the sim
lab the simulator plays the tester, so they go to its shell and nothing is started on this machine (the log says so).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from perfgate import address, paths
from perfgate.errors import DataError, ParseError, ToolMissing
from perfgate.model import Criterion
from perfgate.tools.common import CPU, KPPS, LOSS, THROUGHPUT
from perfgate.workloads.base import Context, Measurements
from perfgate.workloads.peripherals import clean as norm
from perfgate.workloads.peripherals import context as peripheral_context
from perfgate.workloads.settings import settings as shared_settings

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")

REMOTE_CPU = "remote cpu load (%)"


def data_path() -> Path:
    return paths.variables() / "workloads" / "network.yaml"


def settings(suite: str, profile: dict, lab: dict) -> dict:
    """The merged settings of a network suite (variables/workloads/network.yaml, then the board's and the lab's)."""
    return shared_settings("network", suite, profile, lab)


def lab_kind(lab: dict) -> str:
    return str((lab or {}).get("kind") or "hardware")


def duration(ctx: Context, conf: dict) -> int:
    """Seconds per run: -v DURATION, then the lab's `duration`, then the settings by lab kind."""
    value = getattr(ctx, "duration", None)
    if value in (None, ""):
        value = _robot_variable("DURATION")
    if value in (None, ""):
        value = (ctx.lab or {}).get("duration")
    if value in (None, ""):
        by_kind = conf.get("duration") or {}
        value = by_kind.get(lab_kind(ctx.lab), by_kind.get("hardware", 60)) if isinstance(by_kind, dict) else by_kind
    try:
        return max(1, int(float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DataError(f"DURATION must be a number of seconds, not {value!r}") from None


def _robot_variable(name: str) -> object:
    try:
        from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError
    except ImportError:  # pragma: no cover - robot is a requirement
        return None
    try:
        return BuiltIn().get_variable_value("${" + name + "}")
    except RobotNotRunningError:
        return None


def tester_where(lab: dict, conf: dict) -> str:
    tester = (lab or {}).get("tester") or {}
    if isinstance(tester, dict) and tester.get("run_on"):
        return str(tester["run_on"])
    return str((conf.get("tester_side") or {}).get(lab_kind(lab), "host"))


def tester_address(ctx: Context, conf: dict) -> str:
    """The tester's address as the board sees it (the suite's settings, else the lab's): checked to be an address
    or a host name, since it goes into command lines."""
    if conf.get("tester"):
        return address.checked(conf["tester"], "the suite's workload setting `tester`")
    return address.checked(ctx.tester(), "the tester's address (lab tester.address)")


def board_address(ctx: Context) -> str:
    """The board's address as the tester sees it (checked: it goes into the tester's command lines)."""
    fn = getattr(ctx, "board_address", None)
    if callable(fn):
        return address.checked(fn(), "the board's address")
    ssh = (ctx.lab or {}).get("ssh") or {}
    found = str(ssh.get("address") or "")
    if re.fullmatch(r"[\d.]+|[0-9a-fA-F:]+", found):
        return address.checked(found, "lab ssh.address")
    return address.checked((ctx.profile or {}).get("hostname") or ctx.board, "the board's host name")


def context(c: Criterion) -> dict[str, str]:
    """The criterion's context (peripherals.context) with its keys normalised (`norm`): the network suites look
    keys up case-folded (`udp datagram size`, `packet_size (bytes)`), the peripheral suites as printed."""
    return {norm(k): v for k, v in peripheral_context(c).items()}


def metric_key(c: Criterion) -> str | None:
    """The parser metric a network criterion publishes, from its metric (or row) text and unit."""
    text = norm(c.metric or c.row)
    if "loss" in text:
        return LOSS
    if "cpu" in text or "load" in text:
        return CPU
    if "kpps" in text or "packets" in text or norm(c.unit) in ("kpps", "packets/s"):
        return KPPS
    if "throughput" in text or "bandwidth" in text or "mbps" in text or norm(c.unit).startswith("mbit"):
        return THROUGHPUT
    return None


def grouped(
    criteria: list[Criterion], classify: Callable[[Criterion], tuple[K, str] | str]
) -> tuple[dict[K, dict[str, list[str]]], dict[str, str]]:
    """Criteria grouped by what measures them (`classify`: (measurement, parser metric), or why none fits):
    measurement -> parser metric -> criterion ids; and criterion id -> reason for those that fit none."""
    out: dict[K, dict[str, list[str]]] = {}
    bad: dict[str, str] = {}
    for c in criteria:
        got = classify(c)
        if isinstance(got, str):
            bad[c.id] = got
        else:
            out.setdefault(got[0], {}).setdefault(got[1], []).append(c.id)
    return out, bad


def published(keys: dict[str, list[str]], criteria: list[Criterion]) -> dict[str, float]:
    """For the simulated board: each parser metric's published value (that of its first criterion)."""
    by_id = {c.id: c for c in criteria}
    return {k: by_id[ids[0]].value for k, ids in keys.items()}


def fill(template: str, values: dict, where: str = "", path: Path | None = None) -> str:
    """str.format of a command template from the settings; a placeholder no value fills is an error naming the
    settings file (`path`, network.yaml by default) and `where` in it."""
    try:
        return template.format(**values)
    except KeyError as e:
        raise DataError(f"{where}command template {template!r} needs {{{e.args[0]}}}", path or data_path()) from None


@dataclass
class Tester:
    """The network peer: where its commands run, and the servers the suite started on it (real labs)."""

    ctx: Context
    conf: dict
    where: str
    started: list[str] = field(default_factory=list)  # stop commands, run at the end

    @classmethod
    def of(cls, ctx: Context, conf: dict) -> Tester:
        return cls(ctx, conf, tester_where(ctx.lab, conf))

    @property
    def simulated(self) -> bool:
        return self.where != "host"

    def start(self, tool: str, tool_conf: dict, port: object) -> None:
        """Start the tool's server on the tester (raises ToolMissing when the tester has no such program)."""
        if self.simulated:
            return
        if not re.fullmatch(r"\d{1,5}", str(port)):
            raise DataError(f"{tool}: the tester's server port must be a number, not {port!r}", data_path())
        pidfile = fill(str(self.conf.get("pidfile", "/tmp/perfgate-{tool}-{port}.pid")), {"tool": tool, "port": port})
        values = {"port": port, "pidfile": shlex.quote(pidfile)}  # these commands run in a shell on this host
        start = tool_conf.get("tester_server")
        if not start:
            return
        stop = fill(str(tool_conf.get("tester_server_stop", "")), values)
        key = f"{tool}:{port}"
        if key in self.started:
            return
        command = fill(str(start), values)
        words = [w for w in command.split() if w not in ("nohup", "sudo", "exec")]
        binary = words[0] if words else tool
        found = self.ctx.run(
            f"command -v {shlex.quote(binary)}", timeout=30, label=f"tester-{tool}-probe", where="host"
        )
        if not found.strip() or "not found" in found:
            raise ToolMissing(f"the tester has no {binary}")
        text = self.ctx.run(command, timeout=30, label=f"tester-{tool}-server", where="host")
        if re.search(r"not found|No such file", text):
            raise ToolMissing(f"the tester has no {tool} server ({text.strip().splitlines()[-1]})")
        self.started.append(key)
        self._stops[key] = stop

    def run(self, command: str, *, timeout: float, label: str) -> str:
        return self.ctx.run(command, timeout=timeout, label=label, where=self.where)

    def stop_all(self) -> None:
        for key in reversed(self.started):
            stop = self._stops.get(key)
            if stop:
                try:
                    self.ctx.run(stop, timeout=30, label="tester-server-stop", where="host")
                except Exception as e:  # a server that is already gone must not fail the suite
                    self.ctx.note(f"stopping the tester's {key} server: {e}")
        self.started.clear()

    def __post_init__(self) -> None:
        self._stops: dict[str, str] = {}


class Unmeasurable(ParseError):
    """The measurement cannot be set up here (no command in the settings, a tunnel the tester refuses): its criteria
    are not measured, where a tool's failed run is an INVALID run run again."""


class ToolChain:
    """Runs one measurement with the first tool of the preference list that both ends have; a tool found
    missing (exit 127) is not tried again in this suite. The caller builds the command per tool."""

    def __init__(self, ctx: Context, tools: list[str], out: Measurements) -> None:
        self.ctx = ctx
        self.tools = list(tools)
        self.dead: dict[str, str] = {}
        self.out = out

    def usable(self) -> list[str]:
        return [t for t in self.tools if t not in self.dead]

    def attempt(self, ids: list[str], body: Callable[[str], bool]) -> str | None:
        """Call body(tool) for each usable tool until one returns True; record why the ids went unmeasured."""
        for tool in self.usable():
            try:
                if body(tool):
                    return tool
                return None
            except ToolMissing as e:
                self.dead[tool] = str(e)
                self.ctx.note(f"{tool} cannot be used ({e}); trying the next tool")
            except Unmeasurable as e:
                self.out.missing.update(dict.fromkeys(ids, f"{tool}: {e}"))
                return None
            except ParseError as e:  # the tool failed (its peer did not answer, an error): an INVALID run
                evidence = getattr(self.ctx, "last_evidence", "")
                self.out.set_invalid(ids, f"{tool} output not recognised: {e}", evidence)
                return None
        reasons = "; ".join(f"{t}: {r}" for t, r in self.dead.items()) or "no tool configured"
        for cid in ids:
            self.out.unavailable[cid] = f"no network tool available ({reasons})"
        return None


def attempt_all(chain: ToolChain, tester: Tester, items: Iterable[tuple[list[str], T]],
                body: Callable[[str, T], bool]) -> None:  # fmt: skip
    """body(tool, item) for each (criterion ids, item) through the tool chain; the servers the suite started on
    the tester are stopped at the end, whatever happened."""
    try:
        for ids, item in items:
            chain.attempt(ids, lambda tool, item=item: body(tool, item))
    finally:
        tester.stop_all()


def read(ctx: Context, tool: str, command: str, *, timeout: float, label: str, where: str = "shell"
         ) -> tuple[dict[str, float], str]:  # fmt: skip
    """Run one tool command and parse it: (metrics, evidence file). A tool missing in a background job raises
    ToolMissing, output the parser does not recognise ParseError (the ToolChain records both)."""
    from perfgate.tools import parse

    text = ctx.run(command, timeout=timeout, label=label, where=where)
    check_present(tool, text)
    return parse(tool, text, command=command), getattr(ctx, "last_evidence", "")


def check_present(tool: str, text: str) -> None:
    """A background job's `sh: netperf: not found` does not make the command's status 127: read it here."""
    m = re.search(rf"^.*\b{re.escape(tool)}: (?:command )?not found.*$", text, re.M)
    if m:
        raise ToolMissing(f"`{tool}` is not there ({m.group(0).strip()})")


def requirement(profile: dict, lab: dict, conf: dict) -> str | None:
    """Why the board or the lab cannot run the suite (settings `requires: {board: [...], lab: [...]}`), or None."""
    req = conf.get("requires") or {}
    for where, data, folder in (("board", profile, "boards"), ("lab", lab, "labs")):
        for item in req.get(where) or []:
            if item not in (data.get("has") or []):
                name = data.get("name", where)
                return f"{where} {name} has no {item} (variables/{folder}/{name}.yaml: has)"
    return None


def assign(out: Measurements, ctx: Context, keys: dict[str, list[str]], metrics: dict[str, float], tool: str,
           evidence: str, what: str) -> None:  # fmt: skip
    """Give each criterion its metric from one parsed output, or say which metric the output lacked."""
    for key, ids in keys.items():
        for cid in ids:
            if evidence:
                out.evidence.setdefault(cid, []).append(evidence)
            if key in metrics:
                out.values[cid] = metrics[key]
                out.tools[cid] = tool
            else:
                out.missing[cid] = f"{tool} printed no '{key}' for {what}"


class IperfWindows:
    """TCP bandwidth per TCP window size with iperf 2 (the PCIe-ETH and USB CDC/RNDIS tables): one run per row,
    `-w <row>K` to the suite's tester, on the port of the row's mode (so that the tester's servers and the
    simulated board tell the modes apart). Subclasses say which mode a criterion belongs to."""

    suite = ""

    def modes(self, conf: dict) -> dict[str, dict]:
        return {"default": {"port": (conf.get("iperf") or {}).get("port", 5001)}}

    def mode_of(self, c: Criterion, conf: dict) -> str | None:
        return "default"

    def rows(self, criteria: list[Criterion], conf: dict) -> tuple[dict[tuple[str, str], list[str]], dict[str, str]]:
        """(mode, window KB) -> criterion ids; and the reasons for criteria that fit no row."""
        out: dict[tuple[str, str], list[str]] = {}
        bad: dict[str, str] = {}
        for c in criteria:
            mode = self.mode_of(c, conf)
            window = re.fullmatch(r"\s*(\d+)\s*(?:k|kb|kbytes)?\s*", norm(c.row))
            if mode is None:
                bad[c.id] = f"table {c.table!r} matches no mode of {self.suite} ({data_path()})"
            elif metric_key(c) != THROUGHPUT or not window:
                bad[c.id] = f"not a bandwidth per TCP window size: {c.row!r} / {c.metric!r}"
            else:
                out.setdefault((mode, window.group(1)), []).append(c.id)
        return out, bad

    def command(self, conf: dict, mode: str, window: str, tester: str, seconds: int) -> str:
        m = self.modes(conf)[mode]
        cmd = fill(str((conf.get("iperf") or {})["tcp"]),
                   {"tester": tester, "port": m.get("port", ""), "window": window, "duration": seconds})  # fmt: skip
        setup = str(m.get("setup") or "").strip()
        return f"{setup} && {cmd}" if setup else cmd

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return requirement(profile, lab, settings(self.suite, profile, lab))

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list:
        return []  # the tester's address is known only while measuring: see measure()

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        conf = settings(self.suite, ctx.profile, ctx.lab)
        out = Measurements()
        rows, bad = self.rows(criteria, conf)
        out.missing.update(bad)
        seconds = duration(ctx, conf)
        tester = Tester.of(ctx, conf)
        address = tester_address(ctx, conf)
        ctx.note(f"iperf to {address}, {seconds} s per window size (the guides: {conf.get('guide_duration', 60)} s)")

        def window(tool: str, row: tuple[str, str, list[str], str]) -> bool:
            mode, size, ids, cmd = row
            tester.start("iperf", conf.get("iperf") or {}, self.modes(conf)[mode].get("port", ""))
            metrics, evidence = read(ctx, "iperf", cmd, timeout=seconds * 3 + 60, label=f"iperf-{mode}-w{size}k")
            assign(out, ctx, {THROUGHPUT: ids}, metrics, "iperf", evidence, f"`{cmd}`")
            return True

        order = sorted(rows.items(), key=lambda kv: (kv[0][0], int(kv[0][1])))
        items = [(ids, (m, w, ids, self.command(conf, m, w, address, seconds))) for (m, w), ids in order]
        attempt_all(ToolChain(ctx, ["iperf"], out), tester, items, window)
        return out
