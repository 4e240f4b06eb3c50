"""What changed in TI's published numbers between two releases, number by number (`perfgate guides diff`).

Criteria of the two releases are matched by id (`<board>.<suite>.<table>.<row>.<metric>`, the guide's own
words), else, for a table renamed between releases, by suite, row and metric when that names one criterion on each
side; each pair is `better`, `worse` or `same` in the criterion's direction (a `match` criterion that moved is
`changed`), and what only one release publishes is listed as added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from perfgate import criteria
from perfgate.errors import PerfgateError
from perfgate.model import Criterion


@dataclass
class Change:
    board: str
    suite: str
    id: str
    name: str
    unit: str
    direction: str
    a: float | None
    b: float | None
    verdict: str  # better | worse | same | changed | added | removed
    source_a: str = ""
    source_b: str = ""

    @property
    def percent(self) -> float | None:
        if self.a is None or self.b is None or self.a == 0:
            return None
        return (self.b - self.a) / abs(self.a) * 100.0


def _load(root: Path, board: str, release: str) -> dict[str, Criterion]:
    d = root / board / release
    return {c.id: c for f in sorted(d.glob("*.csv")) for c in criteria.read(f)} if d.is_dir() else {}


def _pairs(a: dict[str, Criterion], z: dict[str, Criterion]) -> dict[str, str]:
    """Ids of A -> ids of B: the same id, else (a table renamed between releases: `Dhrystone Benchmark` became
    `Dhrystone Benchmarks`) the one criterion of B with the same suite, row and metric, when there is one."""

    def key(c: Criterion) -> tuple[str, str, str]:
        return (c.suite, " ".join(c.row.casefold().split()), " ".join(c.metric.casefold().split()))

    only_z: dict[tuple[str, str, str], list[str]] = {}
    for cid, c in z.items():
        if cid not in a:
            only_z.setdefault(key(c), []).append(cid)
    only_a: dict[tuple[str, str, str], list[str]] = {}
    for cid, c in a.items():
        if cid not in z:
            only_a.setdefault(key(c), []).append(cid)
    out = {cid: cid for cid in a if cid in z}
    for k, ids in only_a.items():
        if len(ids) == 1 and len(only_z.get(k, [])) == 1:
            out[ids[0]] = only_z[k][0]
    return out


def verdict(direction: str, a: float, b: float) -> str:
    if a == b:
        return "same"
    if direction == "match":
        return "changed"
    return "better" if (b > a) == (direction == "higher") else "worse"


def diff(root: Path, release_a: str, release_b: str, board: str | None = None) -> list[Change]:
    """Every criterion of the boards that publish numbers in both releases (or of `board`)."""
    boards = [board] if board else sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    both = [b for b in boards if (root / b / release_a).is_dir() and (root / b / release_b).is_dir()]
    if not both:
        where = f"board {board}" if board else "any board"
        known = sorted({p.name for b in boards for p in (root / b).glob("*") if p.is_dir()}, key=criteria.release_key)
        raise PerfgateError(f"no criteria of {where} in both releases {release_a} and {release_b} (releases there: "
                            f"{', '.join(known) or 'none'})", root)  # fmt: skip
    out: list[Change] = []
    for b in both:
        a, z = _load(root, b, release_a), _load(root, b, release_b)
        pairs = _pairs(a, z)
        for cid in [*a, *(k for k in z if k not in a and k not in pairs.values())]:
            ca, cz = a.get(cid), z.get(pairs.get(cid, cid))
            c = cz or ca
            assert c is not None
            v = verdict(cz.direction, ca.value, cz.value) if ca and cz else "added" if cz else "removed"
            out.append(Change(b, c.suite, cid, c.name, c.unit, c.direction, ca.value if ca else None,
                              cz.value if cz else None, v, ca.source if ca else "",
                              cz.source if cz else ""))  # fmt: skip
    return out
