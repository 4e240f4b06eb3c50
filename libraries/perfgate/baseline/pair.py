"""Two recorded runs compared with the two-sample rule (`perfgate compare A B`): each criterion both measured, from
their metrics.json entries (their `samples`, else the judged value), with the noise a run's baseline comparison uses
(its class, widened to its guide's spread, or the board's history of accepted runs in run B's lab); each suite
likewise. Every criterion and suite compared counts in the family a `worse` is held to."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from perfgate.baseline import config, noise, rule, select
from perfgate.decision.tolerance import MATCH_FIELDS
from perfgate.report.rundir import Run


@dataclass
class Pair:
    changes: dict[str, rule.Change] = field(default_factory=dict)  # criterion key (id without board) -> change
    suites: dict[str, rule.Change] = field(default_factory=dict)


def as_criterion(e: dict) -> SimpleNamespace:
    """The fields a class matches on and the published figures, from a metrics.json entry."""
    fields = {f: str(e.get(f) or "") for f in MATCH_FIELDS}
    return SimpleNamespace(**fields, value=e.get("published") or 0.0, min=e.get("min"), max=e.get("max"))


def compare_runs(a: Run, b: Run, cfg: config.Config | None = None) -> Pair:
    cfg = cfg or config.load()
    va, vb = select.values_of(a.entries, a.board), select.values_of(b.entries, b.board)
    eb = {select.key(str(e.get("id", "")), b.board): e for e in b.entries}
    keys = [k for k in vb if k in va and k in eb]
    suites = {str(eb[k].get("suite") or "") for k in keys}
    m = max(len(keys) + len(suites), 1)
    history = select.board_runs(b.board, b.virtual, str(b.meta.get("lab") or ""), exclude=b.name)
    out = Pair()
    rows: dict[str, list] = {}
    for k in keys:
        e = eb[k]
        c = as_criterion(e)
        artefact = isinstance(e.get("noise"), dict) and bool(e["noise"].get("guide_spread_not_used"))
        n = noise.of_criterion(c, cfg, artefact, history.get(k, []))  # type: ignore[arg-type]
        direction = str(e.get("direction") or "higher")
        out.changes[k] = rule.compare(va[k], vb[k], direction, n, cfg, m)
        rows.setdefault(str(e.get("suite") or ""), []).append((va[k], vb[k], direction, n))
    for suite, parts in rows.items():
        ch = rule.combine(parts, cfg, m)
        if ch is not None:
            out.suites[suite] = ch
    return out
