"""System Benchmarks / CoreMark-PRO: one `certify-all` run per number of contexts the board's tables need.

The table title decides the contexts and the column (variables/workloads/coremark_pro.yaml `tables`): the guides'
"CoreMarkPro" table is one context, "CoreMarkProTwoCore" / "CoreMarkPro for Two Cores" two. Rows are named alike in
both tables, so each table's criteria are matched on their own run.
"""

from __future__ import annotations

import re

from perfgate.errors import DataError
from perfgate.model import Criterion
from perfgate.tools.coremark_pro import SINGLE
from perfgate.workloads.system_common import ToolWorkload, fill


class CoreMarkProWorkload(ToolWorkload):
    suite = "coremark_pro"
    tool = "coremark-pro"

    def commands(self, criteria: list[Criterion], s: dict) -> list[tuple[str, str, list[Criterion]]]:
        groups: dict[int, list[Criterion]] = {}
        columns: dict[str, str] = {}
        for c in criteria:
            rule = next((r for r in s.get("tables") or [] if re.search(str(r.get("table", "")), c.table)), None)
            if rule is None:
                raise DataError(f"no rule in coremark_pro.tables matches the table {c.table!r}")
            groups.setdefault(int(rule["contexts"]), []).append(c)
            columns[c.id] = str(rule.get("column", "MultiCore"))
        out = []
        for contexts, crits in sorted(groups.items()):
            command = fill(s["command"], s, contexts=contexts)
            single = [c for c in crits if columns[c.id] == "SingleCore"]
            multi = [c for c in crits if columns[c.id] != "SingleCore"]
            if multi:
                out.append((command, f"coremark-pro-c{contexts}", multi))
            if single:  # read from the same run's SingleCore column: parser names with the single-core prefix
                out.append((command, f"coremark-pro-c{contexts}", [_single(c) for c in single]))
        return out


def _single(c: Criterion) -> Criterion:
    from dataclasses import replace

    return replace(c, row=SINGLE + c.row)


WORKLOAD = CoreMarkProWorkload()
