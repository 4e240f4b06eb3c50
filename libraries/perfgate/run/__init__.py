"""One gate run, room by room; the Robot library perfgate.robot.gate only calls them.

- session.py: the run itself: board, release, run variables and faults checked, results/<board>/<run>/ opened,
  the signal that stops it, earlier killed runs swept;
- plan.py: criteria -> suites and commands: the criteria files DataDriver reads, the tools the selected suites run,
  which criteria REPEAT runs cannot decide;
- runner.py: runs a suite's workload (the Context it sees: commands, progress lines, evidence in raw/<suite>/,
  console waits), again while the judge (perfgate.decision.judge) says a criterion is undecided;
- recording.py: what is recorded of each criterion (metrics.json entries, run.json, the history, the log table),
  standing on perfgate.report.metrics and perfgate.report.recorder.
"""
