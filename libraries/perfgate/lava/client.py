"""LAVA's XML-RPC API (the same one lavacli speaks), through the standard library's xmlrpc.client: no shell, and
every failure a LavaError that names the lab file and the key it comes from (server, user/token, device type,
the queue bound), never a traceback.

The token goes into the request's basic authentication (user:token, as lavacli sends it) and into no message.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
import xmlrpc.client
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from perfgate.errors import DataError
from perfgate.lava import log as joblog
from perfgate.lava.settings import Settings

FINISHED = "Finished"
GOOD_HEALTH = "Complete"


class LavaError(DataError):
    """The LAVA server, the token, the device type or the queue: named after the lab's key."""


@dataclass
class JobState:
    id: int
    state: str  # Submitted, Scheduling, Scheduled, Running, Canceling, Finished
    health: str  # Unknown, Complete, Incomplete, Canceled
    device: str = ""
    failure_comment: str = ""

    @property
    def finished(self) -> bool:
        return self.state == FINISHED


def _transport(secure: bool, timeout: float) -> xmlrpc.client.Transport:
    """xmlrpc's transport (https or http) whose connections time out after `timeout` seconds."""
    base = xmlrpc.client.SafeTransport if secure else xmlrpc.client.Transport

    class Timed(base):  # type: ignore[valid-type, misc]
        def make_connection(self, host: Any) -> http.client.HTTPConnection:
            conn = super().make_connection(host)
            conn.timeout = timeout
            return conn

    return Timed()


class Client:
    def __init__(self, s: Settings, token: str | None = None) -> None:
        self.s = s
        parts = urlsplit(s.server)
        secret = token if token is not None else s.token()
        netloc = f"{quote(s.user, safe='')}:{quote(secret, safe='')}@{parts.netloc}"
        url = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
        timeout = s.timeouts.get("server", 30.0)
        transport = _transport(parts.scheme == "https", timeout)
        self._proxy = xmlrpc.client.ServerProxy(url, allow_none=True, transport=transport)

    # ------------------------------------------------------------------------------------------------ calls
    def call(self, method: str, *args: Any, what: str = "") -> Any:
        fn = self._proxy
        for part in method.split("."):
            fn = getattr(fn, part)
        try:
            return fn(*args)
        except xmlrpc.client.ProtocolError as e:
            if e.errcode in (401, 403):
                raise self.error(f"the LAVA server {self.s.server} refused user {self.s.user!r} and its token "
                                 f"({e.errcode} {e.errmsg}): check lava.user and the token "
                                 f"({self._token_source()})", "user") from None  # fmt: skip
            raise self.error(f"the LAVA server {self.s.server} answered {e.errcode} {e.errmsg} to {method}",
                             "server") from None  # fmt: skip
        except xmlrpc.client.Fault as e:
            if e.faultCode in (401, 403):
                raise self.error(f"the LAVA server refused {method} for user {self.s.user!r}: {e.faultString} "
                                 f"({self._token_source()})", "user") from None  # fmt: skip
            if e.faultCode == 404 and what:
                raise self.error(f"{what}: {e.faultString}", "device_type" if "device" in what else "server") from None
            raise self.error(f"LAVA {method}: {e.faultString} (fault {e.faultCode})", "server") from None
        except (OSError, http.client.HTTPException) as e:
            reason = getattr(e, "strerror", None) or str(e) or type(e).__name__
            raise self.error(f"cannot reach the LAVA server {self.s.server}: {reason}", "server") from None

    def error(self, message: str, key: str) -> LavaError:
        return LavaError(f"lava.{key}: {message}", self.s.lab_path)

    def _token_source(self) -> str:
        if self.s.token_env:
            return f"environment variable {self.s.token_env}, lava.token_env"
        return f"lavacli identity {self.s.identity or 'default'} in {self.s.identity_file}, lava.identity"

    # ------------------------------------------------------------------------------------------------ checks
    def check(self) -> str:
        """The server answers, the token is good, the device type exists: LAVA's version, else a LavaError."""
        version = str(self.call("system.version"))
        who = self.call("system.whoami")
        if not who:
            raise self.error(f"the LAVA server {self.s.server} does not know the token of user {self.s.user!r} "
                             f"({self._token_source()})", "user")  # fmt: skip
        info = self.call("scheduler.device_types.show", self.s.device_type,
                         what=f"the LAVA server has no device type {self.s.device_type!r}")  # fmt: skip
        devices = info.get("devices") if isinstance(info, dict) else None
        if isinstance(devices, list) and not devices:
            raise self.error(f"the LAVA server has device type {self.s.device_type!r} but no device of it",
                             "device_type")  # fmt: skip
        return version

    # ------------------------------------------------------------------------------------------------ jobs
    def submit(self, definition: str) -> list[int]:
        ids = self.call("scheduler.jobs.submit", definition)
        return [int(i) for i in (ids if isinstance(ids, list) else [ids])]

    def state(self, job_id: int) -> JobState:
        d = self.call("scheduler.jobs.show", job_id)
        return JobState(int(job_id), str(d.get("state")), str(d.get("health")), str(d.get("device") or ""),
                        str(d.get("failure_comment") or ""))  # fmt: skip

    def queue_position(self, job_id: int) -> int | None:
        """1-based position of the job among the device type's queued jobs (None: not in the queue)."""
        try:
            queue = self.call("scheduler.jobs.queue", [self.s.device_type], 0, 200)
        except LavaError:
            return None
        ids = [int(j.get("id")) for j in queue if isinstance(j, dict) and str(j.get("id", "")).isdigit()]
        return ids.index(int(job_id)) + 1 if int(job_id) in ids else None

    def logs(self, job_id: int, start: int = 0) -> tuple[bool, list[dict]]:
        """(finished, the log's entries from line `start` on)."""
        finished, data = self.call("scheduler.jobs.logs", job_id, start)
        raw = data.data if isinstance(data, xmlrpc.client.Binary) else str(data or "")
        return bool(finished), joblog.entries(raw)

    def results(self, job_id: int) -> list[dict]:
        text = self.call("results.get_testjob_results_yaml", job_id)
        return joblog.entries(text)

    def cancel(self, job_id: int) -> None:
        with contextlib.suppress(LavaError):
            self.call("scheduler.jobs.cancel", job_id)


def failure(results: list[dict], state: JobState) -> str:
    """LAVA's own error type and message for a job that did not complete (lava suite's `job` test case)."""
    for r in results:
        if r.get("suite") == "lava" and r.get("name") == "job":
            meta = r.get("metadata") or {}
            kind = meta.get("error_type") or ""
            msg = meta.get("error_msg") or ""
            if kind or msg:
                return f"{kind}: {msg}" if kind else str(msg)
    return state.failure_comment or f"the job ended {state.health}"


def wait_until(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def host_address_towards(server: str) -> str:
    """This host's address on the route to the LAVA server (the tester as a board in that lab sees it, when the
    lab says `tester: {address: host}`)."""
    host = urlsplit(server).hostname or "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((host, 9))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"
