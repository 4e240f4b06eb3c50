"""Which workload tool answers a command, around which published values, and what it prints.

Every suite module perfgate.workloads.<suite> that exists is asked: first through an index of the commands its
`plan()` gives for this board (fast, and it knows which criterion each metric measures), then through its
answer in perfgate.sim.workloads (for workloads that build commands the index cannot foresee). The output comes
from perfgate.sim.tools.<tool>.render with the values drawn around the published ones (perfgate.sim.values).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import random
import re
import shlex
import sys
from dataclasses import dataclass, field

from perfgate import tools as parser_tools
from perfgate.errors import ParseError
from perfgate.model import Criterion
from perfgate.sim import tools, values
from perfgate.sim import workloads as sim_workloads
from perfgate.sim.data import BoardData
from perfgate.sim.spread import RowNoise, Spread
from perfgate.sim.spread import load as load_spread

LMBENCH = re.compile(r"^(bw|lat)_\w+$")
WRAPPERS = {"time", "/usr/bin/time", "taskset", "chrt", "nice", "nohup", "timeout", "env", "sudo", "stdbuf"}
# Started in the background by workloads, or servers: present on the board, silent (a plan that runs one to read
# its output, a custom criterion's stress-ng, is answered from the plan's index first).
SUPPORT = {"stress-ng", "netserver"}
# Binaries of each tool, for `missing-tool:<tool>` and `command -v` when no plan names them: the tools' cards
# (perfgate.tools.card), but for the support programs.
KNOWN_BINARIES: dict[str, str] = {b: t for b, t in parser_tools.binaries().items() if b not in SUPPORT}

# Lines a tool writes on stderr (the rest goes to stdout).
_STDERR = {
    "lmbench": lambda line: True,
    "openssl": lambda line: line.startswith(("Doing ", "+")),
    "linpack": lambda line: "Kflops" not in line,
}


@dataclass
class Answer:
    tool: str
    command: str  # the command as the plan (or the board) knows it, given to the renderer
    values: dict[str, float]  # metric -> published value (degraded by faults)
    directions: dict[str, str] = field(default_factory=dict)
    spreads: dict[str, RowNoise] = field(default_factory=dict)  # metric -> how it strays (perfgate.sim.spread)


def _one_quantity(tool: str, vals: dict[str, float], degraded: set[str]) -> None:
    try:
        same = getattr(tools.module(tool), "one_quantity", None)
    except (ImportError, ParseError):  # a tool without a renderer: the answer fails later, with its own message
        return
    if same is not None:
        same(vals, degraded)


class Answers:
    def __init__(self, data: BoardData, rng: random.Random, spread: Spread | None = None,
                 build: bool = True) -> None:  # fmt: skip
        self.data = data
        self.rng = rng
        self.spread = (spread or load_spread()).excluding(data.published)
        self.sampler = values.Sampler(rng)  # the board's boots: the sim board calls boot() at each power-on
        self.problems: list[str] = []  # workload modules that could not be used (said once, at start)
        self.by_suite: dict[str, list[Criterion]] = {}
        for c in data.criteria:
            self.by_suite.setdefault(c.suite, []).append(c)
        self.workloads: dict[str, object] = {}
        self._index: dict[tuple[str, ...], Answer] = {}
        self._misses: set[tuple[str, ...]] = set()
        self._degraded: dict[tuple[str, ...], set[str]] = {}  # command -> keys whose criteria FAULTS degraded
        self.binaries: dict[str, str] = dict(KNOWN_BINARIES)
        # the rate search under way: its command without the rate, its first rate, values, boot and draw
        self._search: tuple[str, float, dict[str, float], int, dict[str, float]] | None = None
        if build:
            self.build()

    def build(self) -> None:
        """Import the workloads and index the commands they plan (the sim does it while the board boots)."""
        self._load_workloads()

    # -- building the index --------------------------------------------------------------------------------
    def _load_workloads(self) -> None:
        import perfgate.workloads as pkg

        for info in pkgutil.iter_modules(pkg.__path__):
            if info.name == "base" or info.name.startswith("_"):
                continue
            try:
                module = importlib.import_module(f"perfgate.workloads.{info.name}")
            except Exception as e:  # another engineer's module may be mid-way: say so, go on
                self.problems.append(f"workload {info.name}: cannot import ({type(e).__name__}: {e})")
                continue
            wl = getattr(module, "WORKLOAD", None)
            if wl is None:
                continue
            suite = getattr(wl, "suite", "") or info.name
            self.workloads[suite] = wl
            crits = self.by_suite.get(suite, [])
            if not crits:
                continue
            try:
                runs = wl.plan(crits, self.data.profile, self.data.lab)
            except Exception as e:
                self.problems.append(f"workload {suite}: plan() failed ({type(e).__name__}: {e})")
                continue
            by_id = {c.id: c for c in crits}
            for run in runs:
                if getattr(run, "where", "shell") not in ("shell", "console") or not run.keys:
                    continue  # U-Boot commands are answered by the sim's U-Boot; setup commands by the shell
                vals, dirs, sds, degraded = {}, {}, {}, set()
                for key, ids in run.keys.items():
                    cs = [by_id[i] for i in ids if i in by_id]
                    if cs:
                        vals[key], dirs[key], sds[key] = cs[0].value, cs[0].direction, self.spread.row(cs[0])
                        if any(self.data.faults.degradation(c.id) for c in cs):
                            degraded.add(key)
                if degraded:  # keys of one quantity the board prints once follow a degraded one (sim.tools.lmbench)
                    _one_quantity(run.tool, vals, degraded)
                tokens = _tokens(run.command)
                if tokens and tokens not in self._index:
                    self._index[tokens] = Answer(run.tool, run.command, vals, dirs, sds)
                    self._degraded[tokens] = degraded
                elif tokens:  # another suite planned the same command (openssl speed for OpenSSL and crypto_accel)
                    self._merge(tokens, vals, dirs, sds, degraded)
                for binary in binaries_of(run.command):
                    if binary not in SUPPORT:
                        self.binaries.setdefault(binary, run.tool)

    def _merge(self, tokens: tuple[str, ...], vals: dict, dirs: dict, sds: dict, degraded: set[str]) -> None:
        """One command that two suites plan prints one output: its answer carries both suites' keys. Keys name a
        quantity and its unit, `<quantity> (<unit>)`; where both suites read the same quantity (in KBytes/s and in
        MB/s), the one board has one value for it: between the two tables' figures (their geometric mean, where the
        units convert: am62x publishes openssl aes-256-cbc/64 at 1628.82 KB/s and the accelerator table 1.52 MB/s,
        7 % apart; a healthy board at the one sat 7 % off the other, near its 10 % threshold), else the first suite's;
        a degraded one (-v FAULTS) shows, whichever table publishes it."""
        answer, had = self._index[tokens], self._degraded[tokens]
        quantity = {_quantity(k): k for k in answer.values}
        for key, value in vals.items():
            same = quantity.get(_quantity(key))
            if same is not None and same not in had and key not in degraded:
                factor = _convert(key, same)
                if factor is not None and value > 0 and answer.values[same] > 0:
                    answer.values[same] = math.sqrt(answer.values[same] * value * factor)
                continue
            if same is not None and (same in had or key not in degraded):
                continue
            if same is not None:
                for table in (answer.values, answer.directions, answer.spreads):
                    table.pop(same, None)
            answer.values[key], answer.directions[key], answer.spreads[key] = value, dirs[key], sds[key]
            if key in degraded:
                had.add(key)

    # -- answering -----------------------------------------------------------------------------------------
    def lookup(self, command: str) -> Answer | None:
        tokens = _tokens(command)
        if not tokens:
            return None
        hit = self._index.get(tokens)
        if hit:
            return Answer(hit.tool, command, hit.values, hit.directions, hit.spreads)
        if tokens in self._misses or not any(self.tool_of_binary(b) for b in binaries_of(command)):
            return None  # builtins and unknown programs: no workload prints their output
        found = self._ask_workloads(command)
        if found is None:
            self._misses.add(tokens)
        return found

    def _ask_workloads(self, command: str) -> Answer | None:
        for suite, wl in self.workloads.items():
            crits = self.by_suite.get(suite, [])
            if not crits:
                continue
            try:
                exp = sim_workloads.expected(wl, command, crits, self.data.profile, self.data.lab)
            except Exception as e:
                problem = f"workload {suite}: expected() failed for `{command}` ({type(e).__name__}: {e})"
                if problem not in self.problems:
                    self.problems.append(problem)
                    print(f"perfgate sim: {problem}", file=sys.stderr)
                continue
            if exp is not None:
                kept = {k: v for k, v in exp.values.items()
                        if k not in exp.limits or self.data.faults.degradation(exp.limits[k]) > 0}  # fmt: skip
                by_id = {c.id: c for c in crits}
                same = {k: by_id.get(exp.criteria[k]) if k in exp.criteria else c
                        for k, c in _criteria(kept, crits).items()}  # fmt: skip
                exp = sim_workloads.Expected(exp.tool, kept)
                dirs = {k: c.direction if c else values.guess_direction(k) for k, c in same.items()}
                return Answer(
                    exp.tool, command, dict(exp.values), dirs, {k: self.spread.row(c, k) for k, c in same.items()}
                )
        return None

    def tool_of_binary(self, word: str) -> str | None:
        base = word.rsplit("/", 1)[-1]
        if base in self.binaries:
            return self.binaries[base]
        return "lmbench" if LMBENCH.match(base) else None

    def render(self, answer: Answer) -> str:
        """What the tool prints, with every value drawn around the published one. RenderError when the tool
        has no renderer (yet). The trials of one rate search (RFC 2544: a UDP rate, then lower ones) are one
        measurement: they share one draw of what the board carries, as a board's capacity during one measurement is
        one value; drawn afresh per trial, the search's answer averaged its trials' draws and strayed a fifth as far
        as the row's runs do."""
        held = self._trial_draw(answer)
        drawn = (
            held
            if held is not None
            else {
                k: self.sampler.draw(
                    v,
                    answer.directions.get(k) or values.guess_direction(k),
                    answer.spreads[k] if k in answer.spreads else self.spread.row(None, k),
                    (answer.tool, k),
                )
                for k, v in answer.values.items()
            }
        )
        self._hold(answer, drawn)
        try:
            return tools.render(answer.tool, answer.command, drawn, self.rng)
        except Exception as e:
            raise RenderError(f"perfgate sim: the {answer.tool} renderer failed for `{answer.command}`: "
                              f"{type(e).__name__}: {e}") from e  # fmt: skip

    def _trial_draw(self, answer: Answer) -> dict[str, float] | None:
        """The draw of the search this trial continues: the same command but for its rate, offered below the
        search's first trial (a search starts at the line rate and only goes lower; the next run's search starts
        at the line rate again), of the same values, in the same boot."""
        trial = _trial(answer)
        search = self._search
        if trial is None or search is None:
            return None
        command, first, published, boot, drawn = search
        same = command == trial[0] and published == answer.values and boot == self.sampler.boots
        return dict(drawn) if same and trial[1] < first else None

    def _hold(self, answer: Answer, drawn: dict[str, float]) -> None:
        trial = _trial(answer)
        if trial is None:
            self._search = None
        elif self._trial_draw(answer) is None:  # a search's first trial
            self._search = (trial[0], trial[1], dict(answer.values), self.sampler.boots, dict(drawn))

    def say_problems(self) -> None:
        for p in dict.fromkeys(self.problems):
            print(f"perfgate sim: {p}", file=sys.stderr)


def _trial(answer: Answer) -> tuple[str, float] | None:
    """(the command without its rate, the rate offered) when `answer` is one trial of a rate search."""
    try:
        trial = getattr(tools.module(answer.tool), "trial", None)
    except (ImportError, ParseError):
        return None
    return trial(answer.command) if trial is not None else None


class RenderError(Exception):
    pass


def split_streams(tool: str, text: str) -> list[tuple[str, bool]]:
    """The rendered text as (chunk, is_stderr) in order, as the real tool writes it."""
    rule = _STDERR.get(tool)
    if rule is None:
        return [(text, False)]
    out: list[tuple[str, bool]] = []
    for line in text.splitlines(keepends=True):
        err = rule(line.rstrip("\n"))
        if out and out[-1][1] == err:
            out[-1] = (out[-1][0] + line, err)
        else:
            out.append((line, err))
    return out


def duration(tool: str, command: str) -> float:
    """Roughly how long the real tool runs, in board seconds (the sim divides by its speed)."""
    patterns = [r"(?:^|\s)-t\s*(\d+)", r"(?:^|\s)-l\s+(\d+)", r"--runtime[= ](\d+)", r"-seconds\s+(\d+)",
                r"(?:^|\s)-D\s*(\d+)([smhd]?)", r"--duration[= ](\d+)"]  # fmt: skip
    for p in patterns:
        m = re.search(p, command)
        if m:
            n = float(m.group(1))
            unit = m.group(2) if m.lastindex and m.lastindex > 1 else ""
            n *= {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit or ""]
            if "-seconds" in p and tool == "openssl":
                n *= 6  # one run per block size
            return n
    return 1.0


def _tokens(command: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(command))
    except ValueError:
        return tuple(command.split())


def binaries_of(command: str) -> list[str]:
    """The programs a command line runs (basename), skipping wrappers, env assignments and `cd`."""
    out = []
    for part in re.split(r"\s*(?:;|&&|\|\||\||(?<![>&])&(?!>))\s*", command):
        words = list(_tokens(part))
        while words and (re.match(r"^\w+=", words[0]) or words[0] in WRAPPERS or words[0].startswith("-")
                         or re.fullmatch(r"[\d.,smhd]+", words[0])):  # fmt: skip
            words.pop(0)
        if words and words[0] not in SHELL_WORDS and re.fullmatch(r"[\w./+-]+", words[0]):
            out.append(words[0].rsplit("/", 1)[-1])
    return out


SHELL_WORDS = {"cd", "for", "do", "done", "while", "until", "if", "then", "else", "elif", "fi", "case", "esac", "in",
               "echo", "true", "false", "test", "[", "export", "exit", "return"}  # fmt: skip


# what one unit of a key's `(<unit>)` is, in bytes per second (perfgate.tools.openssl prints KBytes/s and MB/s)
RATES = {"KBytes/s": 1e3, "MB/s": 1e6}


def _convert(key: str, into: str) -> float | None:
    """The factor that turns a value of `key` into `into`'s unit (None: the units are not both known rates)."""
    unit, other = (k.rsplit(" (", 1)[1].rstrip(")") if k.endswith(")") else "" for k in (key, into))
    if unit in RATES and other in RATES:
        return RATES[unit] / RATES[other]
    return None


def _quantity(key: str) -> str:
    """`aes-128-cbc/16 (KBytes/s)` -> `aes-128-cbc/16`: what a key measures, without its unit."""
    return key.rsplit(" (", 1)[0] if key.endswith(")") else key


def _criteria(vals: dict[str, float], crits: list[Criterion]) -> dict[str, Criterion | None]:
    """For an Expected without criterion ids: the criterion with the same value, for its direction and spread."""
    return {k: next((c for c in crits if c.value == v), None) for k, v in vals.items()}
