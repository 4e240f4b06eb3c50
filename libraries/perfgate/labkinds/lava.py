"""`kind: lava`: jobs on a LAVA server (docs/lava.md). The lab's `lava:` mapping is perfgate.lava.settings'.

LAVA owns the board, so bring-up is LAVA's boot action: `Bring Up Board` checks the server, the token and the
device type, plans every selected suite's commands (their workloads' plan()) and submits the first job with all of
them; each suite's `run_on_board(command)` is then served from the jobs' logs (perfgate.lava.session). The job
URLs go into the Robot log (a link per job), the top suite's metadata, and run.json's `lava` key (which
comparison.html shows); the raw job definitions and logs are kept in ${RUN_DIR}/lava/.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from robot.api import logger
from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError

from perfgate.errors import DataError, PerfgateError
from perfgate.labkinds.base import Access, LabFile, LabKind, Opening, register
from perfgate.lava import OWNS_BOARD
from perfgate.lava import plan as lava_plan
from perfgate.lava import settings as lava_settings
from perfgate.lava.client import GOOD_HEALTH, Client, host_address_towards
from perfgate.lava.session import JobRecord, Session
from perfgate.robot.robotvars import var as _var


def selected_suites(run_dir: Path, criteria_dir: Path) -> list[str]:
    """The gate suites this robot run selected: run.json's `suites` (the gate writes it when it opens the run),
    else every suite the run has criteria for."""
    try:
        suites = json.loads((run_dir / "run.json").read_text(encoding="utf-8")).get("suites")
    except (OSError, ValueError, AttributeError):
        suites = None
    if isinstance(suites, list) and suites:
        return [str(s) for s in suites]
    return sorted(p.stem for p in criteria_dir.glob("*.csv"))


@register
class Lava(LabKind):
    name = "lava"
    keys = ("lava",)
    takes = "submits jobs to a LAVA server"
    hardware = True
    exclusive = False  # LAVA's scheduler hands the board to one job at a time
    own_console = False
    order = 5

    def validate(self, lab: LabFile) -> None:
        lava_settings.validate(lab)  # type: ignore[arg-type]

    def profile(self, lab: LabFile) -> dict[str, Any]:
        """No suite reaches U-Boot or waits on the console (perfgate.board.traits no_uboot_reason, no_console_reason:
        boot time, low power)."""
        return {"uboot": {"unreachable": OWNS_BOARD}, "console": {"unreachable": OWNS_BOARD}}

    def banner(self, lab: LabFile) -> str | None:
        lv = lab.data["lava"]
        what = "virtual board (the lab says so), not hardware" if lab.virtual else "hardware"
        return f"LAB={lab.name}: LAVA lab {lv['server']}, device type {lv['device_type']}: {what}"

    def check(self, lab: LabFile, command_problem: Callable[[object], str | None],
              resolves: Callable[[str, tuple[str, ...]], None]) -> list[PerfgateError]:  # fmt: skip
        """The LAVA token is there (token_env set, or lavacli's identity file has the identity) and the server
        resolves; nothing is submitted or connected."""
        problems: list[PerfgateError] = []
        lava = lava_settings.settings(lab)  # type: ignore[arg-type]
        try:
            lava.token()
        except DataError as e:
            key = "token_env" if lava.token_env else "identity"
            message = e.message.split(": ", 1)[1] if e.message.startswith("lava.") else e.message
            problems.append(lab.error(message, "lava", key))
        host = urlsplit(lava.server).hostname
        if host:
            resolves(host, ("lava", "server"))
        return problems

    def start(self, opening: Opening) -> LavaAccess:
        """No console, no power: LAVA's jobs boot the board (`bring_up` submits the first)."""
        return LavaAccess(opening.lab, opening.board, opening.profile, opening.say, opening.recorder)


class LavaAccess(Access):
    reads_state = False  # the commands are planned ahead into jobs: no state read around each

    def __init__(self, lab: object, board: str, profile: dict, say: Callable[[str], None],
                 recorder: Callable[[], Any] = lambda: None) -> None:  # fmt: skip
        self.lab = lab
        self.recorder = recorder  # the run's RunRecorder, None in a board-only robot run
        self.name = board
        self.board = board
        self.profile = profile
        self.say = say
        self.settings = lava_settings.settings(lab)  # type: ignore[arg-type]
        self.session: Session | None = None
        self.error = ""

    # ------------------------------------------------------------------------------------------------ bring-up
    def bring_up(self) -> None:
        """Check the server, token and device type; plan; submit and follow the first job. A LavaError (file and
        key) fails the bring-up, and so every suite, with the reason."""
        run_dir = Path(str(_var("RUN_DIR") or _var("OUTPUT DIR") or "."))
        try:
            client = Client(self.settings)
            version = client.check()
        except PerfgateError as e:
            self.error = str(e)
            logger.error(f"perfgate: {e}")
            raise AssertionError(f"bring-up failed: {e}") from None
        self.say(f"LAVA {version} at {self.settings.web}: device type {self.settings.device_type}; LAVA boots the "
                 f"board in each job; at most {self.settings.max_jobs} jobs (lava.max_jobs)")  # fmt: skip
        self.session = Session(self.settings, client, board=self.board, say=self.say, log_dir=run_dir / "lava",
                               metadata={"perfgate.board": self.board, "perfgate.run": run_dir.name})  # fmt: skip
        self.session.on_job = self._record
        lab = dict(self.lab.data)  # type: ignore[attr-defined]
        lab["name"] = self.lab.name  # type: ignore[attr-defined]
        lab["file"] = str(self.lab.path)  # type: ignore[attr-defined]
        criteria_dir = Path(str(_var("CRITERIA_DIR") or run_dir / "criteria"))
        suites = selected_suites(run_dir, criteria_dir)
        planned, notes = lava_plan.planned(suites, criteria_dir, self.profile, lab)
        for note in notes:
            logger.info(f"LAVA plan: {note}")
        try:
            self.session.start(planned)
        except PerfgateError as e:
            self.error = str(e)
            logger.error(f"perfgate: {e}")
            raise AssertionError(f"bring-up failed: {e}") from None

    # ------------------------------------------------------------------------------------------------ commands
    def run(self, command: str, timeout: float, where: str) -> str:
        if where in ("uboot", "boot"):
            raise self.unsupported("U-Boot" if where == "uboot" else "boot time")
        if self.session is None:
            raise AssertionError(f"bring-up failed: {self.error}" if self.error else "no LAVA job: bring-up first")
        try:
            text = self.session.run(command, timeout)
        except PerfgateError as e:  # the server, the token, the queue: named after the lab's key
            raise AssertionError(str(e)) from None
        logger.info(f"{where}: `{command}` served from LAVA job {self._job_of(command)}")
        return text

    def state(self) -> str:
        """`shell` once the first job is submitted: LAVA's jobs run the commands in the board's shell."""
        return "shell" if self.session is not None else "unknown"

    def prefetch(self, commands: list[tuple[str, float]]) -> None:
        if self.session is not None:
            self.session.prefetch(commands)

    def unsupported(self, what: str) -> AssertionError:
        return AssertionError(f"{what}: {OWNS_BOARD}")

    def tester_address(self) -> str:
        address = str((self.lab.data.get("tester") or {}).get("address") or "host")  # type: ignore[attr-defined]
        return host_address_towards(self.settings.server) if address == "host" else address

    def board_address(self) -> str:
        """The board's address as the tester sees it: the lab's `ssh.address` when it names one (a LAVA lab gives
        the gate no console to learn it from)."""
        ssh = self.lab.data.get("ssh")  # type: ignore[attr-defined]
        address = str(ssh.get("address") or "") if isinstance(ssh, dict) else ""
        if address and address != "discover":
            return address
        raise AssertionError("the board's address: LAVA gives the gate none; name it in the lab's ssh.address")

    def _job_of(self, command: str) -> str:
        assert self.session is not None
        for j in reversed(self.session.jobs):
            if command in j.commands:
                return f"{j.id} ({j.url})"
        return "?"

    # ------------------------------------------------------------------------------------------------ records
    def _record(self, job: JobRecord) -> None:
        assert self.session is not None
        summary = self.session.summary()
        links = ", ".join(f"[{j['url']}|job {j['id']}]" for j in summary["jobs"])
        bi = BuiltIn()
        try:
            bi.set_suite_metadata("LAVA Jobs", f"{links} ({summary['jobs_used']} of at most {summary['max_jobs']})",
                                  top=True)  # fmt: skip
        except RobotNotRunningError:
            return
        if job.finished is None:
            link = f'<a href="{html.escape(job.url)}">{job.id}</a>'
            logger.info(f"LAVA job {link} submitted ({html.escape(job.purpose)})", html=True)
        else:
            logger.info(f'LAVA job <a href="{html.escape(job.url)}">{job.id}</a>: {job.health}'
                        f"{html.escape(': ' + job.failure) if job.failure else ''}", html=True)  # fmt: skip
        self._meta(summary)

    def _meta(self, summary: dict) -> None:
        """run.json's `lava` key, kept in the gate's recorder too (it rewrites run.json when the run ends)."""
        recorder = self.recorder()
        if recorder is None:
            return
        recorder.meta["lava"] = summary
        from perfgate.report.metrics import update_meta

        update_meta(recorder.run_dir, {"lava": summary})

    def close(self) -> None:
        """The criteria judged from this run's jobs go into LAVA as test cases with their values (lava.report),
        then the run's LAVA summary."""
        if self.session is None:
            return
        recorder = self.recorder()
        measured = any(j.commands and j.health == GOOD_HEALTH for j in self.session.jobs)  # a board that booted
        if self.settings.report and recorder is not None and measured:
            self.session.report(recorder.entries)
        summary = self.session.summary()
        self.say(f"LAVA: this run used {summary['jobs_used']} job(s) (at most {summary['max_jobs']}): "
                 + ", ".join(j["url"] for j in summary["jobs"]))  # fmt: skip
        self._meta(summary)
