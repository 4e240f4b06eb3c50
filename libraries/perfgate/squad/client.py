"""SQUAD's submit API over HTTP (urllib, no shell): `POST <server>/api/submit/<group>/<project>/<build>/<environment>`
with the token in the `Auth-Token` header and a multipart form holding the files `tests`, `metrics` and `metadata`
(JSON) and one `attachment` file per attachment, as squad.api.views.add_test_run reads them. SQUAD answers 201 with
the new test run's id."""

from __future__ import annotations

import json
import mimetypes
import secrets
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

from perfgate.errors import PerfgateError
from perfgate.squad.payload import Submission
from perfgate.squad.target import Target


def multipart(fields: list[tuple[str, str, bytes, str]]) -> tuple[bytes, str]:
    """(body, content type) of a multipart/form-data form of files: (field name, file name, content, mime type)."""
    boundary = "perfgate-" + secrets.token_hex(16)
    body = bytearray()
    for name, filename, content, mime in fields:
        body += f"--{boundary}\r\n".encode()
        body += f'Content-Disposition: form-data; name="{name}"; filename="{_header_safe(filename)}"\r\n'.encode()
        body += f"Content-Type: {mime}\r\n\r\n".encode()
        body += content + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return bytes(body), f"multipart/form-data; boundary={boundary}"


def _header_safe(name: str) -> str:
    return "".join(c if c.isprintable() and c not in '"\\' else "_" for c in name)


def submit_url(target: Target, sub: Submission) -> str:
    parts = (target.group, target.project, sub.build, sub.environment)
    return f"{target.url}/api/submit/" + "/".join(quote(p, safe="~") for p in parts)


def submit(target: Target, sub: Submission, token: str, timeout: float = 60) -> int:
    """Submit one test run; returns SQUAD's id for it. Every refusal is a PerfgateError saying what SQUAD said."""
    files = [
        (kind, f"{kind}.json", json.dumps(data, ensure_ascii=False).encode(), "application/json")
        for kind, data in (("tests", sub.tests), ("metrics", sub.metrics), ("metadata", sub.metadata))
    ]
    for path in sub.attachments:
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        files.append(("attachment", path.name, Path(path).read_bytes(), mime))
    body, content_type = multipart(files)
    url = submit_url(target, sub)
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Auth-Token": token, "Content-Type": content_type}
    )
    where = f"{target.group}/{target.project} on {target.url} (from {target.origin})"
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = response.read().decode("utf-8", "replace").strip()
    except urllib.error.HTTPError as e:
        text = _text(e)
        if e.code in (401, 403):
            raise PerfgateError(
                f"SQUAD refused the token in ${target.token_env} for {where}: HTTP {e.code}{_said(text)}"
                " (the token's user must be a submitter, privileged or admin member of the group)"
            ) from None
        if e.code == 404:
            raise PerfgateError(f"SQUAD has no project {where} (HTTP 404), or the token's user cannot see it") from None
        if e.code == 400 and "already a test run with job_id" in text:
            raise PerfgateError(
                f"already published: SQUAD holds this run for build {sub.build} in {where}{_said(text)}"
            ) from None
        raise PerfgateError(f"SQUAD did not take the run for {where}: HTTP {e.code}{_said(text)}") from None
    except urllib.error.URLError as e:
        raise PerfgateError(f"SQUAD server {target.url} cannot be reached (from {target.origin}): {e.reason}") from None
    except (TimeoutError, OSError) as e:
        raise PerfgateError(
            f"SQUAD server {target.url} did not answer in {timeout:g} s (from {target.origin}): {e}"
        ) from None
    try:
        return int(answer)
    except ValueError:
        raise PerfgateError(
            f"SQUAD at {target.url} answered {answer[:200]!r}, not a test run id: is it SQUAD?"
        ) from None


def _said(text: str) -> str:
    return f": {text}" if text else ""


def _text(error: urllib.error.HTTPError) -> str:
    try:
        raw = error.read().decode("utf-8", "replace")
    except OSError:
        return ""
    try:
        data = json.loads(raw)
        if isinstance(data, dict) and data.get("detail"):
            return str(data["detail"])
    except ValueError:
        pass
    text = " ".join(raw.split())
    return text[:300] if "<html" not in text.lower() else ""
