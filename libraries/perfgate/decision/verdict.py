"""The verdict: is a measured value no worse than the published one by more than the tolerance?

- higher is better: pass when measured >= published - allowed; warn when measured > published + allowed.
- lower is better: pass when measured <= published + allowed; warn when measured < published - allowed.
- match: pass when |measured - published| <= allowed (a clock, a mode: no "better").
allowed = max(tolerance x |published|, absolute), so that a published 0 (0 % packet loss) is judged on an absolute
slack from the tolerance policy rather than on a meaningless relative one.
A criterion with no measured value is not-measured, which the gate reports as a failure.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from enum import StrEnum

from perfgate.decision.tolerance import Tolerance
from perfgate.model import Criterion


class Verdict(StrEnum):
    """A criterion's verdict, worst first. A str: metrics.json, summary.csv, the reports and Robot's log read exactly
    these words (`Verdict.NOT_MEASURED == "not-measured"`, json.dumps writes "not-measured"), and a verdict read back
    from a file compares equal to its member."""

    FAIL = "fail"
    NOT_MEASURED = "not-measured"
    INCONCLUSIVE = "inconclusive"  # undecided within its runs: fails the gate unless INCONCLUSIVE:pass
    WARN = "warn"  # better than published by more than the tolerance: passes, with a warning
    PASS = "pass"
    SKIP = "skip"  # not judged (no such peripheral, a waiver, a missing tool under ON_MISSING_TOOL:skip)


PASSING = frozenset({Verdict.PASS, Verdict.WARN})
FAILING = frozenset({Verdict.FAIL, Verdict.NOT_MEASURED, Verdict.INCONCLUSIVE})  # but INCONCLUSIVE:pass
JUDGED = PASSING | FAILING  # a criterion the run tried to measure


class RunVerdict(StrEnum):
    """run.json's `verdict` (DESIGN.md): never PASS when nothing was judged or the run did not finish."""

    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"  # DESIGN.md names it; today an undecided criterion makes the run FAIL (or passes)
    INCOMPLETE = "incomplete"  # the run did not finish


# the names the decision's modules import
PASS, FAIL, WARN, NOT_MEASURED = Verdict.PASS, Verdict.FAIL, Verdict.WARN, Verdict.NOT_MEASURED
INCONCLUSIVE, SKIP = Verdict.INCONCLUSIVE, Verdict.SKIP


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    measured: float | None
    published: float
    unit: str
    direction: str
    tolerance: float  # relative, 0.10 = 10 %
    absolute: float  # absolute slack in the criterion's unit
    allowed: float  # the slack actually applied
    delta_pct: float | None  # (measured - published) / published x 100; None when published is 0 or not measured
    message: str

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING

    def to_json(self) -> dict:
        return asdict(self)


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def judge(c: Criterion, measured: float | None, tol: Tolerance, reason: str = "") -> Judgement:
    allowed = max(tol.relative * abs(c.value), tol.absolute)
    base = dict(
        published=c.value,
        unit=c.unit,
        direction=c.direction,
        tolerance=tol.relative,
        absolute=tol.absolute,
        allowed=allowed,
    )
    if measured is None or (isinstance(measured, float) and math.isnan(measured)):
        why = f": {reason}" if reason else ""
        msg = f"{c.name}: not measured{why} (published {_fmt(c.value)} {c.unit})"
        return Judgement(verdict=NOT_MEASURED, measured=None, delta_pct=None, message=msg, **base)

    diff = measured - c.value
    delta_pct = diff / c.value * 100 if c.value else None
    if c.direction == "higher":
        worse, better = -diff, diff
    elif c.direction == "lower":
        worse, better = diff, -diff
    elif c.direction == "match":
        worse, better = abs(diff), 0.0
    else:
        raise ValueError(f"criterion {c.id}: unknown direction {c.direction!r}")

    eps = 1e-9 * max(1.0, abs(c.value))  # float noise only
    if worse > allowed + eps:
        verdict = FAIL
    elif better > allowed + eps:
        verdict = WARN
    else:
        verdict = PASS

    delta = f"{delta_pct:+.1f}%" if delta_pct is not None else f"{diff:+.6g} {c.unit}"
    slack = f"tolerance {tol.relative * 100:g}%" + (f" or {_fmt(tol.absolute)} {c.unit}" if tol.absolute else "")
    head = (
        f"{c.name}: measured {_fmt(measured)} {c.unit}, published {_fmt(c.value)} {c.unit} "
        f"({c.direction} is better), {slack}, delta {delta}"
    )
    if verdict == FAIL:
        msg = f"{head}: worse than published by more than the tolerance"
    elif verdict == WARN:
        msg = (
            f"{head}: better than published by more than the tolerance "
            "(a stale threshold, or the workload did not do what it should?)"
        )
    else:
        msg = f"{head}: within tolerance"
    return Judgement(verdict=verdict, measured=measured, delta_pct=delta_pct, message=msg, **base)
