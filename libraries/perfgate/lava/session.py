"""The run's LAVA jobs, and each suite's commands served from them.

The first job runs every command the selected suites plan (perfgate.lava.plan), in one boot. A suite then asks
for its commands one at a time (the board library's run_on_board): each is served from the job's log, byte for
byte. A command asked for again (the sequential verdict runs a suite again while a number is undecided) or one
no plan foresaw (the network suites build theirs while measuring, next to the tester's server) goes into a
follow-up job: a rerun takes the whole round of its suite's commands (what the suite will ask next), so each
round is one job, not one job per command. The lab's `lava.max_jobs` bounds how many jobs a run submits.

Failures: a job that ends Incomplete or Canceled fails the commands it did not finish with LAVA's own error type
and message (JobFailed, an AssertionError: the gate reads their criteria as not measured); the commands it did
finish are served as usual. A server that cannot be reached, a refused token, an unknown device type or a job
left in the queue past `lava.timeouts.queue` is a LavaError naming the lab file and key, and every later
command fails with it at once (what was measured stays).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from perfgate.errors import PerfgateError
from perfgate.lava import job as jobdef
from perfgate.lava import log as joblog
from perfgate.lava.client import GOOD_HEALTH, Client, JobState, LavaError, failure
from perfgate.lava.settings import Settings

WAITING = ("Submitted", "Scheduling", "Scheduled")
MARGIN = 120.0  # seconds past the job's own timeout before the gate gives up on it
RESULTS = "the criteria's values (LAVA test cases with measurements)"


class JobFailed(AssertionError):
    """A LAVA job that ended Incomplete or Canceled (LAVA's error type and message), or an output it damaged."""


@dataclass
class Planned:
    suite: str
    command: str
    timeout: float = 600.0


@dataclass
class JobRecord:
    id: int
    url: str
    commands: list[str]
    purpose: str
    state: str = "Submitted"
    health: str = "Unknown"
    device: str = ""
    failure: str = ""
    submitted: float = 0.0
    started: float | None = None
    finished: float | None = None
    overhead: dict[str, float] = field(default_factory=dict)  # render, submit, fetch, parse seconds

    def summary(self) -> dict:
        return {
            "id": self.id, "url": self.url, "purpose": self.purpose, "commands": len(self.commands),
            "health": self.health, "device": self.device, "failure": self.failure,
            "queued_s": round((self.started or self.finished or self.submitted) - self.submitted, 1),
            "seconds": round((self.finished or self.submitted) - self.submitted, 1),
            "overhead_s": {k: round(v, 3) for k, v in self.overhead.items()},
        }  # fmt: skip


class Session:
    def __init__(self, settings: Settings, client: Client, *, board: str = "", say: Callable[[str], None] = print,
                 log_dir: Path | None = None, metadata: dict | None = None) -> None:  # fmt: skip
        self.s = settings
        self.client = client
        self.board = board
        self.say = say
        self.log_dir = log_dir
        self.metadata = metadata or {}
        self.plan: list[Planned] = []
        self.jobs: list[JobRecord] = []
        self.available: dict[str, list[str]] = {}  # command -> outputs not yet served
        self.served: dict[str, int] = {}
        self.failed: dict[str, str] = {}  # command -> why its last job gave no output
        self.pending: list[tuple[str, float]] = []  # prefetched for the next job
        self.broken: PerfgateError | None = None  # a server-level error: every later command fails with it
        self.on_job: Callable[[JobRecord], None] | None = None  # called as each job is submitted and finished

    # ------------------------------------------------------------------------------------------------ serving
    def start(self, plan: list[Planned]) -> None:
        """Submit the first job with every planned command (a command two suites plan runs once, both read it)."""
        self.plan = list(plan)
        distinct: dict[str, float] = {}
        for p in self.plan:
            distinct[p.command] = max(distinct.get(p.command, 0.0), p.timeout)
        if not distinct:
            self.say("LAVA: the selected suites plan no command ahead; each goes into a job when asked")
            return
        suites = ", ".join(dict.fromkeys(p.suite for p in self.plan))
        self._job(list(distinct.items()), f"the planned commands of {suites}", suites)
        for p in self.plan:  # each suite that plans a command reads the job's one output of it
            if p.command in self.available and self.served.get(p.command) is None:
                self.served[p.command] = 0
        counts: dict[str, int] = {}
        for p in self.plan:
            counts[p.command] = counts.get(p.command, 0) + 1
        for command, n in counts.items():
            if self.available.get(command):
                self.available[command] = self.available[command][:1] * n

    def prefetch(self, commands: list[tuple[str, float]]) -> None:
        """Commands the runner will ask for next (a suite's next round): they go into one job with the next ask."""
        for command, timeout in commands:
            if not self.available.get(command) and all(command != c for c, _ in self.pending):
                self.pending.append((command, timeout))

    def run(self, command: str, timeout: float = 600.0) -> str:
        """The command's output, from a job that ran it (a follow-up job when none has an unread output)."""
        if self.available.get(command):
            return self._serve(command)
        if self.broken is not None:
            raise self.broken
        if command in self.failed and self.served.get(command) is None:
            raise JobFailed(self.failed[command])
        batch = [(command, timeout)]
        if command in self.served:  # asked again: the whole round of its suite's commands, one job
            suite = next((p.suite for p in self.plan if p.command == command), None)
            batch += [(p.command, p.timeout) for p in self.plan if p.suite == suite and p.command != command]
        batch += [c for c in self.pending if c[0] not in {b[0] for b in batch}]
        self.pending.clear()
        if len(self.jobs) >= self.s.max_jobs:
            raise JobFailed(f"the run's LAVA job budget is used up ({len(self.jobs)} jobs: lava.max_jobs in "
                            f"{self.s.lab_path}); `{command}` was not run again")  # fmt: skip
        purpose = "a rerun (the sequential verdict)" if command in self.served else "a command no plan foresaw"
        self._job(batch, purpose, "")
        if self.available.get(command):
            return self._serve(command)
        raise JobFailed(self.failed.get(command) or f"the LAVA job gave no output for `{command}`")

    def _serve(self, command: str) -> str:
        self.served[command] = self.served.get(command, 0) + 1
        return self.available[command].pop(0)

    # ------------------------------------------------------------------------------------------------ one job
    def _job(self, commands: list[tuple[str, float]], purpose: str, suites: str) -> JobRecord | None:
        """Run one job; a job that overran fails its commands (JobFailed when asked), a LavaError propagates."""
        try:
            return self._submit_and_follow(commands, purpose, suites)
        except LavaError as e:
            self.broken = e
            for command, _ in commands:
                self.failed[command] = str(e)
            raise
        except JobFailed as e:
            self.say(str(e))
            for command, _ in commands:
                self.failed[command] = str(e)
            return None

    def _submit_and_follow(self, commands: list[tuple[str, float]], purpose: str, suites: str) -> JobRecord:
        t0 = time.monotonic()
        token = jobdef.nonce()
        numbered = [jobdef.Command(i + 1, c, t) for i, (c, t) in enumerate(commands)]
        definition = jobdef.render(self.s, numbered, token, board=self.board, suites=suites or purpose,
                                   metadata={**self.metadata, "perfgate.purpose": purpose})  # fmt: skip
        t1 = time.monotonic()
        ids = self.client.submit(definition)
        t2 = time.monotonic()
        rec = JobRecord(ids[0], self.s.job_url(ids[0]), [c for c, _ in commands], purpose, submitted=t2)
        rec.overhead = {"render": t1 - t0, "submit": t2 - t1}
        self.jobs.append(rec)
        self._keep(f"lava-job-{rec.id}-definition.yaml", definition)
        self.say(f"LAVA job {rec.id} submitted: {len(commands)} commands ({purpose}): {rec.url}")
        if self.on_job:
            self.on_job(rec)
        entries, state = self._follow(rec, numbered, token)
        t3 = time.monotonic()
        results = self.client.results(rec.id) if state.health != GOOD_HEALTH else []
        t4 = time.monotonic()
        outputs = joblog.outputs(entries, token)
        t5 = time.monotonic()
        rec.overhead.update({"fetch": rec.overhead.get("fetch", 0.0) + (t4 - t3), "parse": t5 - t4})
        rec.state, rec.health, rec.device = state.state, state.health, state.device
        reason = "" if state.health == GOOD_HEALTH else failure(results, state)
        rec.failure = reason
        for c in numbered:
            o = outputs.get(c.n)
            if o is not None and o.complete:
                self.available.setdefault(c.command, []).append(o.text)
                self.failed.pop(c.command, None)
            elif o is not None and o.problem:
                self.failed[c.command] = f"LAVA job {rec.id} ({rec.url}): `{c.command}`: {o.problem}"
            else:
                why = reason or "the job completed but its log shows no end of this command"
                self.failed[c.command] = f"LAVA job {rec.id} ({rec.url}) ended {state.health}: {why}"
        done = sum(1 for c in numbered if c.command in self.available)
        self.say(f"LAVA job {rec.id} {state.health}{': ' + reason if reason else ''} ({done} of {len(numbered)} "
                 f"commands gave their output, {rec.summary()['seconds']:.0f} s)")  # fmt: skip
        if self.on_job:
            self.on_job(rec)
        return rec

    def _follow(self, rec: JobRecord, numbered: list[jobdef.Command], token: str) -> tuple[list[dict], JobState]:
        """Poll the job until it finishes: progress on the console (queued and where, running and which
        command), the queue bound (lava.timeouts.queue) and the job's own bound (lava.timeouts.job)."""
        entries: list[dict] = []
        said = ""
        queue_deadline = rec.submitted + self.s.timeouts["queue"]
        fetch = 0.0
        while True:
            state = self.client.state(rec.id)
            now = time.monotonic()
            if state.state in WAITING:
                if now > queue_deadline:
                    self.client.cancel(rec.id)
                    raise LavaError(
                        f"lava.timeouts.queue: LAVA job {rec.id} ({rec.url}) waited {now - rec.submitted:.0f} s in the "
                        f"queue for a {self.s.device_type} device, past the lab's bound of "
                        f"{self.s.timeouts['queue']:.0f} s; canceled", self.s.lab_path)  # fmt: skip
                pos = self.client.queue_position(rec.id)
                line = f"LAVA job {rec.id}: {state.state.lower()}" + (f", position {pos} in the queue" if pos else "")
            else:
                if rec.started is None:
                    rec.started = now
                f0 = time.monotonic()
                finished, new = self.client.logs(rec.id, len(entries))
                fetch += time.monotonic() - f0
                entries += new
                n = joblog.running(entries, token)
                if n is not None and 0 < n <= len(numbered):
                    line = (
                        f"LAVA job {rec.id} on {state.device}: command {n}/{len(numbered)}: {numbered[n - 1].command}"
                    )
                else:
                    line = (
                        f"LAVA job {rec.id} on {state.device}: {state.state.lower()} ({joblog.stage(entries) or '...'})"
                    )
                if state.finished and finished:
                    rec.finished = time.monotonic()
                    rec.overhead["fetch"] = fetch
                    self._keep(f"lava-job-{rec.id}-log.yaml", _dump(entries))
                    return entries, state
                if rec.started is not None and now - rec.started > self.s.timeouts["job"] + MARGIN:
                    self.client.cancel(rec.id)
                    raise JobFailed(f"LAVA job {rec.id} ({rec.url}) ran past the lab's bound "
                                    f"(lava.timeouts.job: {self.s.timeouts['job']:.0f} s); canceled")  # fmt: skip
            if line != said:
                self.say(line)
                said = line
            time.sleep(self.s.poll)

    # ------------------------------------------------------------------------------------------------ results
    def report(self, entries: list[dict]) -> JobRecord | None:
        """The judged criteria (metrics.json's entries) into LAVA as test cases with their values and units: one
        last job (outside lava.max_jobs: it measures nothing). None when there is nothing to record; a failure is
        said, never raised (the run's verdict and files do not depend on it)."""
        if not entries:
            return None
        t0 = time.monotonic()
        definition = jobdef.render_results(self.s, entries, board=self.board,
                                           metadata={**self.metadata, "perfgate.purpose": RESULTS})  # fmt: skip
        try:
            ids = self.client.submit(definition)
            rec = JobRecord(ids[0], self.s.job_url(ids[0]), [], RESULTS, submitted=time.monotonic())
            rec.overhead = {"render": time.monotonic() - t0}
            self.jobs.append(rec)
            self._keep(f"lava-job-{rec.id}-definition.yaml", definition)
            self.say(f"LAVA job {rec.id} submitted: {len(entries)} criteria as LAVA test cases with their values: "
                     f"{rec.url}")  # fmt: skip
            if self.on_job:
                self.on_job(rec)
            _, state = self._follow(rec, [], "")
        except (PerfgateError, JobFailed) as e:
            self.say(f"LAVA: the criteria's values were not recorded in LAVA: {e}")
            return None
        rec.state, rec.health, rec.device = state.state, state.health, state.device
        if state.health != GOOD_HEALTH:
            rec.failure = failure(self.client.results(rec.id), state)
        self.say(f"LAVA job {rec.id} {state.health}{': ' + rec.failure if rec.failure else ''}: {len(entries)} "
                 f"criteria recorded ({rec.url.replace('/scheduler/job/', '/results/')})")  # fmt: skip
        if self.on_job:
            self.on_job(rec)
        return rec

    def _keep(self, name: str, text: str) -> None:
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            (self.log_dir / name).write_text(text, encoding="utf-8")

    # ------------------------------------------------------------------------------------------------ report
    def summary(self) -> dict:
        return {
            "server": self.s.web, "device_type": self.s.device_type,
            "jobs_used": sum(1 for j in self.jobs if j.purpose != RESULTS),
            "max_jobs": self.s.max_jobs, "jobs": [j.summary() for j in self.jobs],
        }  # fmt: skip


def _dump(entries: list[dict]) -> str:
    import yaml

    return yaml.safe_dump(entries, sort_keys=False, width=100_000, allow_unicode=True)
