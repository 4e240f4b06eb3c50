"""Let SQUAD start on a machine that reaches only package registries (run with the SQUAD virtualenv's python).

SQUAD's web frontend (squad.frontend, imported by its URL configuration and so by every server process) runs
`squad/frontend/static/download` when it is imported: a script that fetches the web UI's JavaScript and CSS
(AngularJS, Bootstrap, Chart.js...) from their CDNs with wget, and raises when that fails. The script skips a file
that exists and is listed in `download.status` with its URL. This writes each missing asset as an empty placeholder
(a file, or a directory for an archive) and lists it there, so the import succeeds without a network: the REST API
and the submit API, which the tests use, are unaffected; the web pages come up without their scripts and styles.
Run it again after reinstalling squad; it changes nothing when the assets are there."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def main() -> int:
    spec = importlib.util.find_spec("squad")  # squad itself: importing squad.frontend would run the download
    if spec is None or spec.origin is None:
        print("squad: not installed in this Python", file=sys.stderr)
        return 1
    static = Path(spec.origin).parent / "frontend" / "static"
    conf = static / "download.conf"
    status = static / "download.status"
    listed = status.read_text(encoding="utf-8").splitlines() if status.exists() else []
    lines = list(listed)
    for raw in conf.read_text(encoding="utf-8").splitlines():
        fields = raw.split()
        if len(fields) < 2 or fields[0].startswith("#"):
            continue
        dest, url = fields[0], fields[1]
        target = static / dest
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            if url.endswith((".js", ".css")):
                target.write_text("", encoding="utf-8")
            else:
                target.mkdir()
        if not any(line.startswith(f"{dest} {url}") for line in lines):
            lines.append(" ".join(fields[:3]))
    if lines != listed:
        status.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    print(f"squad: web assets present or stubbed in {static}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
