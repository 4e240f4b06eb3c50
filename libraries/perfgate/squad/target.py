"""Where a run is published: a SQUAD server's URL, a group and a project, and the environment variable that holds the
API token (never a file of the project).

A target comes from the command line, from a lab file's `squad:` section (`{url, group, project, token_env,
environment}`; checked when the lab is loaded, errors naming the file, key and line), or from the run's option
`-v SQUAD:<value>`: `lab` (the lab's section), `off` (not even the lab's section), or a SQUAD project's page URL
`<server>/<group>/<project>/` (the token from the lab's `token_env`, else SQUAD_TOKEN).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from perfgate.errors import DataError, PerfgateError

SLUG = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9_.-]*$")  # SQUAD's slug_pattern (projects, builds, environments, suites)
GROUP_SLUG = re.compile(r"^~?[a-zA-Z0-9][a-zA-Z0-9_.-]*$")  # a group's: `~user` groups too
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DEFAULT_TOKEN_ENV = "SQUAD_TOKEN"
SECTION_KEYS = ("url", "group", "project", "token_env", "environment")
OFF_WORDS = ("off", "no", "false")


@dataclass(frozen=True)
class Target:
    url: str  # the server's base URL, no trailing slash
    group: str
    project: str
    token_env: str = DEFAULT_TOKEN_ENV
    environment: str | None = None  # overrides the run's board as SQUAD's environment
    origin: str = "the command line"  # where the target was given, for messages

    @property
    def project_url(self) -> str:
        return f"{self.url}/{self.group}/{self.project}/"

    def token(self) -> str:
        value = os.environ.get(self.token_env, "").strip()
        if not value:
            raise PerfgateError(
                f"SQUAD token: the environment variable {self.token_env} is not set "
                f"(it holds the API token of a user that may submit to {self.group}/{self.project}; "
                f"target from {self.origin})"
            )
        return value


def make(
    url: object,
    group: object,
    project: object,
    token_env: object = None,
    environment: object = None,
    origin: str = "the command line",
    error: Callable[[str, str], Exception] | None = None,
) -> Target:
    """A checked target. `error(message, key)` makes the exception for a bad value (a lab file's names its line)."""

    def bad(message: str, key: str) -> Exception:
        return error(message, key) if error else DataError(f"{key}: {message} ({origin})")

    if not isinstance(url, str) or not url.strip():
        raise bad("must be the SQUAD server's URL (http:// or https://)", "url")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise bad(f"must be an http:// or https:// URL of the SQUAD server, not {url!r}", "url")
    if not isinstance(group, str) or not GROUP_SLUG.match(group):
        raise bad(f"must be a SQUAD group slug (letters, digits, _ . -), not {group!r}", "group")
    if not isinstance(project, str) or not SLUG.match(project):
        raise bad(f"must be a SQUAD project slug (letters, digits, _ . -), not {project!r}", "project")
    token_env = DEFAULT_TOKEN_ENV if token_env is None else token_env
    if not isinstance(token_env, str) or not ENV_NAME.match(token_env):
        raise bad(
            f"must name an environment variable (the token itself never goes in a file), not {token_env!r}", "token_env"
        )
    if environment is not None and not (isinstance(environment, str) and SLUG.match(environment)):
        raise bad(f"must be a SQUAD environment slug (letters, digits, _ . -), not {environment!r}", "environment")
    return Target(url.strip().rstrip("/"), group, project, token_env, environment, origin)


def from_project_url(text: str, token_env: str | None = None, origin: str = "-v SQUAD") -> Target:
    """`https://squad.example.org/<group>/<project>/` (a project's page, as the browser shows it; the server may
    live under a path prefix)."""
    parts = urlsplit(text.strip())
    segments = [s for s in parts.path.split("/") if s]
    if parts.scheme not in ("http", "https") or len(segments) < 2:
        raise DataError(
            f"variable SQUAD: must be `lab`, `off` or a SQUAD project's URL "
            f"(https://<server>/<group>/<project>/), not {text!r} (-v SQUAD:{text})"
        )
    base = f"{parts.scheme}://{parts.netloc}" + "".join(f"/{s}" for s in segments[:-2])

    def error(message: str, key: str) -> Exception:
        return DataError(f"variable SQUAD: the {key} in {text!r} {message}")

    return make(base, segments[-2], segments[-1], token_env, None, origin, error)


def validate_section(section: Any, error: Callable[..., Exception]) -> None:
    """A lab file's `squad:` section. `error(message, *key)` is the lab's (file, key and line)."""
    if section is None:
        return
    if not isinstance(section, dict):
        raise error("must be a mapping {url, group, project, token_env}", "squad")
    if "token" in section:
        raise error("the token never goes in a lab file: name its environment variable (token_env)", "squad", "token")
    unknown = sorted(set(map(str, section)) - set(SECTION_KEYS))
    if unknown:
        raise error(f"unknown key (known keys: {', '.join(SECTION_KEYS)})", "squad", unknown[0])
    make(
        section.get("url"),
        section.get("group"),
        section.get("project"),
        section.get("token_env"),
        section.get("environment"),
        error=lambda message, key: error(message, "squad", key),
    )


def from_section(section: dict, lab_name: str, path: object = None) -> Target:
    origin = f"the squad section of lab {lab_name}" + (f" ({path})" if path else "")
    return make(section.get("url"), section.get("group"), section.get("project"), section.get("token_env"),
                section.get("environment"), origin=origin)  # fmt: skip


def for_run(option: object, lab: dict) -> Target | None:
    """The target of a run: its `-v SQUAD:` option (unset: the lab's `squad:` section, if any), or None."""
    section = lab.get("squad") or None
    lab_name = str(lab.get("name") or "?")
    text = "" if option is None else str(option).strip()
    if text.upper() in ("", "NONE", "${NONE}"):
        return from_section(section, lab_name) if section else None
    if text.lower() in OFF_WORDS:
        return None
    if text.lower() == "lab":
        if not section:
            raise DataError(
                f"variable SQUAD: `lab` publishes where the lab's squad section says, but lab {lab_name} "
                "has no squad section (squad: {url, group, project, token_env})"
            )
        return from_section(section, lab_name)
    token_env = section.get("token_env") if section else None
    return from_project_url(text, token_env, origin=f"-v SQUAD:{text}")
