"""A real SQUAD server for the tests: `squad` from PyPI in its own virtualenv (.venv-squad, installed by setup.sh
from tests/squad_server/requirements.txt, so that SQUAD's Django and Celery pins never meet the gate's), SQLite in a
temporary directory, on 127.0.0.1.

`start(tmp)` migrates SQUAD's database with its own `squad-admin migrate`, creates with `squad-admin shell` a user
that may submit results to one private group's project (a `submitter` member, as a lab would give a gate) and its
API token, a second user without access (a token that must be refused), then starts SQUAD's WSGI application under
the gunicorn that squad installs, and waits until `/api/version/` answers. `Server.stop()` ends the server (its
process group) and waits for it. Celery is not running: with no broker SQUAD runs its tasks eagerly, in the request.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from testpaths import ROOT

VENV = ROOT / ".venv-squad"
GROUP, PROJECT = "ti-sdk", "perfgate"

SETUP_CODE = """
import json
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from squad.core.models import Group, Project
user = User.objects.create_user("gate", password=None)
other = User.objects.create_user("stranger", password=None)
group = Group.objects.create(slug="{group}", name="TI SDK")
group.add_user(user, "submitter")
Project.objects.create(group=group, slug="{project}", name="perfgate", is_public=False)
print(json.dumps({{"token": Token.objects.create(user=user).key, "stranger": Token.objects.create(user=other).key}}))
"""


@dataclass
class Server:
    url: str
    token: str
    stranger_token: str
    group: str
    project: str
    process: subprocess.Popen
    log: Path

    def get(self, path: str, token: str | None = None) -> bytes:
        """GET a path of the server (`/api/...`), as the submitting user unless another token is given."""
        req = urllib.request.Request(self.url + path, headers={"Authorization": f"Token {token or self.token}"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.read()

    def json(self, path: str) -> dict:
        return json.loads(self.get(path))

    def results(self, path: str) -> list[dict]:
        """Every item of a paginated REST list (SQUAD pages by 50; `next` is an absolute URL on this server)."""
        out: list[dict] = []
        url: str | None = path
        while url:
            page = self.json(url)
            out += page["results"]
            url = page.get("next")
            url = url.removeprefix(self.url) if url else None
        return out

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def installed() -> bool:
    return (VENV / "bin" / "squad-admin").exists() and (VENV / "bin" / "gunicorn").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "SQUAD", "PYTHON"))}
    env.update(
        {
            "ENV": "production",  # no debug toolbar
            "SECRET_KEY": secrets.token_hex(32),
            "DATABASE": f"ENGINE=django.db.backends.sqlite3:NAME={tmp / 'squad.sqlite3'}",
            "SQUAD_STORAGE_DIR": str(tmp / "storage"),
            "SQUAD_STATIC_DIR": str(tmp / "static"),
            "XDG_DATA_HOME": str(tmp / "data"),
            "SQUAD_LOG_LEVEL": "WARNING",
        }
    )
    return env


def start(tmp: Path, timeout: float = 90) -> Server:
    tmp.mkdir(parents=True, exist_ok=True)
    env = _env(tmp)
    admin = str(VENV / "bin" / "squad-admin")
    subprocess.run([admin, "migrate", "-v", "0"], cwd=tmp, env=env, check=True, capture_output=True, timeout=300)
    out = subprocess.run(
        [admin, "shell", "-c", SETUP_CODE.format(group=GROUP, project=PROJECT)],
        cwd=tmp,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    keys = json.loads(out.stdout.strip().splitlines()[-1])
    port = _free_port()
    log = tmp / "squad-server.log"
    argv = [
        str(VENV / "bin" / "gunicorn"),
        "squad.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "1",
        "--timeout",
        "120",
    ]
    with open(log, "wb") as f:
        proc = subprocess.Popen(argv, cwd=tmp, env=env, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", keys["token"], keys["stranger"], GROUP, PROJECT, proc, log)
    deadline = time.monotonic() + timeout
    while True:
        try:
            server.get("/api/version/")
            return server
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"SQUAD did not start: {log.read_text(errors='replace')[-3000:]}") from None
            time.sleep(0.3)
