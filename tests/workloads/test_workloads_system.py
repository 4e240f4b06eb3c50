"""System Benchmarks workloads against the simulated board's own shell (perfgate.sim.shell and its answers: the
same index, renderers and faults its SSH server uses), through a Context that runs each command there."""

from __future__ import annotations

import asyncio
import importlib
import random

import pytest

from perfgate import boards, criteria, paths
from perfgate.datafile import load_mapping
from perfgate.decision.tolerance import Policy
from perfgate.decision.verdict import judge
from perfgate.errors import BoardLost, ToolMissing
from perfgate.model import Criterion
from perfgate.sim import data as sim_data
from perfgate.sim import faults as sim_faults
from perfgate.sim import shell
from perfgate.sim import spread as sim_spread
from perfgate.sim import workloads as sim_workloads
from perfgate.sim.answers import Answers
from seed_releases import seed as seed_release
from workload_harness import SIM_LAB, context

SUITES = ["lmbench", "dhrystone", "whetstone", "linpack", "nbench", "stream", "coremark_pro", "multibench"]
BOARDS = ["am62xx_sk", "am43xx_gpevm", "am574x_idk", "j784s4_evm", "am64xx_evm"]


class SimContext:
    """Runs each command in the simulated board's own shell (perfgate.sim.shell, as its SSH server does), fast."""

    def __init__(self, board: str, faults: str = "", seed: int = 1, garbage_for: str = "") -> None:
        self.data = sim_data.load(board, sim_faults.parse(faults), release=seed_release(board))
        self.answers = Answers(self.data, random.Random(seed), sim_spread.load(regime="quiet"))  # plumbing: quiet
        self.shell = shell.Board(self.data, self.answers, speed=10000.0)
        self.board, self.profile, self.lab = board, self.data.profile, self.data.lab
        self.repeat, self.virtual = 1, True
        self.commands: list[str] = []
        self.notes: list[str] = []
        self.last_evidence = ""
        self.garbage_for = garbage_for

    def run(self, command: str, *, timeout: float = 600.0, label: str = "", where: str = "shell") -> str:
        self.commands.append(command)
        self.last_evidence = f"raw/{label}-{len(self.commands)}.txt"
        chunks: list[str] = []

        async def write(text: str, err: bool) -> None:
            chunks.append(text)

        status = asyncio.run(shell.Session(self.shell, shell.Sink(write)).run(command))
        text = "".join(chunks)
        if status == 127:
            raise ToolMissing(f"`{command.split()[0]}` is not on the board ({text.strip()})")
        if self.garbage_for and self.garbage_for in command:
            return "Illegal instruction\n"
        return text

    def tester(self) -> str:
        return "127.0.0.1"

    def note(self, message: str) -> None:
        self.notes.append(message)


def measure(board: str, suite: str, **kw: object):
    crits = criteria.load(board, suite, release=seed_release(board))
    wl = importlib.import_module(f"perfgate.workloads.{suite}").WORKLOAD
    ctx = SimContext(board, **kw)  # type: ignore[arg-type]
    return crits, wl.measure(crits, ctx), ctx


def verdicts(crits: list[Criterion], m) -> dict[str, str]:
    policy = Policy.load()
    return {c.id: judge(c, m.values.get(c.id), policy.for_criterion(c)).verdict for c in crits}


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("suite", SUITES)
def test_every_criterion_is_measured_and_passes_on_a_healthy_board(board: str, suite: str) -> None:
    crits, m, ctx = measure(board, suite)
    if not crits:
        pytest.skip(f"{board} publishes no {suite} numbers")
    assert not m.missing, list(m.missing.items())[:3]
    assert set(m.values) == {c.id for c in crits}
    v = verdicts(crits, m)
    assert not [cid for cid, x in v.items() if x not in ("pass", "warn")], v
    assert any("parser" in n for n in ctx.notes)
    assert all(m.evidence[c.id] for c in crits)


@pytest.mark.parametrize("suite", SUITES)
def test_a_degraded_metric_fails_alone(suite: str) -> None:
    board = "am62xx_sk"
    crits = criteria.load(board, suite, release=seed_release(board))
    # a criterion whose number is not also published under a second name (LMBench's summary names)
    target = next(c for c in crits if not any(o.value == c.value and o.id != c.id for o in crits))
    _, m, _ = measure(board, suite, faults=f"degrade:{target.id}:20")
    v = verdicts(crits, m)
    assert [cid for cid, x in v.items() if x == "fail"] == [target.id]


def test_whetstone_degradation_shows_a_whole_second_later() -> None:
    # 3333.3 MIPS is 3 s of whetstone 100000; 20 % slower is 4 s: 2500 MIPS
    for seed in range(5):
        crits, m, _ = measure("am43xx_gpevm", "whetstone", faults="degrade:am43xx_gpevm.whetstone.*:20", seed=seed)
        assert list(verdicts(crits, m).values()) == ["fail"]


def test_whetstone_runs_enough_loops_that_a_10_percent_slowdown_shows() -> None:
    """variables/workloads/whetstone.yaml: at its loops, whole-second timing still tells 10000 MIPS from 9000."""
    from perfgate.sim.tools import whetstone as sim_whetstone
    from perfgate.tools import whetstone as parse_whetstone

    conf = load_mapping(paths.variables() / "workloads" / "whetstone.yaml")["whetstone"]
    command = conf["command"].format(bin="", loops=conf["loops"])
    mips = {}
    for published in (10000.0, 9000.0):
        out = sim_whetstone.render(command, {sim_whetstone.KEY: published}, random.Random(0))
        mips[published] = parse_whetstone.parse(out)[sim_whetstone.KEY]
    assert mips[9000.0] < mips[10000.0] * 0.95, mips


def test_dhrystone_runs_enough_that_a_10_percent_slowdown_shows() -> None:
    """variables/workloads/dhrystone.yaml: at its runs, whole-second timing tells 20000000 per second (the fastest
    published) from 18000000; at TI's 40000000 runs both last about 2 s."""
    from perfgate.sim.tools import dhrystone as sim_dhrystone
    from perfgate.tools import dhrystone as parse_dhrystone

    conf = load_mapping(paths.variables() / "workloads" / "dhrystone.yaml")["dhrystone"]
    assert sim_dhrystone.runs_of(f"dhrystone {conf['runs']} 2000") == conf["runs"]
    for runs in (conf["runs"], 40_000_000):
        dps = {}
        for published in (20_000_000.0, 18_000_000.0):
            out = sim_dhrystone.render(f"dhrystone {runs} 2000", {sim_dhrystone.KEY_DPS: published}, random.Random(0))
            dps[published] = parse_dhrystone.parse(out)[sim_dhrystone.KEY_DPS]
        whole_seconds = [runs / round(runs / d) for d in dps.values()]  # what time()'s resolution makes of it
        assert (whole_seconds[1] < whole_seconds[0] * 0.95) == (runs == conf["runs"]), (runs, whole_seconds)


def test_missing_tool_makes_its_criteria_unavailable() -> None:
    crits, m, _ = measure("am62xx_sk", "stream", faults="missing-tool:stream")
    assert set(m.unavailable) == {c.id for c in crits}
    assert not m.values
    assert "not on the board" in next(iter(m.unavailable.values()))


def test_unrecognised_output_is_an_invalid_run_with_the_reason() -> None:
    crits, m, _ = measure("am62xx_sk", "linpack", garbage_for="linpack")
    assert set(m.invalid) == {c.id for c in crits} and not m.missing
    assert "linpack output not recognised" in next(iter(m.invalid.values()))[0]
    assert not m.values


def test_lmbench_servers_start_before_and_stop_after() -> None:
    _, _, ctx = measure("am62xx_sk", "lmbench")
    cmds = ctx.commands
    start = max(i for i, c in enumerate(cmds) if c.startswith(("lat_tcp -s", "lat_connect -s")))
    stop = min(i for i, c in enumerate(cmds) if c.startswith(("lat_tcp -S", "lat_connect -S")))
    tcp = next(i for i, c in enumerate(cmds) if c.startswith("lat_tcp localhost"))
    connect = next(i for i, c in enumerate(cmds) if c.startswith("lat_connect localhost"))
    assert start < tcp < stop and start < connect < stop
    assert cmds[0].startswith("dd if=/dev/urandom")
    assert all("2>&1" in c for c in cmds if "lat_" in c or "bw_" in c)


def test_lmbench_servers_stopped_even_when_the_board_drops() -> None:
    crits = criteria.load("am62xx_sk", "lmbench", release=seed_release("am62xx_sk"))
    wl = importlib.import_module("perfgate.workloads.lmbench").WORKLOAD
    ctx = SimContext("am62xx_sk")
    real = ctx.run

    def run(command: str, **kw: object) -> str:
        if command.startswith("lat_ops"):
            raise BoardLost("the SSH session went away")  # a timeout is an INVALID run instead (test_invalid_runs)
        return real(command, **kw)  # type: ignore[arg-type]

    ctx.run = run  # type: ignore[method-assign]
    with pytest.raises(BoardLost):
        wl.measure(crits, ctx)
    assert any(" -S " in c for c in ctx.commands)


def test_coremark_pro_runs_one_and_two_contexts_by_table() -> None:
    crits, m, ctx = measure("am62xx_sk", "coremark_pro")
    assert sorted(c for c in ctx.commands) == sorted(
        [c for c in ctx.commands if "-c1" in c] + [c for c in ctx.commands if "-c2" in c]
    )
    assert len(ctx.commands) == 2
    two = next(c for c in crits if "TwoCore" in c.table and c.row.startswith("coremark-pro"))
    one = next(c for c in crits if "TwoCore" not in c.table and c.row.startswith("coremark-pro"))
    assert m.values[two.id] == pytest.approx(two.value, rel=0.1)
    assert m.values[one.id] == pytest.approx(one.value, rel=0.1)
    j7 = criteria.load("j721e_idk_gw", "coremark_pro", release=seed_release("j721e_idk_gw"))
    wl = importlib.import_module("perfgate.workloads.coremark_pro").WORKLOAD
    assert [r.command for r in wl.plan(j7, boards.profile("j721e_idk_gw"), {})] == [
        "cd /usr/share/coremark-pro && make TARGET=linux64 XCMD='-c1' certify-all 2>&1"
    ]


def test_commands_come_from_the_board_profile() -> None:
    crits = criteria.load("am62xx_sk", "stream", release=seed_release("am62xx_sk"))
    wl = importlib.import_module("perfgate.workloads.stream").WORKLOAD
    profile = {**boards.profile("am62xx_sk"), "workloads": {"stream": {"bin": "/opt/arm-benchmarks/"}}}
    assert [r.command for r in wl.plan(crits, profile, {})] == ["/opt/arm-benchmarks/stream_c 2>&1"]
    lab = {"boards": {"am62xx_sk": {"workloads": {"stream": {"command": "taskset 1 {bin}stream_c 2>&1"}}}}}
    assert [r.command for r in wl.plan(crits, profile, lab)] == ["taskset 1 /opt/arm-benchmarks/stream_c 2>&1"]


def test_a_row_no_parser_name_matches_is_missing_with_the_reason() -> None:
    c = criteria.load("am62xx_sk", "nbench", release=seed_release("am62xx_sk"))[0]
    odd = Criterion(
        **{**c.to_json(), "id": "am62xx_sk.nbench.x.bogomips", "name": "bogomips", "row": "bogomips (Iterations)"}
    )
    wl = importlib.import_module("perfgate.workloads.nbench").WORKLOAD
    m = wl.measure([c, odd], SimContext("am62xx_sk"))
    assert c.id in m.values
    assert "bogomips" in m.missing[odd.id]


def test_truncated_am57x_names_match() -> None:
    crits = {c.row: c for c in criteria.load("am574x_idk", "lmbench", release=seed_release("am574x_idk"))}
    truncated = [
        r for r in crits if r.startswith(("af_unix_socket_stream_bandwidt ", "tcp_ip_connection_cost_to_loca"))
    ]
    assert len(truncated) == 2
    _, m, _ = measure("am574x_idk", "lmbench")
    assert all(crits[r].id in m.values for r in truncated)


@pytest.mark.parametrize("suite", SUITES)
def test_expected_answers_every_planned_command(suite: str) -> None:
    """The simulated board asks `expected()` for commands it has not indexed: every planned command has an answer."""
    wl = importlib.import_module(f"perfgate.workloads.{suite}").WORKLOAD
    for board in ("am62xx_sk", "j721e_idk_gw"):
        crits = criteria.load(board, suite, release=seed_release(board))
        profile = boards.profile(board)
        for run in wl.plan(crits, profile, {}):
            exp = sim_workloads.expected(wl, run.command, crits, profile, {})
            assert exp is not None and exp.tool == run.tool, run.command
            assert set(exp.values) == set(run.keys), run.command


def test_dhrystone_a_run_of_a_few_ticks_is_run_again_long_enough() -> None:
    """A lab that runs TI's 40000000 runs on a board of about 6.8 million a second: about 6 s, one whole-second tick
    is 17 % of it, so the workload runs it again with enough runs that a tick is at most 2.5 % (its settings), says so,
    and judges the longer run; a lab that allows no longer run is told its rate cannot be judged finer."""
    from perfgate.workloads import dhrystone

    lab = {**SIM_LAB, "workloads": {**SIM_LAB["workloads"], "dhrystone": {"runs": 40_000_000}}}
    ctx = context(dhrystone.WORKLOAD, "am62xx_sk", "dhrystone", lab=lab)
    m = dhrystone.WORKLOAD.measure(ctx.criteria, ctx)
    runs = [int(c.split("dhrystone ")[1].split()[0]) for _, c in ctx.commands if "dhrystone " in c]
    assert runs[0] == 40_000_000 and len(runs) == 2 and runs[1] >= 2.5e8  # about 40 s: a tick 2.5 %
    assert any("running" in n and "tick is" in n for n in ctx.notes) and m.values
    capped = {**lab, "workloads": {**lab["workloads"], "dhrystone": {"runs": 40_000_000, "max_seconds": 5}}}
    ctx = context(dhrystone.WORKLOAD, "am62xx_sk", "dhrystone", lab=capped)
    dhrystone.WORKLOAD.measure(ctx.criteria, ctx)
    assert sum("dhrystone " in c for _, c in ctx.commands) == 1
    assert any("cannot be judged finer" in n for n in ctx.notes)
