"""Where between two builds a regression came in: a bisect over an ordered list of builds, the first known good and
the last known worse, each step an A/B of the known good build against the middle one (perfgate.baseline.ab's
rule, through a `compare(good, candidate)` callable). The reference stays the first build: a build in between that
improved is no new reference (against it the next, merely unchanged, build would read worse: Pinpoint's blamed
improvements).

Aware of the direction: only `worse` (worse in the criterion's own direction, as the A/B rule reads it) moves the
bad end; `better` and `same` move the good end (an improvement is never blamed). A build that does not boot
(`compare` returns None) is skipped and said: the nearest bootable build to the middle is tried instead, and the
result names the skipped builds that lie inside the final range (the change may be in any of them). An `undecided`
step (the candidate not shown worse than the good end, nor the same) asks the other side: is the bad end worse than
the candidate (then the candidate is good), or the same or better (then it is bad); undecided again, the bisect
stops there and says so (its range is what is known), rather than guessing a side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

WORSE, UNDECIDED = "worse", "undecided"

Compare = Callable[[str, str], str | None]  # (good build, candidate) -> the A/B verdict, None: candidate did not boot
OnStep = Callable[["Step", str, str], None]  # (the step, the last good and the first worse build known after it)


@dataclass
class Step:
    good: str
    candidate: str
    verdict: str  # worse, better, same, undecided, or "did not boot"


@dataclass
class Bisect:
    last_good: str
    first_bad: str
    steps: list[Step] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # builds that did not boot, inside the final range
    stopped: str = ""  # why the bisect stopped before the range was one step wide

    @property
    def found(self) -> bool:
        return not self.stopped and not self.skipped

    def describe(self) -> str:
        where = f"between {self.last_good} (good) and {self.first_bad} (worse)"
        if self.found:
            return f"the regression came in with {self.first_bad} (the build after {self.last_good})"
        extra = f"; did not boot: {', '.join(self.skipped)}" if self.skipped else ""
        return f"the regression came in {where}{extra}" + (f"; {self.stopped}" if self.stopped else "")


def bisect(builds: list[str], compare: Compare, on_step: OnStep | None = None) -> Bisect:
    """builds[0] good, builds[-1] worse than it (the caller has seen it): the first build that is worse.
    `on_step` hears of each step as it is decided, with the range known after it."""
    if len(builds) < 2:
        raise ValueError("a bisect needs at least two builds: the good one and the worse one")
    lo, hi = 0, len(builds) - 1
    dead: set[int] = set()
    out = Bisect(builds[lo], builds[hi])
    while hi - lo > 1:
        inside = [i for i in range(lo + 1, hi) if i not in dead]
        if not inside:
            break
        mid = (lo + hi) // 2
        pick = min(inside, key=lambda i: (abs(i - mid), i))
        verdict = compare(builds[0], builds[pick])  # always the known good build: an improvement moves no reference
        out.steps.append(Step(builds[0], builds[pick], verdict if verdict is not None else "did not boot"))
        if verdict is None:
            dead.add(pick)
        elif verdict == WORSE:
            hi = pick
        elif verdict == UNDECIDED:  # not shown worse than the good end: is the bad end worse than it?
            if on_step:
                on_step(out.steps[-1], builds[lo], builds[hi])
            against_bad = compare(builds[pick], builds[hi])
            out.steps.append(Step(builds[pick], builds[hi], against_bad or "did not boot"))
            if against_bad == WORSE:
                lo = pick
            elif against_bad in ("same", "better"):
                hi = pick
            else:
                out.stopped = (f"{builds[pick]} could be told neither from {builds[0]} nor from {builds[hi]} "
                               f"(undecided): the bisect stops there")  # fmt: skip
                if on_step:
                    on_step(out.steps[-1], builds[lo], builds[hi])
                break
        else:
            lo = pick
        if on_step:
            on_step(out.steps[-1], builds[lo], builds[hi])
    out.last_good, out.first_bad = builds[lo], builds[hi]
    out.skipped = [builds[i] for i in sorted(dead) if lo < i < hi]
    return out
