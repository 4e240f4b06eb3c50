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
"""

from __future__ import annotations

import secrets
import shlex
from dataclasses import dataclass

import yaml

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


def render(s: Settings, commands: list[Command], token: str, *, board: str = "", suites: str = "",
           metadata: dict | None = None) -> str:  # fmt: skip
    """The job definition (YAML) for LAVA's scheduler.jobs.submit."""
    t = s.timeouts
    test_time = sum(c.timeout for c in commands) + 120.0
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
    steps = [helper(token), *(step(c) for c in commands)]
    test = {
        "timeout": _seconds(test_time),
        "definitions": [
            {
                "from": "inline",
                "name": "perfgate",
                "path": "inline/perfgate.yaml",
                "repository": {
                    "metadata": {
                        "format": "Lava-Test Test Definition 1.0",
                        "name": "perfgate",
                        "description": f"perfgate: {len(commands)} commands for {board or 'the board'}",
                    },
                    "run": {"steps": steps},
                },
            }
        ],
    }
    job["actions"] = [*deploy, {"boot": boot}, {"test": test}]
    return yaml.safe_dump(job, sort_keys=False, width=100_000, allow_unicode=True)
