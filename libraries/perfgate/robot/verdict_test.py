"""The `Gate Verdict` test the gate adds to the top suite while no criterion has been judged, or while criteria are
inconclusive under INCONCLUSIVE:fail (they read SKIP, not FAIL, in Robot's reports), so that Robot's exit status
agrees with the gate's verdict: a run that measured nothing, or left criteria undecided, fails. Robot runs it after
every suite (or, in a one-file run, after the last test); the gate removes it again as soon as it is not needed."""

from __future__ import annotations

from robot.running.context import EXECUTION_CONTEXTS


class VerdictTest:
    """Keeps the test in the running top suite (`top`: robot.running.TestSuite) exactly while `sync(True)`."""

    def __init__(self, keyword: str) -> None:
        self.keyword = keyword  # the keyword the test runs (the gate's `Gate Verdict Should Pass`)
        self.top = None  # the running top suite: where the test goes
        self.test = None  # the test while it is in the top suite

    def sync(self, needed: bool) -> None:
        """Add the test when `needed` and not there, remove it when there and no longer needed (not in a dry run)."""
        if self.top is None or _dry_run():
            return
        if needed and self.test is None:
            t = self.top.tests.create(
                name="Gate Verdict",
                doc="Added by the gate because no criterion was judged, or criteria are inconclusive under "
                "INCONCLUSIVE:fail: such a run fails the gate, and Robot's exit status says so.",
            )
            t.body.create_keyword(name=self.keyword)
            self.test = t
        elif not needed and self.test is not None:
            if self.test in self.top.tests:
                self.top.tests.remove(self.test)
            self.test = None


def _dry_run() -> bool:
    ctx = EXECUTION_CONTEXTS.current
    return bool(ctx and ctx.dry_run)
