"""The run's SQUAD option: `-v SQUAD:<project URL>`, `-v SQUAD:lab`, `-v SQUAD:off`, or a lab file's `squad:`
section, publishes the run to SQUAD once it has ended and run.json is final (perfgate.squad does the work).

`check(lab)` when the lab is loaded: a bad SQUAD value stops the run before anything is measured. `after_run(run_dir,
lab)` from the gate library's close(): publishes a finished run, or says on the console why it did not (an
interrupted run is never published; an unreachable server, a refused token), and records the outcome in run.json
(`squad`). Publishing never changes the run's verdict, and its failure never loses the run's files."""

from __future__ import annotations

from pathlib import Path

from robot.api import logger
from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError

from perfgate.errors import PerfgateError
from perfgate.report.metrics import update_meta
from perfgate.squad import publish, target

VARIABLE = "SQUAD"


def _option() -> object:
    try:
        return BuiltIn().get_variable_value("${" + VARIABLE + "}", None)
    except RobotNotRunningError:
        return None


def check(lab: dict) -> target.Target | None:
    """The run's SQUAD target, checked (a PerfgateError names the variable or the lab's key)."""
    return target.for_run(_option(), lab)


def after_run(run_dir: Path | None, lab: dict) -> None:
    if run_dir is None:
        return
    try:
        where = target.for_run(_option(), lab)
    except PerfgateError as e:
        logger.console(f"perfgate: SQUAD: not published: {e}")
        return
    if where is None:
        return
    try:
        done = publish.publish(Path(run_dir), where)
    except Exception as e:  # the run has ended: nothing here may fail it, and the console must say what happened
        message = str(e) if isinstance(e, PerfgateError) else f"{type(e).__name__}: {e}"
        logger.console(f"perfgate: SQUAD: not published: {message}")
        _record(run_dir, {"published": False, "project": where.project_url, "error": message})
        return
    logger.console(f"perfgate: {done.summary()}")
    _record(
        run_dir,
        {
            "published": True,
            "project": where.project_url,
            "build": done.submission.build,
            "environment": done.submission.environment,
            "testrun": done.testrun,
            "url": done.api_url,
        },
    )


def _record(run_dir: Path, outcome: dict) -> None:
    try:
        update_meta(Path(run_dir), {"squad": outcome})
    except (OSError, PerfgateError) as e:  # the run's own files stay as they were
        logger.console(f"perfgate: SQUAD: could not note the outcome in run.json: {e}")
