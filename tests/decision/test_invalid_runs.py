"""INVALID runs (issue 28): a run that failed, or that was taken while the board was throttled, at a low clock or over
a slow link, is set aside with its reason, never averaged, run again within the budget; a criterion whose runs are
mostly INVALID fails naming the reasons. The board's state is read around each command with one short shell command
(perfgate.decision.validity), here on this host's own shell and on the simulated board; the faults that spoil a run
(invalid-run, throttle, link, governor) are driven end to end through robot over the simulated board's real pty and
SSH server (one small suite each, marked slow)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from perfgate import paths
from perfgate.decision import budget, sequential, validity
from perfgate.decision.judge import Judge, SuiteState
from perfgate.decision.tolerance import Policy
from perfgate.decision.verdict import FAIL, PASS
from perfgate.model import Criterion
from perfgate.sim import faults
from perfgate.workloads.base import Measurements, Run, run_all

ROOT = paths.root()
BOARD = "am62xx_sk"


def crit(row: str = "r", value: float = 100.0, unit: str = "MB/s", metric: str = "m") -> Criterion:
    return Criterion(id=f"b.stream.t.{row}.m", name=row, board="b", guide="g.rst", release="1", chapter="system",
                     suite="stream", table="t", row=row, metric=metric, unit=unit, value=value, min=value - 10,
                     max=value + 10, direction="higher")  # fmt: skip


# -- the board's state: one short command, read on a real shell ------------------------------------------------
def test_the_state_read_runs_on_this_hosts_shell_and_says_which_boot_it_is() -> None:
    """The read command, run by this host's /bin/sh over its real /proc and /sys: the boot id is the kernel's; a
    file this machine lacks (a cpufreq, a cooling device, the link of `lo`) prints nothing and spoils nothing."""
    text = subprocess.run(["sh", "-c", validity.read_command("lo")], capture_output=True, text=True, timeout=30).stdout
    state = validity.parse(text)
    assert state.boot_id == Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    assert validity.problems(state, state, {"cpu_mhz": 1400, "link_mbps": 1000}, validity.settings()["rules"],
                             "ethernet") == []  # fmt: skip


def test_the_read_command_quotes_everything_but_the_globs() -> None:
    conf = {"files": ["/sys/class/net/{interface}/speed", "/sys/a b/c*/d"], "mounts": "^/dev/"}
    assert validity.read_command("eth0", conf) == (
        "grep -Hs . /sys/class/net/eth0/speed '/sys/a b/c'*/d; grep -Hs '^/dev/' /proc/mounts; true"
    )
    with pytest.raises(Exception, match="not an interface name"):
        validity.read_command("eth0; reboot", conf)


def _state(**kw: object) -> validity.State:
    base = {"cpu_khz": [1400000] * 2, "governors": ["performance"] * 2, "max_khz": [1400000], "cooling": [0],
            "cooling_trans": 3, "speed": 1000, "duplex": "full", "carrier_changes": 1, "boot_id": "b1"}  # fmt: skip
    return validity.State(**{**base, **kw})  # type: ignore[arg-type]


def test_only_a_positive_sign_of_trouble_invalidates() -> None:
    rules = validity.settings()["rules"]
    expect = {"cpu_mhz": 1400, "link_mbps": 1000}
    ok = _state()
    assert validity.problems(ok, ok, expect, rules, "ethernet") == []
    assert validity.problems(validity.State(), validity.State(), expect, rules, "ethernet") == []  # nothing there
    # a governor that scales with load reads an idle clock between commands: that says nothing
    assert validity.problems(_state(governors=["schedutil"], cpu_khz=[400000]), ok, expect, rules, "stream") == []
    hot = validity.problems(ok, _state(cooling=[2], cooling_trans=4, temps_mc=[86000]), expect, rules, "stream")
    assert hot == ["throttled (cooling device state 2, 86 °C) after the run",
                   "throttled during the run (cooling devices changed state 1 times)"]  # fmt: skip
    low = validity.problems(ok, _state(governors=["powersave"], cpu_khz=[400000]), expect, rules, "stream")
    assert low == ["CPU governor powersave after the run",
                   "CPU clock 400 MHz after the run, below the board profile's 1400 MHz"]  # fmt: skip
    slow = _state(speed=100, carrier_changes=3)
    assert validity.problems(ok, slow, expect, rules, "stream") == []  # the link does not carry a CPU benchmark
    assert validity.problems(ok, slow, expect, rules, "ethernet") == [
        "link at 100 Mb/s after the run, slower than the guide's 1000 Mb/s",
        "the link went down during the run (2 carrier changes)",
    ]
    assert validity.problems(ok, _state(boot_id="b2"), expect, rules, "stream") == ["the board rebooted during the run"]


def test_a_value_that_says_nothing_was_measured_is_invalid() -> None:
    assert "measured nothing" in (validity.implausible(crit(), 0.0) or "")
    assert validity.implausible(crit(), 3.0) is None  # slow is a value, not a failed run
    loss = crit("loss", value=0.5, unit="%", metric="Packet Loss %")
    assert "nothing got through" in (validity.implausible(loss, 100.0) or "")


# -- a failed run in the workloads: INVALID with the tool's own words --------------------------------------------
class _Ctx:
    """A Context whose board answers each command from `answers` (a text, or an exception to raise)."""

    board, profile, lab, repeat, virtual = BOARD, {}, {}, 1, True

    def __init__(self, answers: list[object]) -> None:
        self.answers, self.last_evidence = answers, ""

    def run(self, command: str, **kw: object) -> str:
        answer = self.answers.pop(0)
        self.last_evidence = f"raw/{len(self.answers)}.txt"
        if isinstance(answer, BaseException):
            raise answer
        return str(answer)

    def note(self, message: str) -> None:
        pass


def test_a_tool_error_and_a_timeout_are_invalid_runs_not_missing_values() -> None:
    iperf3 = Path(ROOT / "tests/fixtures/iperf3/client-no-server.json").read_text()  # real: iperf 3.12, no server
    runs = [Run("iperf3", "iperf3 -c 127.0.0.1 -J", {"throughput (Mbits/sec)": ["a"]}),
            Run("stream", "stream", {"copy": ["b"]})]  # fmt: skip
    m = run_all(runs, _Ctx([iperf3, AssertionError("no prompt within 30 s")]))  # type: ignore[arg-type]
    assert not m.values and not m.missing
    assert m.invalid["a"] == ["iperf3 output not recognised: iperf3 failed: unable to connect to server: Connection "
                              "refused"] and m.invalid_evidence["a"] == ["raw/1.txt"]  # fmt: skip
    assert m.invalid["b"] == ["stream did not finish: no prompt within 30 s"]
    whole = Measurements()
    whole.merge(m)
    whole.merge(m)
    assert whole.invalid["a"] == m.invalid["a"] * 2 and len(whole.invalid_evidence["a"]) == 2


# -- the judge: rerun while it may, fail when mostly invalid --------------------------------------------------
@pytest.fixture
def judge() -> Judge:
    return Judge(Policy.load(), sequential.load(), {}, "median", budget.load(), judged=600)


def test_a_criterion_with_only_invalid_runs_runs_again_then_fails_naming_the_reasons(judge: Judge) -> None:
    c, good = crit("c"), crit("good")
    crits = {c.id: c, good.id: good}
    why = "iperf3 output not recognised: unable to connect to server"
    d = judge.decide(SuiteState(crits, {good.id: [101.0]}, Measurements(), True, invalid={c.id: [why]}))
    assert d.undecided == [c.id] and not d.judgements  # its command runs again
    d = judge.decide(SuiteState(crits, {good.id: [101.0]}, Measurements(), False, invalid={c.id: [why, why]}))
    assert d.final and d.judgements[good.id].verdict == PASS
    j = d.judgements[c.id]
    assert j.verdict == FAIL and f"2 of 2 runs INVALID, set aside: 2 × {why}" in j.message


def test_invalid_runs_among_good_ones_are_set_aside_and_the_good_ones_decide(judge: Judge) -> None:
    c = crit("c")
    d = judge.decide(SuiteState({c.id: c}, {c.id: [101.0, 100.0]}, Measurements(), True,
                                invalid={c.id: ["throttled during the run"]}))  # fmt: skip
    assert d.final and d.judgements[c.id].verdict == PASS
    assert d.measured is not None and d.measured.values[c.id] == 100.5  # the invalid run is not averaged in
    assert "1 of 3 runs INVALID, set aside: 1 × throttled during the run" in d.judgements[c.id].message
    d = judge.decide(SuiteState({c.id: c}, {c.id: [101.0]}, Measurements(), False,
                                invalid={c.id: ["a", "b"]}))  # fmt: skip
    assert d.judgements[c.id].verdict == FAIL and "1 × a, 1 × b" in d.judgements[c.id].message


def test_the_new_faults_parse_and_say_what_they_are() -> None:
    f = faults.parse("invalid-run:iperf3,throttle:coremark-pro:all,link:100,governor:powersave")
    assert f.conditions == {"invalid-run": ("iperf3", False), "throttle": ("coremark-pro", True),
                            "link": ("100", False), "governor": ("powersave", False)}  # fmt: skip
    assert "throttle:coremark-pro:all" in f.describe()
    for bad in ("link:fast", "throttle:", "invalid-run:iperf3:twice"):
        with pytest.raises(Exception, match="fault"):
            faults.parse(bad)
    from perfgate.sim import data

    with pytest.raises(Exception, match="fault throttle:nosuch: no such tool"):  # a fault that spoils nothing
        data.load(BOARD, faults.parse("throttle:nosuch"))


# -- end to end: robot over the simulated board's pty and SSH -------------------------------------------------
def _gate(tmp: Path, suites: list[str], fault: str, lab: str = "") -> tuple[list[dict], dict, str]:
    """robot -v BOARD:am62xx_sk --suite <suite>... -v FAULTS:<fault>: (metrics.json, run.json, output.xml's text)."""
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp / "results"), "PYTHONPATH": str(ROOT / "libraries"),
           "PERFGATE_NO_COLLECT": "1"}  # fmt: skip
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp / "out"), "--console", "dotted", "-v",
            f"BOARD:{BOARD}", "-v", "SIM_SPEED:20", "-v", "DURATION:1", "-v", "INCONCLUSIVE:pass", "-v",
            f"FAULTS:{fault}"]  # fmt: skip
    argv += [a for suite in suites for a in ("--suite", suite)] + (["-v", f"LAB:{lab}"] if lab else [])
    subprocess.run([*argv, str(ROOT / "suites")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)
    (run,) = (tmp / "results" / "virtual" / BOARD).glob("2*")
    return (json.loads((run / "metrics.json").read_text()), json.loads((run / "run.json").read_text()),
            (tmp / "out" / "output.xml").read_text())  # fmt: skip


def _iperf3_lab(tmp: Path) -> str:
    """The sim lab with iperf3 as the Ethernet suite's tool (the sim lab's default is netperf)."""
    lab = yaml.safe_load((ROOT / "variables/labs/sim.yaml").read_text())
    lab["workloads"]["ethernet"]["tools"] = ["iperf3"]
    (tmp / "sim_iperf3.yaml").write_text(yaml.safe_dump(lab))
    return str(tmp / "sim_iperf3.yaml")


def _spoilt(entries: list[dict], words: str) -> list[dict]:
    """The criteria with an INVALID run for `words`: each such run names its raw output; none of them FAILs while
    its valid runs decide it."""
    hit = [e for e in entries if any(words in i["reason"] for i in e["invalid"])]
    assert hit, f"no criterion has an INVALID run for {words!r}"
    for e in hit:
        assert all(i["evidence"] and i["evidence"].startswith("raw/") for i in e["invalid"])
    return hit


@pytest.mark.slow
def test_a_failed_iperf3_run_and_a_slow_link_read_invalid_and_the_good_runs_decide(tmp_path: Path) -> None:
    """The Ethernet suite over iperf3: its first run fails as iperf3 fails with no server, the next iperf3 command
    runs over a link renegotiated at 100 Mb/s; both INVALID with the reason, none FAILs, the runs after decide."""
    entries, run, log = _gate(tmp_path, ["ethernet"], "invalid-run:iperf3,link:100", _iperf3_lab(tmp_path))
    failed = _spoilt(entries, "unable to connect to server: Connection refused")
    slow = _spoilt(entries, "link at 100 Mb/s after the run, slower than the guide's 1000 Mb/s")
    assert not {e["id"] for e in failed} & {e["id"] for e in slow}
    for e in failed + slow:
        assert e["verdict"] != "fail" and len(e["invalid"]) == 1 and e["samples"], e
        assert "1 of " in e["message"] and "runs INVALID, set aside" in e["message"]
        assert all(s["before"].get("cpu_mhz") == 1400 for s in e["board_state"])  # the sysfs reads, on the sim
    assert any(s["after"].get("link") == "100/full" for e in slow for s in e["board_state"])
    assert not [e for e in entries if e["verdict"] == "fail"]
    assert run["invalid_samples"] == len(failed) + len(slow) and 0 < run["invalid_rate"] < 0.25
    assert f"{run['invalid_samples']} INVALID runs set aside" in run["verdict_reason"]
    assert "INVALID: " in log and "INVALID run, set aside: iperf3 output not recognised" in log


@pytest.mark.slow
def test_a_throttled_board_and_the_powersave_governor_read_invalid_not_failing(tmp_path: Path) -> None:
    """CoreMark-Pro's first run throttles the board; the powersave governor holds the clock at 400 MHz during the
    first run of each tool: those samples are INVALID with the reason, the runs after decide, nothing FAILs."""
    entries, run, log = _gate(tmp_path, ["coremark_pro", "dhrystone"], "throttle:coremark-pro,governor:powersave")
    hot = _spoilt(entries, "throttled during the run (cooling devices changed state 1 times)")
    low = _spoilt(entries, "CPU governor powersave after the run")
    assert {e["suite"] for e in hot} == {"coremark_pro"} and {e["suite"] for e in low} == {"coremark_pro", "dhrystone"}
    assert all(e["verdict"] in ("pass", "warn", "inconclusive") and e["samples"] for e in hot + low)
    assert not [e for e in entries if e["verdict"] == "fail"]
    assert run["invalid_samples"] >= len(low) and "INVALID: " in log


@pytest.mark.slow
def test_the_same_fault_on_every_run_fails_its_criteria_naming_the_reason(tmp_path: Path) -> None:
    """Every Dhrystone run is killed (as the board's shell says it: `Killed`): its criteria fail, naming it."""
    entries, run, _ = _gate(tmp_path, ["dhrystone"], "invalid-run:dhrystone:all")
    hit = _spoilt(entries, "dhrystone output not recognised")
    assert len(hit) == len(entries) and run["verdict"] == "fail"
    for e in hit:
        assert e["verdict"] == "fail" and not e["samples"] and len(e["invalid"]) >= 2
        assert f"{len(e['invalid'])} of {len(e['invalid'])} runs INVALID, set aside: {len(e['invalid'])} × " \
               "dhrystone output not recognised" in e["message"]  # fmt: skip
    raw = (tmp_path / "results" / "virtual" / BOARD).glob("2*/" + hit[0]["invalid"][0]["evidence"])
    assert next(raw).read_text() == "Killed\n"


# -- repetition across boots: the mechanism (the judge decides when) ------------------------------------------
def test_the_runner_brings_the_board_up_afresh_when_the_judge_asks_and_records_each_samples_boot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A judge that asks for a fresh boot after the first round: the board library's reboot runs once before the
    second round, and each sample says its boot (0, then 1), in step with the samples, in the state the judge sees."""
    from dataclasses import replace as copy

    from perfgate import criteria
    from perfgate.decision.judge import SuiteDecision
    from perfgate.run import plan
    from perfgate.run.runner import Runner
    from perfgate.run.session import Session
    from perfgate.workloads.base import Workload

    monkeypatch.setenv("PERFGATE_RESULTS", str(tmp_path / "results"))
    monkeypatch.setenv("PERFGATE_RELEASE", "")
    s = Session(var=lambda name, default=None: {"REPEAT": "3"}.get(name, default))
    s.check(BOARD)
    s.start(BOARD, "sim", True)
    one = s.suite_criteria("stream")[0]
    criteria.write(s.criteria_dir / "stream.csv", [one])

    class Echo(Workload):
        def measure(self, crits: list[Criterion], ctx: object) -> Measurements:
            text = ctx.run(f"echo {crits[0].value!r}", where="host", label="echo")  # type: ignore[attr-defined]
            return Measurements(values={crits[0].id: float(text)}, tools={crits[0].id: "echo"})

    class Board:
        reboots = 0
        reads_state = True

        def reboot(self) -> None:
            self.reboots += 1

    seen: list[dict[str, list[int]]] = []
    real = s.judge()

    class AcrossBoots:
        def begin(self, crits: dict) -> None:
            real.begin(crits)

        def final(self, cid: str) -> object:
            return real.final(cid)

        def decide(self, state: SuiteState) -> SuiteDecision:
            seen.append({k: list(v) for k, v in state.boots.items()})
            if len(seen) < 3:
                return SuiteDecision(undecided=sorted(state.criteria), reboot=len(seen) == 1)
            return real.decide(copy(state, more_runs=False))

    board = Board()
    monkeypatch.setattr(plan, "workload", lambda suite: Echo())
    result = Runner(s, access=lambda: board, link=str).measure("stream", AcrossBoots())  # type: ignore[arg-type]
    assert board.reboots == 1
    assert seen == [{one.id: [0]}, {one.id: [0, 1]}, {one.id: [0, 1, 1]}]
    assert result.boots[one.id] == [0, 1, 1] and len(result.samples[one.id]) == 3


@pytest.mark.slow
def test_a_judge_that_asks_for_a_fresh_boot_gets_one_and_each_sample_says_its_boot(tmp_path: Path) -> None:
    """Over the simulated board's pty and SSH: the judge asks for a fresh boot after the first round
    (tests/reboot_listener.py); the runner reboots the board through the board library, the second round's samples
    are taken in the second boot (another boot id in their state reads), and metrics.json says each sample's boot."""
    env = {**os.environ, "PERFGATE_RESULTS": str(tmp_path / "results"), "PYTHONPATH": str(ROOT / "libraries")}
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp_path / "out"), "--console", "dotted", "-v",
            f"BOARD:{BOARD}", "-v", "SIM_SPEED:20", "-v", "INCONCLUSIVE:pass", "--listener",
            str(ROOT / "tests" / "reboot_listener.py"), "--suite", "stream", str(ROOT / "suites")]  # fmt: skip
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert "stream: the board is brought up afresh before the next round" in p.stdout, p.stdout[-2000:]
    (run,) = (tmp_path / "results" / "virtual" / BOARD).glob("2*")
    entries = json.loads((run / "metrics.json").read_text())
    assert entries and all(e["verdict"] == "pass" for e in entries)
    for e in entries:
        assert e["boots"][:2] == [0, 1] and len(e["boots"]) == len(e["samples"])
        first, second = e["board_state"][0], e["board_state"][1]
        assert first["after"]["boot"] != second["after"]["boot"]
    assert (run / "serial.log").read_text(errors="replace").count("Starting kernel") == 2


def test_the_simulated_boards_state_files_show_a_throttled_run_until_the_next_read() -> None:
    """The simulated board's shell answers the gate's state read (its grep, its globs, its /sys files); with
    `throttle:stream` the first stream run throttles the board, the read after it shows it (and the cooling device's
    state changes), the board recovers after that read, and the second run is not throttled."""
    import asyncio
    import random

    from perfgate import criteria
    from perfgate.run import plan
    from perfgate.sim import answers, data
    from perfgate.sim.shared import Board as SimBoard
    from perfgate.sim.shell import Session, Sink, run_text

    d = data.load(BOARD, faults.parse("throttle:stream"))
    crits = criteria.load(BOARD, "stream")
    command = plan.workload("stream").plan(crits, d.profile, d.lab)[0].command

    async def nowhere(text: str, err: bool) -> None:
        return None

    async def reads() -> list[validity.State]:
        board = SimBoard(d, answers.Answers(d, random.Random(0)), speed=1000.0)
        shell = Session(board, Sink(nowhere, "ssh"))
        out = []
        for line in ["read", command, "read", "read", command, "read"]:
            text, _ = await run_text(shell, validity.read_command("eth0") if line == "read" else line)
            if line == "read":
                out.append(validity.parse(text))
        return out

    before, after, recovered, last = asyncio.run(reads())
    assert before.cpu_khz == [1400000] * 4 and before.governors == ["performance"] * 4 and before.speed == 1000
    assert before.boot_id and before.storage == {"mmcblk0": "8GTF4R", "mmcblk1": "SD16G"}
    assert (before.cooling, after.cooling, recovered.cooling, last.cooling) == ([0], [2], [0], [0])
    rules, expect = validity.settings()["rules"], {"cpu_mhz": 1400, "link_mbps": 1000}
    assert "throttled during the run (cooling devices changed state 1 times)" in validity.problems(
        before, after, expect, rules, "stream")  # fmt: skip
    assert validity.problems(recovered, last, expect, rules, "stream") == []
