"""`robot --listener perfgate.robot.listener.RunFiles ...`: puts Robot's output.xml, log.html, report.html and
xunit into the run directory (results/<board>/<run>/) when Robot has written them, and rebuilds comparison.html
so that its links into the log work. A library cannot do this: Robot tells only command-line listeners where
its files are. Under pabot (no log per process) it writes the board's log.html with rebot.
"""

from __future__ import annotations

from pathlib import Path

from robot.libraries.BuiltIn import BuiltIn, RobotNotRunningError


class RunFiles:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self) -> None:
        self.run_dir: Path | None = None
        self.files: dict[str, str] = {}
        self.robot: dict[str, int] = {}
        self.board = ""

    def end_suite(self, data, result) -> None:
        if result.parent is not None:
            return
        s = result.statistics
        self.robot = {"tests": s.total, "passed": s.passed, "failed": s.failed, "skipped": s.skipped}
        try:
            value = BuiltIn().get_variable_value("${RUN_DIR}")
        except RobotNotRunningError:
            return
        if value:
            self.run_dir = Path(str(value))
        self.board = str(BuiltIn().get_variable_value("${BOARD_NAME}") or "")

    def output_file(self, path) -> None:
        """Robot's output.xml is written: its top suite gets the board's name before Robot writes the log, report
        and xunit from it (report title and xunit classnames then say which board)."""
        self.files["output"] = str(path)
        if self.board and str(path).upper() != "NONE":
            from perfgate.report.robotfiles import name_top_suite

            try:
                name_top_suite(Path(str(path)), self.board)
            except OSError as e:
                print(f"perfgate: could not name the top suite after the board in {path}: {e}")

    def log_file(self, path) -> None:
        self.files["log"] = str(path)

    def report_file(self, path) -> None:
        self.files["report"] = str(path)

    def xunit_file(self, path) -> None:
        self.files["xunit"] = str(path)

    def close(self) -> None:
        if self.run_dir is None or not self.run_dir.is_dir():
            return
        from perfgate.report import html, robotfiles, rundir
        from perfgate.report.metrics import run_verdict, update_meta, verdict_reason

        try:
            run = rundir.load(self.run_dir)
            if self.robot:  # Robot's own count: tests that failed before any criterion was judged show here
                meta = {**run.meta, "robot": self.robot}
                update_meta(self.run_dir, {"robot": self.robot, "verdict": run_verdict(meta, run.entries),
                                           "verdict_reason": verdict_reason(meta, run.entries)})  # fmt: skip
            robotfiles.collect(self.run_dir, self.files, run.meta)
            html.build(self.run_dir)
        except Exception as e:  # the run's own files are valid already; never fail the run here
            print(f"perfgate: could not copy Robot's files into {self.run_dir}: {e}")
