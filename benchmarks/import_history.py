"""Benchmark: every version of TI's performance guides imports, or is reported, number by number.

    python benchmarks/import_history.py FOLDER [--json OUT] [--quiet]

FOLDER holds guide versions (*.rst), e.g. the whole history extracted by benchmarks/extract_history.py from
TexasInstruments/processor-sdk-doc. Each version is imported on its own (perfgate.guides.importer, as
`python -m perfgate import` would) and compared with an independent count of the numbers it publishes
(`published`, counted here without the importer's reader: value cells of csv and grid tables past the first
column, bare number lines of the flat lists, `# Name: value` lines of cyclictest summaries; columns and rows that
are settings, such as sizes, are not counted).

Per version and in total: published, imported (criteria), collapsed (identical copies of an imported number),
reported (numbers left out under a reported reason),
stopped whole (the import raised and wrote nothing), tracebacks (an exception that is a bug). `covered` is
imported + collapsed + reported, at most published, per version. Exits 1 when coverage is under 99 %, when an
import stopped whole or raised, and when it measured nothing (no version, nothing published).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

from perfgate.errors import PerfgateError
from perfgate.guides.importer import Importer

TARGET = 0.99
NUMBER = re.compile(r"^~?-?\d+(?:\.\d+)?\s*%?(?:\s*\(\s*min\s+[-\d.]+\s*%?\s*,\s*max\s+[-\d.]+\s*%?\s*\))?$")
SETTING = re.compile(r"size|bytes\)?$|datagram|voltage|test number|interval|^total$|number of|sensor", re.I)
SUMMARY = re.compile(r"^\s*#\s+[A-Za-z][A-Za-z ]*:\s+\d+\s*$")


def _numeric(cell: str) -> bool:
    return bool(NUMBER.match(cell.replace("\\", "").strip()))


def _numbers(cell: str) -> int:
    """How many numbers a cell publishes: one, or one a CPU core in a per-core cell (`5,5,5,5`)."""
    parts = cell.split(",")
    return len(parts) if len(parts) > 1 and all(_numeric(p) for p in parts) else int(_numeric(cell))


def _count_cells(header: list[str], rows: list[list[str]]) -> int:
    keep = [k for k in range(1, len(header)) if not SETTING.search(header[k].replace("*", "").strip())]
    extra = len(header) or 1  # rows longer than the header: their cells past it count as values
    values = [r for r in rows if not (r and SETTING.search(r[0].replace("\\", "")))]  # a setting row: packet size
    return sum(_numbers(c) for r in values for k, c in enumerate(r) if k in keep or k >= extra)


def count_published(text: str) -> int:
    """The numbers a guide publishes, counted line by line (independent of perfgate.guides.rst)."""
    lines = text.splitlines()
    total, i, n = 0, 0, len(lines)
    while i < n:
        s = lines[i].strip()
        if re.match(r"^\s*\.\.\s+csv-table::", lines[i]):
            indent = len(lines[i]) - len(lines[i].lstrip())
            j = i + 1
            body = []
            while j < n and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
                body.append(lines[j].strip())
                j += 1
            header: list[str] = []
            content = []
            for b in body:
                if b.startswith(":header:"):
                    header = next(csv.reader([b[len(":header:") :]], skipinitialspace=True), [])
                elif b and not b.startswith(":"):
                    content.append(b)
            rows = list(csv.reader(content, skipinitialspace=True))
            total += _count_cells(header or ["key"], rows)
            i = j
            continue
        if s.startswith("+-") or (s.startswith("+=") and i + 1 < n):
            j = i
            block = []
            while j < n and lines[j].strip().startswith(("+", "|")):
                block.append(lines[j].strip())
                j += 1
            rows = [[c.strip().strip("*") for c in b.strip("|").split("|")] for b in block if b.startswith("|")]
            if any(b.startswith("+=") for b in block):
                head = sum(1 for b in block[: next(k for k, b in enumerate(block) if b.startswith("+="))]
                           if b.startswith("|"))  # fmt: skip
            else:
                head = 1
            if rows:
                total += _count_cells(rows[0] if head else ["key"], rows[head:])
            i = j
            continue
        if s.endswith("::") and not s.startswith(".."):
            j = i + 1
            while j < n and (not lines[j].strip() or lines[j].startswith((" ", "\t"))):
                total += 1 if SUMMARY.match(lines[j]) else 0
                j += 1
            i = j
            continue
        if _numeric(s) and not lines[i].startswith((" ", "\t")):
            total += 1  # a flat list's value line
        i += 1
    return total


@dataclass
class VersionResult:
    file: str
    published: int
    imported: int = 0
    reported: int = 0
    collapsed: int = 0
    problems: int = 0
    stopped: str = ""
    traceback: str = ""

    @property
    def covered(self) -> int:
        return min(self.imported + self.collapsed + self.reported, self.published)


def import_one(path: Path) -> VersionResult:
    r = VersionResult(path.name, count_published(path.read_text(encoding="utf-8", errors="replace")))
    try:
        (gi,) = Importer().run([path])
    except PerfgateError as e:
        r.stopped = str(e)
        return r
    except Exception:  # a traceback is what this benchmark counts
        r.traceback = traceback.format_exc()
        return r
    r.imported, r.reported, r.collapsed, r.problems = len(gi.criteria), gi.reported, gi.collapsed, len(gi.errors)
    return r


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", type=Path, help="write the per-version results here")
    parser.add_argument("--quiet", "-q", action="store_true", help="totals only")
    args = parser.parse_args()
    versions = sorted(args.folder.glob("*.rst"))
    start = time.perf_counter()
    results = [import_one(p) for p in versions]
    elapsed = time.perf_counter() - start
    if not args.quiet:
        print(f"{'published':>9} {'imported':>8} {'reported':>8} {'covered':>7}  version")
        for r in results:
            flag = " STOPPED" if r.stopped else " TRACEBACK" if r.traceback else ""
            share = r.covered / r.published if r.published else 1.0
            print(f"{r.published:9} {r.imported:8} {r.reported:8} {share:7.1%}  {r.file}{flag}")
    for r in results:
        if r.stopped or r.traceback:
            print(f"{r.file}: {r.stopped or r.traceback}", file=sys.stderr)
    published = sum(r.published for r in results)
    imported = sum(r.imported for r in results)
    reported = sum(r.reported for r in results)
    collapsed = sum(r.collapsed for r in results)
    covered = sum(r.covered for r in results)
    stopped = sum(1 for r in results if r.stopped)
    tracebacks = sum(1 for r in results if r.traceback)
    print(f"{len(results)} versions in {elapsed:.1f} s: published {published}, imported {imported} "
          f"({imported / max(published, 1):.1%}), identical copies collapsed {collapsed}, reported {reported} "
          f"({sum(r.problems for r in results)} problems), "
          f"imported or reported {covered / max(published, 1):.2%}, stopped whole {stopped}, "
          f"tracebacks {tracebacks}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1), encoding="utf-8")
    if not results or not published:
        print("NOTHING MEASURED: no guide version or no published number in " + str(args.folder))
        return 1
    ok = covered / published >= TARGET and not stopped and not tracebacks
    print("OK" if ok else f"FAILED: under {TARGET:.0%} covered, or an import stopped whole or raised")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
