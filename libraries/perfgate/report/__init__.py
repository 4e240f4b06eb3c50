"""The release gate's evidence: metrics.json and summary.csv as the run goes, comparison.html with charts,
the per-board history, trends across runs and the comparison of two runs.

- `metrics`: the model (fields, verdicts, a run's verdict and state, summary.csv rows); imports no writer
- `recorder`: RunRecorder (run.json, metrics.json, summary.csv, written atomically per judged criterion; at the
  end comparison.html and the history)
- `rundir`: reading a run directory back (run.json, metrics.json), resolving `<board>/<run>` names
- `html`: comparison.html and the per-suite table logged into Robot's log
- `charts`: the measured/published ratio chart of a suite (matplotlib, inline SVG)
- `history`: results/<board>/history.jsonl, one line per finished run
- `trend`, `compare`: a metric or a suite across runs; what moved between two runs
"""
