"""Robot Framework's own files beside the run's evidence: output.xml, log.html, report.html and xunit copied
into the run directory, and log.html/report.html regenerated with rebot when the run had none (a pabot
process runs with --log NONE), so that comparison.html's links `log.html#<test id>` open the right test.

Robot tells only command-line listeners where it wrote its files (perfgate.robot.listener.RunFiles);
`python -m perfgate report <run>` does the same afterwards from the paths in run.json.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

NAMES = {"output": "output.xml", "log": "log.html", "report": "report.html", "xunit": "xunit.xml"}


def _usable(path: object, since: float | None) -> Path | None:
    if not path or str(path).upper() == "NONE":
        return None
    p = Path(str(path))
    if not p.is_file():
        return None
    if since is not None and p.stat().st_mtime + 1 < since:
        return None  # an older run's file at the same place
    return p


def _started(meta: dict) -> float | None:
    try:
        return datetime.fromisoformat(str(meta.get("started"))).timestamp()
    except (TypeError, ValueError):
        return None


def collect(run_dir: Path, files: dict[str, object], meta: dict | None = None) -> list[Path]:
    """Copy Robot's files ({"output": path, "log": path, ...}) into run_dir; write log.html and report.html
    from output.xml with rebot when no log was copied. Returns the files now in run_dir."""
    run_dir = Path(run_dir)
    since = _started(meta or {})
    done: list[Path] = []
    for kind, name in NAMES.items():
        src = _usable(files.get(kind), since)
        dest = run_dir / name
        if src is not None and src.resolve() != dest.resolve():
            shutil.copyfile(src, dest)
            done.append(dest)
    output = run_dir / NAMES["output"]
    if output.exists() and not (run_dir / NAMES["log"]).exists():
        rebot = [sys.executable, "-m", "robot.rebot", "--outputdir", str(run_dir), "--output", "NONE",
                 "--log", NAMES["log"], "--report", NAMES["report"], "--nostatusrc", str(output)]  # fmt: skip
        subprocess.run(rebot, capture_output=True, text=True, timeout=300, check=False)
        done += [p for p in (run_dir / NAMES["log"], run_dir / NAMES["report"]) if p.exists()]
    return done
