"""Published spreads that are not spreads: a `value (min a, max b)` whose min and max say nothing of how the number
strays from run to run, so the verdict never takes them as noise (decision.sequential) and the simulated board never
draws with them (perfgate.sim.spread).

Three traits, each seen in TI's guides:

- **A paired bw_mem row.** TI's parser files `bw_mem <N>M <op>` and the next operation of its list under one name for
  N in 1, 2, 4, 8 MB (perfgate.tools.lmbench): the published value is the mean of two different operations and its
  min and max are the two operations' own values (bzero-1mb's min is bcopy-1mb's min, its max fcp-1mb's max).
- **A minimum of zero** on a positive value (`latency for 1.00 MB block size`: the mean of a row and a 0.00).
- **A minimum or maximum shared verbatim with another row** of the same guide table, with four significant digits or
  more (two measurements agreeing to four digits by chance is rare; a parser copying one row's extremes into another
  is what it shows).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from perfgate.model import Criterion

BW_MEM_ROW = re.compile(r"^bw_mem-(?P<op>[a-z]+)-(?P<mb>\d+)mb\b", re.I)
MIN_DIGITS = 4  # a min or max shared verbatim with another row counts from this many significant digits


def significant_digits(x: float) -> int:
    """How many significant digits a published figure carries as printed (1022.11 -> 6, 0.5 -> 1, 1200.0 -> 2)."""
    text = f"{abs(x):.10g}"
    digits = text.replace(".", "").replace("-", "").lstrip("0")
    if "." not in text:
        digits = digits.rstrip("0")
    return len(digits)


def _paired(c: Criterion) -> str | None:
    from perfgate.tools.lmbench import ti_partner  # late: tools import nothing from here, and this is its knowledge

    m = BW_MEM_ROW.match(c.row.replace("\\_", "_").strip())
    if c.suite != "lmbench" or not m:
        return None
    partner = ti_partner(int(m["mb"]), m["op"].lower())
    if partner is None:
        return None
    return (f"TI's parser publishes bw_mem-{m['op']}-{m['mb']}mb as the mean of two operations ({m['op']} and "
            f"{partner}): its min and max are the two operations' values, not a spread")  # fmt: skip


def find(criteria: Iterable[Criterion]) -> dict[str, str]:
    """Criterion id -> why its published min/max is not a spread, for the criteria that print one."""
    crits = [c for c in criteria if c.min is not None and c.max is not None]
    out: dict[str, str] = {}
    seen: dict[tuple[str, str, float], list[tuple[str, str]]] = defaultdict(list)  # (guide, table, figure) -> rows
    for c in crits:
        for which, figure in (("min", c.min), ("max", c.max)):
            if figure is not None and significant_digits(figure) >= MIN_DIGITS:
                seen[(c.guide, c.table, figure)].append((c.id, f"{which} of {c.row!r}"))
    paired = {c.id: why for c in crits if (why := _paired(c))}
    for c in crits:
        if c.id in paired:
            out[c.id] = paired[c.id]
            continue
        if c.value > 0 and c.min is not None and c.min <= 0:
            out[c.id] = f"its published min is {c.min:g} on a positive mean: not a spread (a 0.00 averaged in)"
            continue
        for which, figure in (("min", c.min), ("max", c.max)):
            # a row whose extreme a paired row copied keeps its own: the copy is the paired row's artefact
            key = (c.guide, c.table, figure)
            others = [what for cid, what in seen.get(key, []) if cid != c.id and cid not in paired]  # type: ignore[arg-type]
            if others:
                out[c.id] = (f"its published {which} {figure:g} is verbatim the {others[0]}: copied extremes, "
                             f"not a spread")  # fmt: skip
                break
    return out
