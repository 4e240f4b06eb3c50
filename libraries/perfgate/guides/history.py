"""Every version of TI's guides, side by side: which release each version belongs to, and which version a
release's thresholds come from.

A folder of guide versions (benchmarks/extract_history.py writes one from TexasInstruments/processor-sdk-doc,
with a `manifest.json`: file, TI path, revision, date) is imported version by version, each into its own folder,
so versions of one release never collide. The committed variables/thresholds are never touched.

The rules (the report and `history.json` say which applied to each version):
- **Release of a version**: as the version states it (its title `Linux 11.01 Performance Guide`, `RT-linux 11.02
  ...`, the 2018 lists' `**2017.05**`; `-RT` for an RT-Linux guide). A version that states none takes, *assumed*:
  the release of this guide's (perfgate.guides.identity) nearest earlier version that states one (TI edits a guide
  within a release after publishing its numbers); else the newest release that any guide of the same kind (Linux,
  RT, Android) of the history had stated by the version's date (TI releases the devices' SDKs together); else the
  release of this guide's next version that states one. A guide no version of which states one stays `unstated`.
- **Which version a release's thresholds come from**: for each guide and release, the newest version (by commit
  date) that states the release; only when none states it, the newest that is assumed to have it. TI edits a guide
  many times within a release (corrections, new tables): the last edit is what TI published for that release.
  When two guides (the 2018-2022 multi-device guide and a device's own guide) publish numbers for one board and
  release, the newer chosen version gives that board's files, and the overlap is listed.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from perfgate.errors import PerfgateError
from perfgate.guides import identity, rst
from perfgate.guides.importer import GuideImport, Importer, guide_release, render_files

NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})_([0-9a-f]{7,40})__")


@dataclass
class Version:
    file: str
    revision: str
    date: str
    source: str  # the path in TI's repository (or the file name)
    identity: str = ""
    stated: str | None = None  # the release the version states, None when it states none
    release: str = ""
    assumed: str = ""  # why the release is assumed ("" when stated)
    chosen: bool = False  # the version this guide's release takes its thresholds from
    criteria: int = 0
    reported: int = 0
    problems: list[str] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)


def versions(folder: Path) -> list[Version]:
    """The guide versions in a folder, oldest first: from its manifest.json, else from the file names
    (`<date>_<revision>__<path>.rst`, as extract_history.py names them; others sort last, by name)."""
    manifest = folder / "manifest.json"
    if manifest.is_file():
        try:
            entries = json.loads(manifest.read_text(encoding="utf-8"))
            found = [Version(e["file"], e["revision"], e["date"], e["path"]) for e in entries]
        except (ValueError, KeyError, TypeError) as e:
            raise PerfgateError(f"not a manifest of guide versions: {e}", manifest) from None
    else:
        found = []
        for p in sorted(folder.glob("*.rst")):
            m = NAME.match(p.name)
            found.append(Version(p.name, m.group(2) if m else "", m.group(1) if m else "", p.name))
    missing = [v.file for v in found if not (folder / v.file).is_file()]
    if missing:
        raise PerfgateError(f"{len(missing)} versions named in the manifest are missing, e.g. {missing[0]}", folder)
    return sorted(found, key=lambda v: (v.date or "9999", v.file))


def assign_releases(folder: Path, found: list[Version]) -> None:
    """Each version's identity and stated release; then the assumed releases (the rule in the module's text)."""
    for v in found:
        path = folder / v.file
        guide = rst.read(path.read_text(encoding="utf-8", errors="replace"))
        v.identity = identity.identity(path, guide.title)
        release = guide_release(path, guide.release, guide.title)
        v.stated = None if release.startswith("unstated") else release
        v.release = release
    by_guide: dict[str, list[Version]] = defaultdict(list)
    for v in found:
        by_guide[v.identity].append(v)
    first: dict[tuple[str, str], Version] = {}  # (kind, release) -> the first version of any guide stating it
    for v in found:
        if v.stated:
            first.setdefault((_kind(v), v.stated), v)
    for history in by_guide.values():
        for k, v in enumerate(history):
            if v.stated:
                continue
            before = next((h for h in reversed(history[:k]) if h.stated), None)
            after = next((h for h in history[k + 1 :] if h.stated), None)
            then = [f for (kind, _), f in first.items() if kind == _kind(v) and f.date <= v.date]
            if before and before.stated:
                v.release = before.stated
                v.assumed = (f"states no release: {before.stated}, the release of this guide's version before it "
                             f"({before.revision[:8]}, {before.date[:10]})")  # fmt: skip
            elif then:
                newest = max(then, key=lambda f: f.date)
                v.release = str(newest.stated)
                v.assumed = (f"states no release, nor does an earlier version of this guide: {newest.stated}, the "
                             f"newest release any guide had stated by {v.date[:10]} (first stated by "
                             f"{newest.file})")  # fmt: skip
            elif after and after.stated:
                v.release = after.stated
                v.assumed = (f"states no release, and no guide had stated one by {v.date[:10]}: {after.stated}, the "
                             f"release of this guide's version after it ({after.revision[:8]}, "
                             f"{after.date[:10]})")  # fmt: skip
            else:
                v.assumed = "states no release, nor does any other version of this guide"


def _kind(v: Version) -> str:
    return v.identity.rsplit(" ", 1)[-1]


def choose(found: list[Version]) -> dict[tuple[str, str], Version]:
    """(identity, release) -> the version its thresholds come from: of the versions that publish numbers, the
    newest that states the release, else the newest."""
    chosen: dict[tuple[str, str], Version] = {}
    for v in found:  # oldest first: a later one replaces an earlier one of the same rank
        if not v.criteria:
            continue  # a page that only includes others, or publishes nothing
        key = (v.identity, v.release)
        current = chosen.get(key)
        if current is None or (not v.assumed or current.assumed):
            chosen[key] = v
    for v in chosen.values():
        v.chosen = True
    return chosen


@dataclass
class History:
    versions: list[Version]
    overlaps: list[str] = field(default_factory=list)


def import_history(folder: Path, out: Path, importer: Importer | None = None) -> History:
    """Import every version into out/versions/<version>/<board>/<release>/<suite>.csv, and the chosen version of
    each guide's release into out/variables/thresholds/<board>/<release>/<suite>.csv; write out/history.json."""
    found = versions(folder)
    if not found:
        raise PerfgateError("no guide versions (*.rst) in the folder", folder)
    assign_releases(folder, found)
    imp = importer or Importer()
    files: dict[str, dict[Path, str]] = {}
    for v in found:
        (gi,) = imp.run([folder / v.file])
        _account(v, gi)
        gi.criteria = [replace(c, release=v.release) if c.release != v.release else c for c in gi.criteria]
        files[v.file] = {_relative(rel): content for rel, content in render_files([gi]).items()}
        for target, content in files[v.file].items():
            _write(out / "versions" / Path(v.file).stem / target, content)
    choose(found)
    history = History(found)
    overlaps: dict[tuple[str, str], set[str]] = defaultdict(set)
    thresholds: dict[Path, tuple[Version, str]] = {}
    for v in (v for v in found if v.chosen):  # oldest first: the newer chosen version gives a shared file
        for target, content in files[v.file].items():
            earlier = thresholds.get(target)
            if earlier:
                overlaps[(earlier[0].file, v.file)].add(target.parts[0] + "/" + target.parts[1])
            thresholds[target] = (v, content)
    history.overlaps = [f"{', '.join(sorted(boards))}: {a} and {b} publish numbers for the same board and "
                        f"release; the newer, {b}, gives them" for (a, b), boards in overlaps.items()]  # fmt: skip
    for target, (_, content) in thresholds.items():
        _write(out / "variables" / "thresholds" / target, content)
    (out / "history.json").write_text(
        json.dumps({"versions": [asdict(v) for v in found], "overlaps": history.overlaps}, indent=1) + "\n",
        encoding="utf-8",
    )
    return history


def _account(v: Version, gi: GuideImport) -> None:
    v.criteria = len(gi.criteria)
    v.reported = gi.reported
    v.problems = [str(e) for e in gi.errors]
    v.boards = sorted({c.board for c in gi.criteria})


def _relative(path: Path) -> Path:
    """<board>/<release>/<suite>.csv of a threshold file path."""
    return Path(*path.parts[-3:])


def _write(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
