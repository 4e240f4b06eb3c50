"""Robot Framework's own files beside the run's evidence: output.xml, log.html, report.html and xunit copied
into the run directory, and log.html/report.html regenerated with rebot when the run had none (a pabot
process runs with --log NONE), so that comparison.html's links `log.html#<test id>` open the right test.

Robot tells only command-line listeners where it wrote its files (perfgate.robot.listener.RunFiles);
`python -m perfgate report <run>` does the same afterwards from the paths in run.json.
"""

from __future__ import annotations

import html
import os
import re
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
    """Robot's files ({"output": path, "log": path, ...}) in run_dir: output.xml copied with its links made
    relative to run_dir (they were relative to where Robot wrote the log), then log.html, report.html (and
    xunit.xml when the run wrote one) written from it with rebot, titled with the board, whose name is also the
    top suite's (so xunit classnames carry the board). Returns the files now in run_dir."""
    run_dir = Path(run_dir)
    meta = meta or {}
    since = _started(meta)
    src = _usable(files.get("output"), since)
    output = run_dir / NAMES["output"]
    if src is not None and src.resolve() != output.resolve():
        base = Path(str(meta.get("link_base") or src.parent))
        text = src.read_text(encoding="utf-8")
        output.write_text(relink(text, base, run_dir), encoding="utf-8")
    if not output.exists():
        return []
    board = str(meta.get("board") or "")
    rebot = [sys.executable, "-m", "robot.rebot", "--outputdir", str(run_dir), "--output", "NONE",
             "--log", NAMES["log"], "--report", NAMES["report"], "--nostatusrc"]  # fmt: skip
    if board:
        virtual = " (VIRTUAL BOARD)" if meta.get("virtual") else ""
        rebot += ["--name", board, "--reporttitle", f"perfgate {board}{virtual} Report",
                  "--logtitle", f"perfgate {board}{virtual} Log",
                  "--tagstatexclude", f"{board}.*"]  # fmt: skip  # the criterion ids (perfgate.robot.tagstats)
    if _usable(files.get("xunit"), since) is not None:
        rebot += ["--xunit", NAMES["xunit"]]
    subprocess.run([*rebot, str(output)], capture_output=True, text=True, timeout=300, check=False)
    return [output, *(p for p in (run_dir / NAMES[k] for k in ("log", "report", "xunit")) if p.exists())]


META_LINK = re.compile(r'(<meta name="[^"]*">\[)([^|\]<]+)(\|)')
HREF = re.compile(r'(href=(?:&quot;|"))([^"&<>]+)(&quot;|")')


def relink(text: str, base: Path, run_dir: Path) -> str:
    """Links relative to `base` (where Robot wrote the log) that point into run_dir, made relative to run_dir."""
    run_dir = run_dir.resolve()

    def fix(m: re.Match[str]) -> str:
        href = m.group(2)
        if "://" in href or href.startswith(("#", "/")):
            return m.group(0)
        target = (base / href).resolve()
        if not target.is_relative_to(run_dir):
            return m.group(0)
        return m.group(1) + os.path.relpath(target, run_dir) + m.group(3)

    def fix_meta(m: re.Match[str]) -> str:  # metadata links: [path|text]
        return fix(m) if m.group(2) else m.group(0)

    return META_LINK.sub(fix_meta, HREF.sub(fix, text))


TOP_SUITE = re.compile(r'<suite id="s1" name="([^"]*)"(?: source="([^"]*)")?')


def top_suite_name(board: str, name: str, source: str | None) -> str:
    """The board for the suites directory (as variables/pabot/<board>.args does with --name); `<board> · <name>`
    for a suite file run alone."""
    if source and source.endswith(".robot") and not name.startswith(board):
        return f"{board} · {name}"
    return board


def name_top_suite(output: Path, board: str) -> bool:
    """Name the top suite of Robot's output.xml after the board unless it already is, before Robot writes log,
    report and xunit from it. True when renamed."""
    text = output.read_text(encoding="utf-8")
    m = TOP_SUITE.search(text)
    if not board or m is None or m.group(1).startswith(board):
        return False
    name = html.escape(top_suite_name(board, html.unescape(m.group(1)), m.group(2)), quote=True)
    output.write_text(text[: m.start(1)] + name + text[m.end(1) :], encoding="utf-8")
    return True
