"""The import report: per guide, the tables read, criteria per board, tables skipped with the reason."""

from __future__ import annotations

from collections import Counter

from perfgate.decision import artefacts
from perfgate.guides.importer import GuideImport


def render(gi: GuideImport) -> str:
    read = [tr for tr in gi.results if tr.values]
    skipped = [tr for tr in gi.results if tr.skipped]
    per_board = Counter(c.board for c in gi.criteria)
    lines = [
        f"{gi.name} (release {gi.release}): {len(gi.results)} tables, {len(read)} read, {len(skipped)} skipped, "
        f"{len(gi.criteria)} criteria"
        + (f"; {gi.reported} published numbers not imported, each under a reported reason" if gi.reported else "")
        + (f"; {gi.collapsed} identical copies collapsed" if gi.collapsed else "")
    ]
    for board in sorted(per_board):
        suites = Counter(c.suite for c in gi.criteria if c.board == board)
        detail = ", ".join(f"{s} {n}" for s, n in sorted(suites.items()))
        lines.append(f"  {board}: {per_board[board]} criteria ({detail})")
    for tr in read:
        lines.append(
            f"  read     {gi.name}:{tr.table.line} {tr.table.kind} '{tr.title}' -> {tr.suite}: {len(tr.values)}"
        )
    for nb in gi.generated:
        lines.append(f"  NEW      {gi.name}: board {nb.board} from Evaluation Module {nb.module!r}, profile generated; "
                     f"assumed: {'; '.join(nb.assumed)}")  # fmt: skip
    for w in gi.warnings:
        lines.append(f"  WARNING  {gi.name}: {w}")
    # published min/max that are not spreads: the verdict never takes them as noise (perfgate.decision.artefacts)
    for board in sorted(per_board):
        mine = [c for c in gi.criteria if c.board == board]
        found = artefacts.find(mine)
        for c in mine:
            why = found.get(c.id)
            if why:
                lines.append(f"  spread   {c.source} {board} '{c.row}': not a spread, not used as noise: {why}")
    for tr in gi.results:
        for line, message in tr.cell_errors:
            lines.append(f"  ERROR    {gi.name}:{line} '{tr.title}': {message}")
        for note in tr.notes:
            lines.append(f"  note     {gi.name}:{tr.table.line} '{tr.title}': {note}")
    for tr in skipped:
        kind = "ERROR" if tr.error else "skipped"
        where = tr.error_line or tr.table.line
        lines.append(f"  {kind:8} {gi.name}:{where} {tr.table.kind} '{tr.title}': {tr.skipped}")
    return "\n".join(lines)
