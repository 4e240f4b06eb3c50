"""The `kind: lava` lab file's `lava:` mapping (docs/lava.md):

    name: lkft
    kind: lava
    lava:
      server: https://lava.example.org/RPC2      # LAVA's XML-RPC endpoint (the web UI's base URL works too)
      user: ci-bot
      token_env: LAVA_TOKEN                      # or identity: default (lavacli's ~/.config/lavacli.yaml)
      device_type: am62xx-sk
      tags: [perf]
      deploy: {to: tftp, kernel: {url: ...}, ...}          # LAVA's deploy action, as LAVA takes it
      boot: {method: u-boot, commands: ramdisk, ...}       # LAVA's boot action
      timeouts: {queue: 1800, job: 3600}         # seconds
      report: true                               # a last job records each criterion's value as a LAVA test case

The token never lives in the lab file: an environment variable names it, or lavacli's identity file holds it.
Every error names the lab file, the key and its line (the lab's own `error()`). This module knows a lab only as
LabFile (its data and how it names an error), so it imports nothing else of perfgate's board code.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import yaml

from perfgate.errors import DataError

KEYS = (
    "server", "user", "token_env", "identity", "identity_file", "device_type", "tags", "job_name", "priority",
    "visibility", "context", "deploy", "boot", "timeouts", "max_jobs", "poll", "metadata", "report",
)  # fmt: skip
TIMEOUT_KEYS = ("job", "action", "connection", "deploy", "boot", "test", "queue", "server")
DEFAULT_TIMEOUTS = {"job": 3600.0, "action": 600.0, "connection": 120.0, "test": 3600.0, "queue": 1800.0,
                    "server": 30.0}  # fmt: skip
PRIORITIES = ("high", "medium", "low")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
ENV = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DEFAULT_IDENTITY_FILE = "~/.config/lavacli.yaml"
# deploy/boot keys the gate writes itself (the test action is the gate's; a deploy/boot must not bring its own)
FORBIDDEN_IN_ACTIONS = ("definitions",)


class LabFile(Protocol):
    """What this module reads of a lab (perfgate.board.lab.Lab)."""

    data: dict[str, Any]
    path: Path

    def error(self, message: str, *key: str | int) -> DataError: ...


@dataclass
class Settings:
    """The validated `lava:` mapping, with the lab it came from (to name it in errors)."""

    server: str  # the XML-RPC endpoint, without credentials
    user: str
    device_type: str
    deploy: list[dict]
    boot: dict
    token_env: str | None = None
    identity: str | None = None
    identity_file: str = DEFAULT_IDENTITY_FILE
    tags: list[str] = field(default_factory=list)
    job_name: str = "perfgate {board}: {suites}"
    priority: str = "medium"
    visibility: str = "public"
    context: dict = field(default_factory=dict)
    metadata: dict = field(default_factory=dict)
    timeouts: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))
    max_jobs: int = 4
    poll: float = 2.0
    report: bool = True  # a last job records the judged criteria as LAVA test cases with their values
    lab_path: str = ""
    lab_name: str = ""

    @property
    def web(self) -> str:
        """The server's web base (https://host), for job URLs."""
        parts = urlsplit(self.server)
        path = parts.path[: -len("/RPC2")] if parts.path.rstrip("/").endswith("/RPC2") else parts.path
        return urlunsplit((parts.scheme, parts.netloc, path.rstrip("/"), "", ""))

    def job_url(self, job_id: int | str) -> str:
        return f"{self.web}/scheduler/job/{job_id}"

    def where(self, *key: str) -> str:
        """`<lab file>: lava.<key>`: how errors about a key name it (a DataError adds the line when it has one)."""
        return f"{self.lab_path}: lava.{'.'.join(key)}" if key else f"{self.lab_path}: lava"

    def token(self) -> str:
        """The API token: from the environment variable `token_env`, else lavacli's identity file. Never logged."""
        if self.token_env:
            value = os.environ.get(self.token_env, "")
            if not value:
                raise DataError(f"lava.token_env: the environment variable {self.token_env} is not set (it must "
                                "hold the LAVA API token of lava.user)", self.lab_path)  # fmt: skip
            return value
        path = Path(os.path.expanduser(self.identity_file))
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except OSError as e:
            raise DataError(f"lava.identity: cannot read lavacli's identity file {path}: {e.strerror}",
                            self.lab_path) from None  # fmt: skip
        except yaml.YAMLError as e:
            raise DataError(f"lava.identity: {path} is not YAML: {e}", self.lab_path) from None
        ident = data.get(self.identity or "default") if isinstance(data, dict) else None
        if not isinstance(ident, dict) or not ident.get("token"):
            raise DataError(f"lava.identity: {path} has no identity {self.identity or 'default'!r} with a token "
                            f"(lavacli identities add --token ... {self.identity or 'default'})",
                            self.lab_path)  # fmt: skip
        return str(ident["token"])


def validate(lab: LabFile) -> None:
    """Check `lava:` (only in a lava lab) and fill what LAVA gives instead (no serial port, no power switch)."""
    d = lab.data
    lv = d.get("lava")
    if d.get("kind") != "lava":
        if lv is not None:
            raise lab.error("only a `kind: lava` lab submits jobs to a LAVA server", "lava")
        return
    if not isinstance(lv, dict):
        raise lab.error("a lava lab needs a mapping {server:, user:, token_env:, device_type:, deploy:, boot:}", "lava")
    if "token" in lv:
        raise lab.error("never put the token in the lab file: name it in token_env (an environment variable) or "
                        "identity (lavacli's identity file)", "lava", "token")  # fmt: skip
    unknown = sorted(set(map(str, lv)) - set(KEYS))
    if unknown:
        raise lab.error(f"unknown key (known: {', '.join(KEYS)})", "lava", unknown[0])
    server = lv.get("server")
    parts = urlsplit(server) if isinstance(server, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise lab.error(f"must be the LAVA server's URL (https://host/RPC2), not {server!r}", "lava", "server")
    if parts.username or parts.password:
        raise lab.error("must not carry a user or token: name them in lava.user and lava.token_env", "lava", "server")
    path = parts.path.rstrip("/")
    if not path.endswith("/RPC2"):  # the web UI's base (or its REST API's) URL: the XML-RPC endpoint beside it
        path = re.sub(r"/api(/v[\d.]+)?$", "", path) + "/RPC2"
    lv["server"] = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    for key in ("user", "device_type"):
        if not (isinstance(lv.get(key), str) and NAME.fullmatch(lv[key])):
            raise lab.error(f"must be a LAVA {key.replace('_', ' ')} name, not {lv.get(key)!r}", "lava", key)
    if lv.get("token_env") is not None and not (isinstance(lv["token_env"], str) and ENV.fullmatch(lv["token_env"])):
        raise lab.error(f"must name an environment variable, not {lv['token_env']!r}", "lava", "token_env")
    if lv.get("identity") is not None and not (isinstance(lv["identity"], str) and NAME.fullmatch(lv["identity"])):
        raise lab.error(f"must be a lavacli identity name, not {lv['identity']!r}", "lava", "identity")
    if lv.get("token_env") and lv.get("identity"):
        raise lab.error("give one token source: token_env or identity, not both", "lava", "identity")
    if lv.get("identity_file") is not None and not isinstance(lv["identity_file"], str):
        raise lab.error("must be a file path (lavacli's identity file)", "lava", "identity_file")
    tags = lv.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) and NAME.fullmatch(t) for t in tags):
        raise lab.error(f"must be a list of LAVA device tags, not {tags!r}", "lava", "tags")
    lv["tags"] = tags
    deploy = lv.get("deploy")
    if isinstance(deploy, dict):
        deploy = [deploy]
    if not isinstance(deploy, list) or not deploy or not all(isinstance(a, dict) and a.get("to") for a in deploy):
        raise lab.error("must be LAVA's deploy action as a mapping (with `to:`), or a list of them", "lava", "deploy")
    lv["deploy"] = deploy
    boot = lv.get("boot")
    if not isinstance(boot, dict) or not boot.get("method"):
        raise lab.error("must be LAVA's boot action as a mapping (with `method:`)", "lava", "boot")
    for key, action in [*(("deploy", a) for a in deploy), ("boot", boot)]:
        for bad in FORBIDDEN_IN_ACTIONS:
            if bad in action:
                raise lab.error("the test action is the gate's own: a deploy or boot action takes no test "
                                "definitions", "lava", key, bad)  # fmt: skip
    for key in ("context", "metadata"):
        if not isinstance(lv.get(key) or {}, dict):
            raise lab.error("must be a mapping", "lava", key)
    if lv.get("priority", "medium") not in PRIORITIES and not (
        isinstance(lv.get("priority"), int) and 0 <= lv["priority"] <= 100
    ):
        raise lab.error(f"must be high, medium, low or 0-100, not {lv.get('priority')!r}", "lava", "priority")
    if lv.get("visibility", "public") not in ("public", "personal"):
        raise lab.error(f"must be public or personal, not {lv.get('visibility')!r}", "lava", "visibility")
    timeouts = lv.get("timeouts") or {}
    if not isinstance(timeouts, dict):
        raise lab.error("must be a mapping of seconds (queue, job, action, connection, deploy, boot, test, server)",
                        "lava", "timeouts")  # fmt: skip
    for name, value in timeouts.items():
        if name not in TIMEOUT_KEYS:
            raise lab.error(f"unknown timeout (known: {', '.join(TIMEOUT_KEYS)})", "lava", "timeouts", name)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise lab.error(f"must be a positive number of seconds (like 600), not {value!r}", "lava", "timeouts",
                            name)  # fmt: skip
    jobs = lv.get("max_jobs", 4)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise lab.error(f"must be a whole number of jobs, 1 or more, not {jobs!r}", "lava", "max_jobs")
    poll = lv.get("poll", 2)
    if isinstance(poll, bool) or not isinstance(poll, int | float) or poll <= 0:
        raise lab.error(f"must be a positive number of seconds, not {poll!r}", "lava", "poll")
    if not isinstance(lv.get("report", True), bool):
        raise lab.error(f"must be true or false (a last job records the criteria's values in LAVA), not "
                        f"{lv['report']!r}", "lava", "report")  # fmt: skip
    if lv.get("job_name") is not None and not isinstance(lv["job_name"], str):
        raise lab.error("must be a string ({board} and {suites} are filled in)", "lava", "job_name")
    d["lava"] = lv
    # what LAVA gives instead: no console port of the gate's, no power switch of the gate's
    serial = d.get("serial")
    if serial is not None and serial != {"port": "lava", "baud": 115200}:
        raise lab.error("a lava lab's console is LAVA's: give no serial port", "serial")
    if d.get("power") not in (None, "none"):
        raise lab.error("LAVA powers the board (its boot action): give no power commands", "power")
    d["serial"] = {"port": "lava", "baud": 115200}


def settings(lab: LabFile) -> Settings:
    lv = lab.data["lava"]
    timeouts = {**DEFAULT_TIMEOUTS, **{k: float(v) for k, v in (lv.get("timeouts") or {}).items()}}
    return Settings(
        server=lv["server"], user=lv["user"], device_type=lv["device_type"], deploy=lv["deploy"], boot=lv["boot"],
        token_env=lv.get("token_env"), identity=lv.get("identity"),
        identity_file=lv.get("identity_file") or DEFAULT_IDENTITY_FILE, tags=list(lv.get("tags") or []),
        job_name=lv.get("job_name") or "perfgate {board}: {suites}", priority=lv.get("priority", "medium"),
        visibility=lv.get("visibility", "public"), context=dict(lv.get("context") or {}),
        metadata=dict(lv.get("metadata") or {}), timeouts=timeouts, max_jobs=int(lv.get("max_jobs", 4)),
        poll=float(lv.get("poll", 2)), report=bool(lv.get("report", True)),
        lab_path=str(lab.path), lab_name=str(lab.data.get("name") or ""),
    )  # fmt: skip
