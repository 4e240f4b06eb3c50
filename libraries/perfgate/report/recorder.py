"""The run's recorder: run.json at once, then metrics.json and summary.csv after every criterion, and at the end
comparison.html and the board's history.

Every write goes to a temporary file that replaces the old one (atomic.write_text), so a run killed at any
moment leaves valid files holding everything judged so far. `finish()` completes run.json, builds
comparison.html and appends the run to the board's history. It stands on the metrics model (perfgate.report.metrics)
and the writers that read it (history, html); the model imports none of them.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

from perfgate import procs
from perfgate.decision.verdict import RunVerdict
from perfgate.report import atomic, history, html  # html imports matplotlib only when it draws a chart
from perfgate.report.metrics import (
    METRICS_JSON,
    RUN_JSON,
    SUMMARY_CSV,
    counts,
    invalid_samples,
    normalise,
    now,
    run_verdict,
    summary_csv,
    verdict_reason,
)


class RunRecorder:
    """Records one run in `run_dir` (results/<board>/<run>/).

    `meta` is run.json's content: board, lab, virtual, guide, release, command (started is set if absent).
    """

    def __init__(self, run_dir: Path, meta: dict) -> None:
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.meta = dict(meta)
        self.meta.setdefault("run", self.run_dir.name)
        self.meta.setdefault("started", now())
        self.meta.setdefault("finished", None)
        # until finish() says otherwise the run is incomplete: a run killed at any moment reads as such
        self.meta.update(status="running", verdict=RunVerdict.INCOMPLETE, pid=os.getpid(), host=socket.gethostname())
        self.meta["pid_started"] = procs.start_time(os.getpid())
        if not self.meta.get("command"):
            self.meta["command"] = " ".join(sys.argv)
        self._entries: dict[str, dict] = {}
        self._json: dict[str, str] = {}  # id -> the entry serialised once, so a record costs one join and write
        self._csv: dict[str, str] = {}
        self._write_meta()

    @property
    def entries(self) -> list[dict]:
        return list(self._entries.values())

    def record(self, entry: dict) -> dict:
        """Add (or replace, by id) one judged criterion and rewrite metrics.json and summary.csv."""
        e = normalise(entry)
        e.setdefault("judged", now())
        self._entries[e["id"]] = e
        self._json[e["id"]] = json.dumps(e, default=str)
        self._csv[e["id"]] = summary_csv([e]).split("\n", 1)[1]
        self._write_metrics()
        return e

    def finish(self, meta_updates: dict | None = None, state: str = "finished") -> Path:
        """Complete run.json (status, finished, counts, verdict and why), build comparison.html, append the run to
        its board's history. `state` is `finished` or `interrupted` (then the verdict is `incomplete`).
        Returns the path of comparison.html."""
        self.meta.update(meta_updates or {})
        if not self.meta.get("finished"):
            self.meta["finished"] = now()
        entries = self.entries
        self.meta["status"] = state
        self.meta["counts"] = counts(entries)
        self.meta.update(invalid_samples(entries))
        self.meta["verdict"] = run_verdict(self.meta, entries)
        self.meta["verdict_reason"] = verdict_reason(self.meta, entries)
        self._write_meta()
        self._write_metrics()
        history.append(self.run_dir)  # first: the history keeps the run even if the page cannot be built
        return html.build(self.run_dir)

    def _write_meta(self) -> None:
        atomic.write_text(self.run_dir / RUN_JSON, json.dumps(self.meta, indent=2, default=str) + "\n")

    def _write_metrics(self) -> None:
        body = ",\n".join(self._json.values())
        atomic.write_text(self.run_dir / METRICS_JSON, f"[\n{body}\n]\n" if body else "[]\n")
        atomic.write_text(self.run_dir / SUMMARY_CSV, summary_csv([]) + "".join(self._csv.values()))
