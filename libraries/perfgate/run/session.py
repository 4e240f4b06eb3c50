"""The run: which board and release it judges, its run variables and faults checked before anything runs, its
directory results/<board>/<run>/ with run.json, the board its lab's kind starts (the access, which the session holds
and closes), the signal that stops it, earlier killed runs swept into history.

Robot variables reach it through `var(name, default)` (the Robot library passes its own; tests pass a dict's)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from pathlib import Path

from robot.api import logger

from perfgate import boards, criteria, custom, paths, runvars
from perfgate.decision import artefacts, budget, waivers
from perfgate.decision.judge import Judge
from perfgate.decision.tolerance import Policy
from perfgate.labkinds import base as labkinds
from perfgate.model import Criterion
from perfgate.run import plan
from perfgate.run.settings import Settings, Vars, no_vars

UBOOT_BANNER = re.compile(r"^\s*(U-Boot (?:SPL )?\d{4}\.\d\d\S*[^\r\n]*)", re.M)
LINUX_VERSION = re.compile(r"Linux version (\S+)")


@dataclass
class Session:
    """One run of the gate on one board."""

    var: Vars = no_vars
    board: str = ""
    profile: dict = field(default_factory=dict)
    lab: dict = field(default_factory=dict)
    virtual: bool = False
    settings: Settings = field(default_factory=Settings)
    selection: criteria.Selection | None = None
    policy: Policy | None = None
    waivers: dict[str, str] = field(default_factory=dict)
    run_dir: Path | None = None
    criteria_dir: Path | None = None
    opened_by: str = ""  # the suite whose setup opened the run (suites/__init__.robot, or a suite run alone)
    selected: list[str] = field(default_factory=list)  # the gate suites this robot run selected
    signal: str | None = None  # SIGINT/SIGTERM that stopped the run
    stopped: list[str] = field(default_factory=list)  # criteria whose tests Robot stopped (never ran)
    history: dict[str, list[list[float]]] = field(default_factory=dict)  # criterion id -> its recorded runs
    _all: dict[str, Criterion] | None = None  # every criterion of the run, read when first needed
    access: labkinds.Access | None = None  # the board the lab's kind started (start_lab), until close_lab
    transcript: Path | None = None  # the started board's serial.log
    recorder: object = None  # the run's RunRecorder (perfgate.report.recorder), once the gate has opened the run

    def opened(self) -> labkinds.Access | None:
        """The started board the runner's commands go to (None: no lab started one, or it was closed)."""
        return self.access

    def start_lab(self, lab: labkinds.LabFile, board: str, profile: dict, *, say: Callable[[str], None],
                  log: Callable[[str], None], ssh_library: object = None) -> labkinds.Access:  # fmt: skip
        """Start `lab` (perfgate.board.labfile.Lab) for `board` through its kind (perfgate.labkinds): the run's
        variables its templates may hold, the transcript in RUN_DIR (the output directory before a run directory
        exists). The session holds the access until `close_lab`."""
        names = ("sim_speed", "faults", "sim_seed", "sim_spread", "sim_noise")  # what the lab's templates may hold
        context = {"board": board, "lab": lab.name, **{n: str_or_none(self.var(n.upper())) or "" for n in names}}
        out_dir = Path(str_or_none(self.var("RUN_DIR")) or str_or_none(self.var("OUTPUT DIR")) or ".")
        opening = labkinds.Opening(lab, board, profile, context, out_dir, say=say, log=log, ssh_library=ssh_library,
                                   recorder=lambda: self.recorder)  # fmt: skip
        self.transcript = opening.transcript
        self.access = labkinds.kind(lab.kind).start(opening)
        return self.access

    def close_lab(self) -> None:
        """Give the started board back (SSH, the console, the board process, a labgrid place, a LAVA session)."""
        access, self.access = self.access, None
        if access is not None:
            access.close()

    @property
    def under_pabot(self) -> bool:
        return self.var("PABOTQUEUEINDEX") is not None

    @property
    def interrupted(self) -> bool:
        return bool(self.signal or self.stopped)

    def check(self, board: str) -> None:
        """Resolve the board and the release it is judged against, check every run variable and FAULTS' degrade
        globs, load tolerances and waivers. PerfgateError on bad input (file, key and line named)."""
        self.board = boards.resolve(board)
        self.selection = criteria.select(self.board, str_or_none(self.var("RELEASE")))
        self.profile = boards.profile(self.board)
        self.settings = Settings.read(self.var)
        self.check_degrade_faults()
        self.policy = Policy.load(
            tolerance=str_or_none(self.var("TOLERANCE")), tolerances=str_or_none(self.var("TOLERANCES"))
        )
        self.policy.add_ids(self.board, custom.tolerances(self.board))  # the board's own criteria's tolerances
        self.waivers = waivers.load()

    def start(self, board_requested: str, lab: str, virtual: bool) -> dict:
        """Open results/<board>/<run>/ with the criteria files DataDriver reads; returns run.json's content."""
        assert self.selection is not None and self.policy is not None
        # the simulated board (a child process) draws its numbers around the same release's published values
        os.environ["PERFGATE_RELEASE"] = self.selection.label
        self.virtual = bool(virtual)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        self.run_dir = unique(paths.board_results(self.board, self.virtual) / stamp)
        self.criteria_dir = self.run_dir / "criteria"
        self.opened_by = str(self.var("SUITE NAME", ""))
        self.criteria_dir.mkdir(parents=True)
        plan.write_criteria(self.criteria_dir, self.selection)
        s = self.settings
        return {
            "board": self.board,
            "board_requested": board_requested,
            "lab": lab,
            "virtual": self.virtual,
            "guide": ", ".join(self.guides()),
            "release": self.selection.label,
            "release_choice": self.selection.describe(),
            "repeat": s.repeat,
            "aggregate": s.aggregate,
            "inconclusive": s.inconclusive,
            "tolerances": self.policy.source,
            "output": self.var("OUTPUT FILE"),
            "log": self.var("LOG FILE"),
            "report": self.var("REPORT FILE"),
            "faults": str_or_none(self.var("FAULTS")),
            "suites": self.selected,
            "sim_noise": self.sim_noise(lab, board_requested),
        }

    def sim_noise(self, lab: str, board: str) -> str | None:
        """The simulated board's noise regime and what it means (variables/sim.yaml; SIM_NOISE), None where the lab
        does not start the simulated board."""
        from perfgate.board import lab as labs
        from perfgate.decision import noiseclass
        from perfgate.errors import PerfgateError

        if not self.virtual:
            return None
        try:
            start = str(labs.load(lab, board).data.get("start_options") or "")
        except PerfgateError:
            return None
        if "{sim_noise}" not in start:
            return None
        default, known = noiseclass.regimes()
        regime = noiseclass.regime_from(str_or_none(self.var("SIM_NOISE"))) or default
        spread = str_or_none(self.var("SIM_SPREAD"))
        return noiseclass.describe_regime(known[regime], float(spread) if spread else None)

    def announce(self, lab: str, comparison: str) -> tuple[list[tuple[str, str]], list[str]]:
        """What the run says of itself when it opens: the top suite's metadata (`comparison`: the log's link to
        comparison.html) and the console's lines."""
        assert self.selection is not None
        where = "VIRTUAL BOARD (simulated or emulated, not hardware)" if self.virtual else "hardware"
        metadata = [
            ("Board", self.board), ("Lab", lab), ("Virtual", f"yes: {where}" if self.virtual else "no: hardware"),
            ("Guide", ", ".join(self.guides())), ("Release", self.selection.label),
            ("Comparison", f"[{comparison}|comparison.html] (measured vs published)"), ("Results", str(self.run_dir)),
        ]  # fmt: skip
        console = [
            f"perfgate: board {self.board} in lab {lab}: {where}; results in {self.run_dir}",
            f"perfgate: judged against {self.selection.describe()}: {', '.join(self.guides()) or 'no guide'}",
        ]
        return metadata, console

    def guides(self) -> list[str]:
        assert self.selection is not None
        return sorted({c.guide for c in self.selection.criteria})

    def load_history(self) -> None:
        """The board's recorded runs of the same kind as this one (hardware, or virtual: never mixed): each
        criterion's noise within and between boots, in place of its class's figures."""
        from perfgate.report import history

        path = history.path_for(self.board, virtual=self.virtual)
        self.history = history.measured_values(path)
        for problem in history.read(path).problems:
            logger.warn(f"perfgate: {problem}")

    def judge(self) -> Judge:
        """The run's judge: its tolerances, noise model, run budget and history; a FAIL held to the error rate of
        the whole gate over the criteria this run judges; the guide's spreads that are artefacts left out."""
        assert self.selection is not None and self.policy is not None
        judged = [c for c in self.selection.criteria if not self.selected or c.suite in self.selected]
        s = self.settings
        found = artefacts.find(self.selection.criteria)
        noise = s.noise.for_board(self.selection.criteria, found) if s.noise is not None else None
        return Judge(self.policy, noise, self.history, s.aggregate, s.budget or budget.load(s.repeat),
                     max(len(judged), 1), found, calibrate=s.calibrate)  # fmt: skip

    def suite_criteria(self, suite: str) -> list[Criterion]:
        """The criteria a suite judges in this run (its file in the run's criteria directory)."""
        assert self.criteria_dir is not None, "Open Run must come first (suites/__init__.robot)"
        f = self.criteria_dir / f"{suite}.csv"
        return criteria.read(f) if f.exists() else []

    def criterion(self, cid: str) -> Criterion | None:
        """A criterion of the run by id (from the criteria files, read once)."""
        if self._all is None:
            self._all = {}
            if self.criteria_dir is not None:
                for f in sorted(self.criteria_dir.glob("*.csv")):
                    self._all.update({c.id: c for c in criteria.read(f)})
        return self._all.get(cid)

    def check_degrade_faults(self) -> None:
        """FAULTS `degrade:<id glob>:<percent>` must degrade a criterion this run judges: one that matches none of
        the selected suites' criteria would let the run go green without testing the gate at all. (The simulated
        board checks the rest of the spec, and every glob against all of the board's criteria.)"""
        assert self.selection is not None
        spec = str_or_none(self.var("FAULTS")) or ""
        selected = [] if self.under_pabot else self.selected  # pabot splits the suites across processes
        judged = [c for c in self.selection.criteria if not selected or c.suite in selected]
        for item in (i.strip() for i in spec.split(",")):
            kind, _, rest = item.partition(":")
            glob = rest.rpartition(":")[0].strip()
            if kind.strip().lower() == "degrade" and glob and not any(fnmatchcase(c.id, glob) for c in judged):
                suites = ", ".join(selected) if selected else "all suites"
                raise runvars.VariableError(f"variable FAULTS: {item} matches none of the {len(judged)} criteria this "
                                            f"run judges ({self.board}, {suites})")  # fmt: skip

    def check_tool_faults(self) -> None:
        """FAULTS `missing-tool:<tool>` / `ssh-drop:<tool>` must name a tool the selected suites run (their workloads'
        plans), or the fault never fires and the run goes green. Suites that build their commands while measuring
        (network) cannot say beforehand: then the simulated board's check of the tool names is all there is."""
        spec = str_or_none(self.var("FAULTS")) or ""
        items = [i.strip() for i in spec.split(",")]
        named = {i: i.partition(":")[2].strip() for i in items
                 if i.partition(":")[0].strip().lower() in ("missing-tool", "ssh-drop")}  # fmt: skip
        if not named or self.under_pabot:  # pabot splits the suites across processes: this one sees only its share
            return
        assert self.selection is not None, "Open Run must come first"
        suites = self.selected or sorted({c.suite for c in self.selection.criteria})
        tools = plan.tools(suites, self.selection.criteria, self.profile, self.lab)
        if tools is None:
            return
        for item, tool in named.items():
            if tool not in tools:
                ran = ", ".join(sorted(tools))
                raise runvars.VariableError(
                    f"variable FAULTS: {item} names a tool none of the selected suites ({', '.join(suites)}) runs "
                    f"(they run {ran})"
                )

    def collect_robot_files_after_exit(self) -> None:
        """Robot writes log.html and report.html after its listeners close, and tells only command-line listeners
        where: a detached `perfgate report --after-pid` copies them into the run directory once robot has ended."""
        if os.environ.get("PERFGATE_NO_COLLECT") or self.run_dir is None:
            return
        cmd = [sys.executable, "-m", "perfgate", "report", str(self.run_dir), "--after-pid", str(os.getpid())]
        with open(self.run_dir / "collect.log", "w", encoding="utf-8") as log:
            subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )

    def sweep_killed_runs(self) -> None:
        """Earlier runs of this board and kind whose robot was killed go into the history as INCOMPLETE now."""
        from perfgate.report import history

        assert self.run_dir is not None
        try:
            for run in history.sweep_killed(self.run_dir.parent):
                logger.console(f"perfgate: an earlier run was killed before it finished: {run} (INCOMPLETE)")
        except Exception as e:  # the new run must not suffer from an old one
            logger.warn(f"could not check earlier runs for killed ones: {e}")

    def watch_signals(self) -> None:
        """Note which signal stops the run (Robot's own handler still does the stopping: this one only chains)."""
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                previous = signal.getsignal(signum)
            except ValueError:
                continue
            if not callable(previous) or getattr(previous, "_perfgate", False):
                continue

            def handler(num, frame, previous=previous):
                self.signal = self.signal or signal.Signals(num).name
                previous(num, frame)

            handler._perfgate = True  # type: ignore[attr-defined]
            try:
                signal.signal(signum, handler)
            except ValueError:  # not the main thread
                return


def selected_suites(suite) -> list[str]:
    """The gate suites (file stems) under a running suite (robot.running.TestSuite), as Robot selected them."""
    out: list[str] = []
    if suite.source and Path(str(suite.source)).is_file() and Path(str(suite.source)).stem != "__init__":
        out.append(Path(str(suite.source)).stem)
    for child in suite.suites:
        out += selected_suites(child)
    return out


def board_versions(serial_log: Path) -> dict[str, str]:
    """The last U-Boot banner and `Linux version` line the board printed on its console."""
    text = serial_log.read_text(encoding="utf-8", errors="replace") if serial_log.is_file() else ""
    found: dict[str, str] = {}
    for key, pattern in (("uboot_version", UBOOT_BANNER), ("kernel_version", LINUX_VERSION)):
        matches = pattern.findall(text)
        if matches:
            found[key] = " ".join(matches[-1].split())
    return found


def unique(path: Path) -> Path:
    """Create and return a new run directory: `path`, else `path-2`, `path-3`... Created here, atomically, so that
    gates of one board started in the same second (pabot on a farm) never share one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    candidate, n = path, 1
    while True:
        try:
            candidate.mkdir()
            return candidate
        except FileExistsError:
            n += 1
            candidate = path.with_name(f"{path.name}-{n}")


def str_or_none(value: object) -> str | None:
    if value is None or value == "" or str(value).upper() == "NONE":
        return None
    return str(value)
