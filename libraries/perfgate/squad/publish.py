"""Publish one run directory to a SQUAD target: refuse an unfinished run, build the submission, submit it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from perfgate.report import rundir
from perfgate.squad import client, payload
from perfgate.squad.target import Target


@dataclass
class Published:
    testrun: int
    target: Target
    submission: payload.Submission

    @property
    def build_url(self) -> str:
        return f"{self.target.project_url}build/{self.submission.build}/"

    @property
    def api_url(self) -> str:
        return f"{self.target.url}/api/testruns/{self.testrun}/"

    def summary(self) -> str:
        s = self.submission
        return (
            f"published to SQUAD {self.target.group}/{self.target.project}: build {s.build}, environment "
            f"{s.environment}, test run {self.testrun} ({len(s.tests)} tests, {len(s.metrics)} metrics, "
            f"{len(s.attachments)} attachments): {self.build_url}"
        )


def publish(
    run_dir: Path, target: Target, build: str | None = None, environment: str | None = None, timeout: float = 60
) -> Published:
    """Publish a finished run (PerfgateError, naming the run directory, for one that did not finish)."""
    run = rundir.load(Path(run_dir))
    submission = payload.build(run, build, environment or target.environment)
    token = target.token()
    return Published(client.submit(target, submission, token, timeout), target, submission)
