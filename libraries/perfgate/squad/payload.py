"""What a run directory publishes to SQUAD: one test run of build <release> in environment <board>.

- **tests** (`tests.json`, SQUAD's `{"<suite>/<test>": {"result": ..., "log": ...}}`): each criterion as
  `<suite>/<id without its board and suite>` (the id is a slug: the guide's row names hold `/`, which SQUAD reads as
  a suite separator). pass and warn are `pass`, fail and not-measured `fail`, inconclusive and skip SQUAD's `skip`
  (any result but pass/fail), each with the gate's message as the log, the reason first. One more test,
  `gate/verdict`, is the run's own verdict: a run that judged nothing, or whose setup failed, must not read as a pass
  in SQUAD because none of its criteria failed.
- **metrics** (`metrics.json`, `{"<suite>/<test>": {"value": v, "unit": u}}`): each measured criterion's value, the
  one the gate judged (the median or best of its samples).
- **metadata**: run.json without what only means something on the gate's machine (pids, local paths), plus
  `job_id` (`<board>-<run>`: SQUAD refuses a second test run with the same job_id in a build, so a run is published
  once) and `datetime` (the run's start).
- **attachments**: comparison.html and the run's metrics.json.

A run that did not finish (interrupted, killed, still running, or with no verdict in run.json) is refused, never
published: SQUAD's submit API cannot mark a test run incomplete, and a partial test run reads as a smaller set of
tests that passed, while the criteria that never ran simply do not appear.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfgate import __version__
from perfgate.decision.verdict import RunVerdict, Verdict
from perfgate.errors import PerfgateError
from perfgate.report.metrics import METRICS_JSON
from perfgate.report.rundir import Run
from perfgate.squad.target import SLUG

COMPARISON = "comparison.html"
VERDICT_TEST = "gate/verdict"
RESULT = {  # our verdict -> SQUAD's result
    Verdict.PASS: "pass",
    Verdict.WARN: "pass",
    Verdict.FAIL: "fail",
    Verdict.NOT_MEASURED: "fail",
    Verdict.INCONCLUSIVE: "skip",
    Verdict.SKIP: "skip",
}
LOCAL_ONLY = (
    "pid",
    "pid_started",
    "output",
    "log",
    "report",
    "link_base",
    "tolerances",
    "squad",
)  # run.json keys kept home
UNIT_LENGTH = 30  # SQUAD's Metric.unit


@dataclass
class Submission:
    build: str
    environment: str
    tests: dict[str, dict[str, str]]
    metrics: dict[str, dict[str, object]]
    metadata: dict[str, object]
    attachments: list[Path] = field(default_factory=list)


def refusal(run: Run) -> str | None:
    """Why this run must not be published, or None."""
    meta = run.meta
    if not meta:
        return "it has no run.json, so nothing says it finished"
    state = run.state
    if state != "finished":
        never = run.never_ran()
        how = f" by {meta['signal']}" if meta.get("signal") else ""
        left = f"; {len(never)} criteria never ran" if never else ""
        return f"it did not finish (state {state}{how}{left})"
    verdict = meta.get("verdict")
    if verdict in (None, ""):
        return "its run.json has no verdict, so nothing says it finished"
    if verdict == RunVerdict.INCOMPLETE or run.verdict == RunVerdict.INCOMPLETE:
        return "its verdict is incomplete"
    return None


def slug(text: str) -> str:
    """A SQUAD slug from free text: every other character becomes `_` (`11.02,12.00` → `11.02_12.00`)."""
    out = re.sub(r"[^a-zA-Z0-9_.-]", "_", text.strip())
    return out if SLUG.match(out) else f"x{out}"


def test_name(entry: dict, board: str) -> str:
    suite = slug(str(entry.get("suite") or "unknown"))
    cid = str(entry["id"])
    for prefix in (f"{board}.{entry.get('suite')}.", f"{board}."):
        if cid.startswith(prefix):
            cid = cid[len(prefix) :]
            break
    return f"{suite}/{cid.replace('/', '_')}"


def _log(entry: dict, inconclusive: str) -> str:
    verdict = str(entry.get("verdict"))
    message = str(entry.get("message") or "").strip()
    if verdict == Verdict.INCONCLUSIVE:
        counts = "counted as a pass (INCONCLUSIVE:pass)" if inconclusive == "pass" else "counted by the gate as a fail"
        return f"inconclusive ({counts}): {message}"
    if verdict == Verdict.SKIP:
        return f"skipped: {message or 'no reason given'}"
    return f"{verdict}: {message}" if message else verdict


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def build(run: Run, build_name: str | None = None, environment: str | None = None) -> Submission:
    """The submission for a finished run (PerfgateError for an unfinished one, or a bad build or environment)."""
    why = refusal(run)
    if why:
        raise PerfgateError(
            f"not published: {why}. SQUAD cannot mark a test run incomplete, and a partial one "
            "would read as a smaller set of passing tests (only a finished run is published)",
            run.path,
        )
    meta = run.meta
    if build_name is None:
        release = str(meta.get("release") or "").strip()
        if not release:
            raise PerfgateError("run.json names no release to publish as SQUAD's build: give --build", run.path)
        build_name = slug(release)
    elif not SLUG.match(build_name):
        raise PerfgateError(f"--build must be a SQUAD slug (letters, digits, _ . -), not {build_name!r}")
    board = run.board
    if environment is None:
        environment = slug(f"{board}-virtual" if run.virtual else board)
    elif not SLUG.match(environment):
        raise PerfgateError(f"--environment must be a SQUAD slug (letters, digits, _ . -), not {environment!r}")
    inconclusive = str(meta.get("inconclusive") or "fail")
    tests: dict[str, dict[str, str]] = {}
    metrics: dict[str, dict[str, object]] = {}
    for entry in run.entries:
        if not entry.get("id") or entry.get("verdict") not in RESULT:
            continue
        name = test_name(entry, board)
        tests[name] = {"result": RESULT[entry["verdict"]], "log": _log(entry, inconclusive)}
        value = _number(entry.get("measured"))
        if value is not None:
            metric: dict[str, object] = {"value": value}
            if entry.get("unit"):
                metric["unit"] = str(entry["unit"])[:UNIT_LENGTH]
            metrics[name] = metric
    verdict = str(meta.get("verdict"))
    tests[VERDICT_TEST] = {
        "result": "pass" if verdict == RunVerdict.PASS else "fail",
        "log": f"{verdict}: {meta.get('verdict_reason') or ''}".strip(),
    }
    metadata = {k: v for k, v in meta.items() if k not in LOCAL_ONLY}
    metadata["job_id"] = slug(f"{board}-{run.name}")
    if meta.get("started"):
        metadata["datetime"] = str(meta["started"])
    metadata["perfgate_version"] = __version__
    attachments = [run.path / COMPARISON]
    if not attachments[0].is_file():
        raise PerfgateError(
            f"no {COMPARISON} to attach: rebuild it with `python -m perfgate report {run.path}`", run.path
        )
    if (run.path / METRICS_JSON).is_file():
        attachments.append(run.path / METRICS_JSON)
    return Submission(build_name, environment, tests, metrics, metadata, attachments)
