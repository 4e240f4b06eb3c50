"""A Robot listener for tests (`robot --listener tests/reboot_listener.py`): the judge asks for a fresh boot after
each suite's first round (SuiteDecision.reboot) and lets the rule decide after that, so that a test sees the runner
bring the board up afresh through the board library's own bring-up. It stands in for the rule that will choose when
repetition across boots matters; nothing in the product imports it."""

from __future__ import annotations

from perfgate.decision import judge

ROBOT_LISTENER_API_VERSION = 3
_decide = judge.Judge.decide
_asked: set[tuple[str, ...]] = set()


def _across_boots(self: judge.Judge, state: judge.SuiteState) -> judge.SuiteDecision:
    key = tuple(sorted(state.criteria))
    if key not in _asked and state.more_runs and state.samples:
        _asked.add(key)
        return judge.SuiteDecision(undecided=sorted(state.criteria), reboot=True)
    return _decide(self, state)


judge.Judge.decide = _across_boots  # type: ignore[method-assign]
