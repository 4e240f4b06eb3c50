"""The LAVA job the gate submits: the lab's deploy and boot actions (data) and one test action whose inline test
definition runs the gate's commands, each through a small shell function that delimits its output in the log:

    <<PERFGATE:<nonce>:<n>:BEGIN>>
    PERFGATE:<nonce>:<n>:<base64 of the output, one line per 76 characters>
    <<PERFGATE:<nonce>:<n>:END:rc=<exit status>:bytes=<size>:sha256=<digest>>>

The output (stdout and stderr, as the gate takes it over SSH) is base64 on the console, so the log gives it back
byte for byte whatever LAVA does to console lines (it strips carriage returns and control characters), and the
END marker's size and digest prove it (perfgate.lava.log). The nonce is new per job: no earlier output, echoed
command or kernel line can pass for a marker. Each command is also a LAVA test case (`perfgate-<n>`: pass when it
exited 0), so LAVA's own results page lists them.

The criteria's values come back the other way once the gate has judged them: a last job (`render_results`) whose
test definition `perfgate-criteria` records each criterion as a LAVA test case with LAVA's own
`lava-test-case <name> --result <pass|fail|skip|unknown> --measurement <value> --units <unit>`, so LAVA's results
pages, charts and queries show the numbers (a criterion not measured: its result, no measurement). LAVA reads the
signal's fields split on white space and `=` (lava_dispatcher.actions.test.shell.handle_testcase) and keeps 100
characters of a name or a unit (lava_results_app.models.TestCase): `case_name` and `units` keep them in that.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import shlex
from dataclasses import dataclass

import yaml

from perfgate.decision.verdict import Verdict
from perfgate.lava.settings import Settings

FUNCTION = "pgrun"


@dataclass(frozen=True)
class Command:
    """One command in a job: its number in the job, the command line, its timeout (seconds)."""

    n: int
    command: str
    timeout: float = 600.0


def nonce() -> str:
    return secrets.token_hex(6)


def helper(token: str) -> str:
    """The shell function every step calls: `pgrun <n> <timeout seconds> <command>` (busybox or GNU sh). LAVA runs
    the steps under `set -e`: a command's exit status is caught (`|| rc=$?`), never the end of the test run."""
    p = f"PERFGATE:{token}:$n"
    return (
        f'{FUNCTION}() {{ n=$1; t=$2; f=/tmp/perfgate-{token}.$n; echo "<<{p}:BEGIN>>"; '
        f'rc=0; if command -v timeout >/dev/null 2>&1; then timeout "$t" sh -c "$3" >"$f" 2>&1 || rc=$?; '
        f'else sh -c "$3" >"$f" 2>&1 || rc=$?; fi; '
        f'base64 "$f" | sed "s/^/{p}:/"; '
        f'echo "<<{p}:END:rc=$rc:bytes=$(wc -c <"$f" | tr -d \' \'):sha256=$(sha256sum "$f" | cut -d\' \' -f1)>>"; '
        f'rm -f "$f"; if [ "$rc" = 0 ]; then r=pass; else r=fail; fi; '
        f'lava-test-case "perfgate-$n" --result "$r"; }}'
    )


def step(c: Command) -> str:
    return f"{FUNCTION} {c.n} {max(1, int(c.timeout))} {shlex.quote(c.command)}"


def _seconds(value: float) -> dict:
    return {"seconds": max(1, round(value))}


# our verdict -> LAVA's result; else unknown (inconclusive, not-measured)
LAVA_RESULTS = {Verdict.PASS: "pass", Verdict.WARN: "pass", Verdict.FAIL: "fail", Verdict.SKIP: "skip"}
NAME_MAX = 100  # lava_results_app.models.TestCase: name and units hold 100 characters


def case_name(criterion_id: str, board: str = "") -> str:
    """A criterion's LAVA test case name: its id without the board (the job names it), in LAVA's characters; a
    name cut to LAVA's length keeps a digest of the whole id, so two never read as one."""
    name = criterion_id[len(board) + 1 :] if board and criterion_id.startswith(board + ".") else criterion_id
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "criterion"
    if len(name) > NAME_MAX:
        name = name[: NAME_MAX - 9] + "-" + hashlib.sha256(criterion_id.encode()).hexdigest()[:8]
    return name


def units(unit: str) -> str:
    """A unit as LAVA can carry it in a test case signal (no white space, no `=`)."""
    return re.sub(r"[\s=]+", "_", unit.strip())[:NAME_MAX]


def case_step(entry: dict, board: str = "") -> str:
    """One criterion of metrics.json as a `lava-test-case` line: its result, and its value with its unit."""
    words = ["lava-test-case", case_name(str(entry["id"]), board), "--result",
             LAVA_RESULTS.get(str(entry.get("verdict")), "unknown")]  # fmt: skip
    value = entry.get("measured")
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        words += ["--measurement", repr(float(value))]
        if units(str(entry.get("unit") or "")):
            words += ["--units", units(str(entry["unit"]))]
    return " ".join(shlex.quote(w) for w in words)


def render_results(s: Settings, entries: list[dict], *, board: str = "", metadata: dict | None = None) -> str:
    """The job that records the judged criteria (metrics.json's entries) as LAVA test cases with their values."""
    steps = [case_step(e, board) for e in entries]
    return _render(s, steps, "perfgate-criteria", f"perfgate: {len(steps)} criteria of {board or 'the board'}",
                   120.0 + len(steps), board=board, suites="the criteria's values", metadata=metadata)  # fmt: skip


def render(s: Settings, commands: list[Command], token: str, *, board: str = "", suites: str = "",
           metadata: dict | None = None) -> str:  # fmt: skip
    """The job definition (YAML) for LAVA's scheduler.jobs.submit."""
    steps = [helper(token), *(step(c) for c in commands)]
    return _render(s, steps, "perfgate", f"perfgate: {len(commands)} commands for {board or 'the board'}",
                   sum(c.timeout for c in commands) + 120.0, board=board, suites=suites, metadata=metadata)  # fmt: skip


def _render(s: Settings, steps: list[str], definition: str, description: str, test_time: float, *, board: str,
            suites: str, metadata: dict | None) -> str:  # fmt: skip
    t = s.timeouts
    if "test" in t:
        test_time = min(test_time, t["test"])
    deploy = []
    for action in s.deploy:
        action = dict(action)
        if "timeout" not in action and "deploy" in t:
            action["timeout"] = _seconds(t["deploy"])
        deploy.append({"deploy": action})
    boot = dict(s.boot)
    if "timeout" not in boot and "boot" in t:
        boot["timeout"] = _seconds(t["boot"])
    name = s.job_name.replace("{board}", board).replace("{suites}", suites or "commands")
    job: dict = {
        "device_type": s.device_type,
        "job_name": name[:200],
        "timeouts": {
            "job": _seconds(t["job"]),
            "action": _seconds(t["action"]),
            "connection": _seconds(t["connection"]),
        },
        "priority": s.priority,
        "visibility": s.visibility,
    }
    if s.tags:
        job["tags"] = list(s.tags)
    if s.context:
        job["context"] = dict(s.context)
    meta = {**s.metadata, **(metadata or {})}
    if meta:
        job["metadata"] = {str(k): str(v) for k, v in meta.items()}
    test = {
        "timeout": _seconds(test_time),
        "definitions": [
            {
                "from": "inline",
                "name": definition,
                "path": f"inline/{definition}.yaml",
                "repository": {
                    "metadata": {
                        "format": "Lava-Test Test Definition 1.0",
                        "name": definition,
                        "description": description,
                    },
                    "run": {"steps": steps},
                },
            }
        ],
    }
    job["actions"] = [*deploy, {"boot": boot}, {"test": test}]
    return yaml.safe_dump(job, sort_keys=False, width=100_000, allow_unicode=True)
